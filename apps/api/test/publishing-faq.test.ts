import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditEntries, faqEntries } from '#app/db/schema.ts';
import type { FaqBody } from '#app/modules/content/faq-kind.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';

/**
 * The FAQ as a kind of the publishing model (issue 25 item 7): categories and questions in order, answers sanitised
 * on save with the storefront's allow-list, the storefront's FAQ answering the published version only, 409 on a stale
 * save, audit rows, rollback.
 */

type Item = { live: FaqBody; draft: { body: FaqBody; version: number } | null; changes: string[] };
type WireFaq = { category: string; contents: { question: string; answer: string }[] }[];

const path = (rest = '') => `/api/backoffice/faq/faq${rest}`;
const clock = new TestClock();

/** What an attacker may try in a rich field: scripts, handlers, `javascript:` links, CSS injection. */
export const hostileHtml = [
  '<p>Hola<script>alert(1)</script></p>',
  '<img src="x" onerror="alert(1)"><p onclick="alert(2)">clic</p>',
  '<a href="javascript:alert(1)">enlace</a><a href="JaVaScRiPt:alert(1)">otro</a>',
  '<p style="background:url(javascript:alert(1))">fondo</p><p style="width:expression(alert(1))">ancho</p>',
  '<style>body{background:url(javascript:alert(1))}</style><iframe src="https://evil.example"></iframe>',
].join('');

/** No script, handler, `javascript:` URL or style survives in `html`. */
export function expectHarmless(html: string) {
  expect(html).not.toMatch(/<script|<style|<iframe|\son\w+=|javascript:|style=|expression\(/i);
}

async function storefrontFaq(ctx: TestContext) {
  const answer = await get(ctx.app, '/api/companies/1/frequently-asked-questions');
  expect(answer.status, answer.text).toBe(200);
  return answer.json<WireFaq>();
}

describeOnEachDatabase(
  'Publishing the FAQ (issue 25 item 7)',
  (ctx) => {
    let content: Operator;
    let pricing: Operator;
    beforeAll(async () => {
      content = await enrolledOperator(ctx, 'contenido@travesia.cl', ['content'], clock);
      pricing = await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], clock);
    });

    it('a draft is sanitised on save, shown by the storefront only once published, audited, and rolled back', async () => {
      const read = await asOperator(ctx, content, 'GET', path());
      expect(read.status, read.text).toBe(200);
      const { live, draft } = read.json<Item>();
      expect(draft).toBeNull();
      expect(live.categories.length).toBeGreaterThan(1);
      const before = await storefrontFaq(ctx);
      expect(before.map((c) => c.category)).toStrictEqual(live.categories.map((c) => c.name));

      // Reorder (second category first), reword an answer with hostile markup, add a question.
      const [first, second, ...rest] = live.categories;
      if (!first || !second) throw new Error('seed has fewer than 2 FAQ categories');
      const question = first.questions[0]?.question ?? '';
      const edited: FaqBody = {
        categories: [
          second,
          {
            name: first.name,
            questions: [
              { question, answer: `<p>Respuesta <strong>nueva</strong></p>${hostileHtml}` },
              ...first.questions.slice(1),
              { question: '¿Pregunta nueva?', answer: '<p>Sí.</p>' },
            ],
          },
          ...rest,
        ],
      };
      expect((await asOperator(ctx, pricing, 'PUT', path('/draft'), { body: edited, baseVersion: 0 })).status).toBe(
        403,
      );
      const saved = await asOperator(ctx, content, 'PUT', path('/draft'), { body: edited, baseVersion: 0 });
      expect(saved.status, saved.text).toBe(200);
      const stored = (await asOperator(ctx, content, 'GET', path())).json<Item>();
      const storedAnswer = stored.draft?.body.categories[1]?.questions[0]?.answer ?? '';
      expect(storedAnswer).toContain('<strong>nueva</strong>');
      expectHarmless(storedAnswer);
      expect(stored.changes).toContain(`Respuesta de «${question}» cambiada`);
      expect(stored.changes).toContain(`«¿Pregunta nueva?» agregada a «${first.name}»`);

      // Saved is not published: the storefront still answers the live FAQ.
      expect(await storefrontFaq(ctx)).toStrictEqual(before);

      // A stale save is a 409 in words; a bad body a 400 naming the field; an unknown key a 404.
      const stale = await asOperator(ctx, content, 'PUT', path('/draft'), { body: live, baseVersion: 0 });
      expect(stale.status, stale.text).toBe(409);
      expect(stale.text).toContain('contenido@travesia.cl guardó este borrador');
      const bad = await asOperator(ctx, content, 'PUT', path('/draft'), {
        body: { categories: [{ name: ' ', questions: [{ question: '¿?', answer: '<script>x</script>' }] }] },
        baseVersion: 1,
      });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.json<{ errors: { field: string; message: string }[] }>().errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'body.categories.0.name', message: 'Escribe el nombre de la categoría' }),
          expect.objectContaining({ field: 'body.categories.0.questions.0.answer', message: 'Escribe la respuesta' }),
        ]),
      );
      expect((await asOperator(ctx, content, 'GET', '/api/backoffice/faq/otra')).status).toBe(404);

      const published = await asOperator(ctx, content, 'POST', path('/publish'), { baseVersion: 1 });
      expect(published.status, published.text).toBe(200);
      const after = await storefrontFaq(ctx);
      expect(after.map((c) => c.category)).toStrictEqual(edited.categories.map((c) => c.name));
      const shown = after[1]?.contents[0]?.answer ?? '';
      expectHarmless(shown);
      // What the storefront page renders (its loader sanitises again with the same allow-list).
      expectHarmless(sanitizeHtml(shown));
      expect(after[1]?.contents.at(-1)).toStrictEqual({ question: '¿Pregunta nueva?', answer: '<p>Sí.</p>' });
      // No stored FAQ row holds anything hostile.
      for (const row of await ctx.app.db.select().from(faqEntries).where(eq(faqEntries.companyId, 1))) {
        expectHarmless(row.answer);
      }
      const audit = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetType, 'faq')));
      expect(audit).toHaveLength(1);
      expect(audit[0]?.actorLabel).toBe('contenido@travesia.cl');
      expect(audit[0]?.before).toStrictEqual(live);

      // Rollback to before that publication: the storefront answers the old FAQ again.
      const history = await asOperator(ctx, content, 'GET', path('/history'));
      expect(history.status, history.text).toBe(200);
      const [latest] = history.json<{ publications: { id: number; changes: string[] }[] }>().publications;
      const rolled = await asOperator(ctx, content, 'POST', path('/rollback'), {
        publicationId: latest?.id,
        to: 'before',
      });
      expect(rolled.status, rolled.text).toBe(200);
      expect(await storefrontFaq(ctx)).toStrictEqual(before);
    });
  },
  {},
  { now: clock.now },
);
