import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { drainJobsAfterAll, paidSale } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';

/**
 * Legal pages with versions (issue 25 item 7): a content operator edits /terminos as a draft and publishes it as a
 * new version; every version stays readable (`?version=N`); a buyer's consent names the version in force when they
 * paid, and «Mi compra» and the console's sale page link to that very text, whatever was published after.
 */

type LegalPage = { title: string; bodyHtml: string; version: number; currentVersion: number; updatedAt: string };
type Accepted = { slug: string; title: string; version: number; publishedAt: string; url: string };

const clock = new TestClock();
const path = (rest = '') => `/api/backoffice/legal-pages/terminos${rest}`;

async function publishTerms(ctx: TestContext, operator: Operator, bodyHtml: string) {
  const item = (await asOperator(ctx, operator, 'GET', path())).json<{
    live: { title: string; description: string; bodyHtml: string };
    draft: { version: number } | null;
  }>();
  const saved = await asOperator(ctx, operator, 'PUT', path('/draft'), {
    body: { ...item.live, bodyHtml },
    baseVersion: item.draft?.version ?? 0,
  });
  expect(saved.status, saved.text).toBe(200);
  const published = await asOperator(ctx, operator, 'POST', path('/publish'), {
    baseVersion: saved.json<{ version: number }>().version,
  });
  expect(published.status, published.text).toBe(200);
  return published.json<{ publication: { id: number } }>().publication.id;
}

async function acceptedBy(ctx: TestContext, saleId: number) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, saleId);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  const mine = await call(ctx.app, {
    method: 'GET',
    url: '/api/purchases/mine',
    headers: { authorization: `Bearer ${opened.json<{ token: string }>().token}` },
  });
  expect(mine.status, mine.text).toBe(200);
  return mine.json<{ acceptedLegalPages: Accepted[] }>().acceptedLegalPages;
}

describeOnEachDatabase(
  'Legal pages with versions (issue 25 item 7)',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('each publication is a new version; earlier ones stay readable; consents point at what the buyer accepted', async () => {
      const content = await enrolledOperator(ctx, 'legal@travesia.cl', ['content'], clock);
      const admin = await enrolledOperator(ctx, 'jefa-legal@travesia.cl', ['admin'], clock);
      const first = (await get(ctx.app, '/api/companies/1/legal-pages/terminos')).json<LegalPage>();
      expect(first).toMatchObject({ version: 1, currentVersion: 1 });

      // A buyer pays under version 1.
      const before = await paidSale(ctx);
      expect(await acceptedBy(ctx, before.idVenta)).toContainEqual(
        expect.objectContaining({ slug: 'terminos', version: 1, url: '/terminos?version=1' }),
      );

      // Version 2: the script is stripped on save; the store serves it at once.
      const publicationId = await publishTerms(
        ctx,
        content,
        '<h2>Nuevas condiciones</h2><p>Texto de la versión 2.</p><script>alert(1)</script>',
      );
      const second = (await get(ctx.app, '/api/companies/1/legal-pages/terminos')).json<LegalPage>();
      expect(second).toMatchObject({ version: 2, currentVersion: 2 });
      expect(second.bodyHtml).toContain('Texto de la versión 2.');
      expect(second.bodyHtml).not.toContain('<script');
      // Version 1 is still there, word for word, as the version the first buyer accepted.
      const old = (await get(ctx.app, '/api/companies/1/legal-pages/terminos?version=1')).json<LegalPage>();
      expect(old).toMatchObject({
        version: 1,
        currentVersion: 2,
        bodyHtml: first.bodyHtml,
        updatedAt: first.updatedAt,
      });
      expect((await get(ctx.app, '/api/companies/1/legal-pages/terminos?version=99')).status).toBe(404);
      expect((await get(ctx.app, '/api/companies/1/legal-pages/terminos?version=dos')).status).toBe(400);

      // A sale whose consent predates versions (recorded without them) accepted each page's version 1.
      const older = await paidSale(ctx);
      await ctx.database.db.execute(
        sql`update sales set purchase = purchase #- '{consents,legalPages}' where id = ${older.idVenta}`,
      );
      expect((await acceptedBy(ctx, older.idVenta)).map((p) => [p.slug, p.version]).sort()).toStrictEqual([
        ['informacion-legal', 1],
        ['politicas', 1],
        ['terminos', 1],
      ]);

      // The first buyer still accepted version 1; a buyer paying now accepts version 2.
      expect((await acceptedBy(ctx, before.idVenta)).find((p) => p.slug === 'terminos')?.version).toBe(1);
      const after = await paidSale(ctx);
      const accepted = await acceptedBy(ctx, after.idVenta);
      expect(accepted.find((p) => p.slug === 'terminos')).toMatchObject({
        title: 'Términos y condiciones',
        version: 2,
        url: '/terminos?version=2',
      });
      expect(accepted.map((p) => p.slug).sort()).toStrictEqual(['informacion-legal', 'politicas', 'terminos']);
      // The console's sale page shows the versions too.
      const sale = await asOperator(ctx, admin, 'GET', `/api/backoffice/sales/${after.idVenta}`);
      expect(sale.status, sale.text).toBe(200);
      expect(
        sale.json<{ consents: { legalPages: Record<string, { version: number }> } }>().consents.legalPages.terminos,
      ).toMatchObject({ version: 2 });

      // A rollback is a publication too: version 3, with version 1's text; nothing is rewritten.
      const rolled = await asOperator(ctx, content, 'POST', path('/rollback'), { publicationId, to: 'before' });
      expect(rolled.status, rolled.text).toBe(200);
      const third = (await get(ctx.app, '/api/companies/1/legal-pages/terminos')).json<LegalPage>();
      expect(third).toMatchObject({ version: 3, bodyHtml: first.bodyHtml });
      expect((await get(ctx.app, '/api/companies/1/legal-pages/terminos?version=2')).json<LegalPage>().bodyHtml).toBe(
        second.bodyHtml,
      );
      const trail = await ctx.database.db
        .select({ action: auditEntries.action })
        .from(auditEntries)
        .where(and(eq(auditEntries.targetType, 'legal-pages'), eq(auditEntries.targetId, 'terminos')));
      expect(trail.map((row) => row.action)).toEqual(
        expect.arrayContaining(['publishing.draft_saved', 'publishing.published', 'publishing.rolled_back']),
      );

      // Unknown pages and empty texts are refused in the §8 body.
      expect((await asOperator(ctx, content, 'GET', '/api/backoffice/legal-pages/privacidad')).status).toBe(404);
      const now = (await asOperator(ctx, content, 'GET', path())).json<{ draft: { version: number } | null }>();
      const empty = await asOperator(ctx, content, 'PUT', path('/draft'), {
        body: { title: 'Términos', description: 'D', bodyHtml: '<script>x</script>' },
        baseVersion: now.draft?.version ?? 0,
      });
      expect(empty.status, empty.text).toBe(400);
      expect(empty.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain('body.bodyHtml');
    });
  },
  {},
  { now: clock.now },
);
