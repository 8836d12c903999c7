import { expect, it } from 'vitest';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';

/**
 * Preview links of content drafts (issue 25): the FAQ and each legal page. A link opens its own page's route with the
 * draft (never kept nor indexed) and nothing else: another page's token, a forged one or none at all is the live text.
 */

const clock = new TestClock();

async function draftAndLink(ctx: TestContext, operator: Operator, base: string, body: unknown) {
  const item = (await asOperator(ctx, operator, 'GET', base)).json<{ draft: { version: number } | null }>();
  const saved = await asOperator(ctx, operator, 'PUT', `${base}/draft`, {
    body,
    baseVersion: item.draft?.version ?? 0,
  });
  expect(saved.status, saved.text).toBe(200);
  const link = await asOperator(ctx, operator, 'POST', `${base}/preview-link`);
  expect(link.status, link.text).toBe(200);
  const url = new URL(link.json<{ url: string }>().url);
  return { url, token: url.searchParams.get('vista-previa') ?? '' };
}

const withToken = (ctx: TestContext, url: string, token: string) =>
  call(ctx.app, { method: 'GET', url, headers: { 'x-vista-previa': token } });

describeOnEachDatabase(
  'Preview links of the FAQ and the legal pages (issue 25)',
  (ctx) => {
    it('each link opens its own page with the draft, never kept nor indexed; any other token is refused', async () => {
      const content = await enrolledOperator(ctx, 'vista@travesia.cl', ['content'], clock);
      const faqUrl = '/api/companies/1/frequently-asked-questions';
      const live = (await call(ctx.app, { method: 'GET', url: faqUrl })).json<{ category: string }[]>();
      const faq = (await asOperator(ctx, content, 'GET', '/api/backoffice/faq/faq')).json<{
        live: { categories: { name: string; questions: unknown[] }[] };
      }>().live;
      const faqLink = await draftAndLink(ctx, content, '/api/backoffice/faq/faq', {
        categories: [
          { name: 'Solo en el borrador', questions: [{ question: '¿Nueva?', answer: '<p>Sí.</p>' }] },
          ...faq.categories,
        ],
      });
      expect(faqLink.url.pathname).toBe('/faq');
      const previewed = await withToken(ctx, faqUrl, faqLink.token);
      expect(previewed.status, previewed.text).toBe(200);
      expect(previewed.json<{ category: string }[]>()[0]?.category).toBe('Solo en el borrador');
      expect(previewed.headers['cache-control']).toBe('no-store');
      expect(previewed.headers['x-robots-tag']).toBe('noindex');
      // The live FAQ without the token: unchanged.
      expect((await call(ctx.app, { method: 'GET', url: faqUrl })).json()).toStrictEqual(live);

      const termsUrl = '/api/companies/1/legal-pages/terminos';
      const terms = (await asOperator(ctx, content, 'GET', '/api/backoffice/legal-pages/terminos')).json<{
        live: { title: string; description: string; bodyHtml: string };
      }>().live;
      const termsLink = await draftAndLink(ctx, content, '/api/backoffice/legal-pages/terminos', {
        ...terms,
        bodyHtml: '<p>Borrador de los términos.</p>',
      });
      expect(termsLink.url.pathname).toBe('/terminos');
      const draftTerms = await withToken(ctx, termsUrl, termsLink.token);
      expect(draftTerms.status, draftTerms.text).toBe(200);
      const shown = draftTerms.json<{ bodyHtml: string; version: number; currentVersion: number }>();
      expect(shown.bodyHtml).toBe('<p>Borrador de los términos.</p>');
      expect(shown.version).toBe(shown.currentVersion + 1);
      expect(draftTerms.headers['cache-control']).toBe('no-store');

      // A token opens its own page only: the FAQ's on the terms, the terms' on the policies or the FAQ: 403.
      expect((await withToken(ctx, termsUrl, faqLink.token)).status).toBe(403);
      expect((await withToken(ctx, '/api/companies/1/legal-pages/politicas', termsLink.token)).status).toBe(403);
      expect((await withToken(ctx, faqUrl, termsLink.token)).status).toBe(403);
      const forged = `${termsLink.token.split('.')[0]}.${'A'.repeat(43)}`;
      expect((await withToken(ctx, termsUrl, forged)).status).toBe(403);
      expect((await call(ctx.app, { method: 'GET', url: termsUrl })).json<{ bodyHtml: string }>().bodyHtml).toBe(
        terms.bodyHtml,
      );
    });
  },
  {},
  { now: clock.now },
);
