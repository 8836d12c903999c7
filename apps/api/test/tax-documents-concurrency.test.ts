import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { auditEntries, jobs, taxDocuments } from '#app/db/schema.ts';
import { asOperator, enrolledOperator, TestClock } from './support/backoffice.ts';
import { drainJobsAfterAll, paidSale, useTemporaryDataDir } from './support/checkout.ts';
import { fakeOpenFactura, openFacturaEnv } from './support/fake-openfactura.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';

/*
 * Tax documents under concurrency (issue 26), on a PostgreSQL pool as well as PGlite: two worker processes draining
 * one queue issue each payment's document exactly once at the provider; two operators retrying one refused document
 * at once make one retry (one audit row, one new request), the other told it is no longer refused.
 */

const env: NodeJS.ProcessEnv = openFacturaEnv();
useTemporaryDataDir(env);
let fake: Awaited<ReturnType<typeof fakeOpenFactura>>;
beforeAll(async () => {
  fake = await fakeOpenFactura();
  env.OPENFACTURA_BASE_URL = fake.baseUrl;
});
afterAll(() => fake?.close());

const clock = new TestClock();

const documentsOf = (ctx: TestContext, saleIds: number[]) =>
  ctx.database.db.select().from(taxDocuments).where(inArray(taxDocuments.saleId, saleIds));

describeOnEachDatabase(
  'tax documents under concurrency',
  (ctx, kind) => {
    drainJobsAfterAll(ctx);

    it(`two workers draining one queue issue each payment's document once [${kind}]`, async () => {
      // A second instance on the same database: its own job runner, as a second `npm run worker` process has.
      const second = await buildApp({ config: ctx.config, db: ctx.database.db });
      await second.ready();
      try {
        for (let round = 0; round < 3; round += 1) {
          const sales = [];
          for (let n = 0; n < 4; n += 1) sales.push(await paidSale(ctx));
          const saleIds = sales.map((sale) => sale.idVenta);
          fake.state.delayMs = 20;
          // Both drain at once, twice over, as two workers woken by the same payments would.
          await Promise.all([ctx.app.runJobs(), second.runJobs(), ctx.app.runJobs(), second.runJobs()]);
          fake.state.delayMs = 0;
          await Promise.all([ctx.app.runJobs(), second.runJobs()]);

          const documents = await documentsOf(ctx, saleIds);
          expect(documents).toHaveLength(saleIds.length);
          expect(new Set(documents.map((d) => d.paymentId)).size).toBe(saleIds.length);
          for (const document of documents) {
            expect(document).toMatchObject({ state: 'emitido', tries: 1, provider: 'openfactura' });
            // The provider was asked once: no second worker ever sent its key (nor a second document came of it).
            const asked = fake.state.requests.filter((r) => r.headers['idempotency-key'] === document.sourceKey);
            expect(asked).toHaveLength(1);
          }
          expect(new Set(documents.map((d) => d.folio)).size).toBe(documents.length);
          // And each was e-mailed once.
          const emails = await ctx.database.db
            .select()
            .from(jobs)
            .where(
              and(
                eq(jobs.kind, 'tax-document.email'),
                inArray(
                  jobs.dedupeKey,
                  documents.map((d) => `tax-document.email:${d.id}`),
                ),
              ),
            );
          expect(emails).toHaveLength(documents.length);
        }
      } finally {
        await second.close();
      }
    });

    it(`two operators retrying one refused document make one retry; the other is told [${kind}]`, async () => {
      const ana = await enrolledOperator(ctx, `ana.${kind}@travesia.cl`, ['finance'], clock);
      const luis = await enrolledOperator(ctx, `luis.${kind}@travesia.cl`, ['admin'], clock);
      for (let round = 0; round < 4; round += 1) {
        const sale = await paidSale(ctx);
        fake.state.script.push({ status: 422, error: { message: 'RUT del receptor inválido', code: 'OF-RUT' } });
        await ctx.app.runJobs();
        const [refused] = await documentsOf(ctx, [sale.idVenta]);
        expect(refused).toMatchObject({
          state: 'fallido',
          lastError: 'El proveedor rechazó el documento: RUT del receptor inválido',
        });

        // The console's list shows it with the provider's words.
        const listed = await asOperator(ctx, ana, 'GET', '/api/backoffice/tax-documents');
        expect(listed.status, listed.text).toBe(200);
        expect(listed.json<{ documents: { id: number; lastError: string }[] }>().documents).toContainEqual(
          expect.objectContaining({ id: refused?.id, lastError: refused?.lastError }),
        );

        const requestsBefore = fake.state.requests.length;
        const answers = await Promise.all([
          asOperator(ctx, ana, 'POST', `/api/backoffice/tax-documents/${refused?.id}/retry`),
          asOperator(ctx, luis, 'POST', `/api/backoffice/tax-documents/${refused?.id}/retry`),
        ]);
        expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).toStrictEqual([200, 409]);
        const stale = answers.find((a) => a.status === 409);
        expect(stale?.json<{ detail: string }>().detail).toContain('ya no está fallido');
        const audits = await ctx.database.db
          .select()
          .from(auditEntries)
          .where(and(eq(auditEntries.action, 'tax-document.retry'), eq(auditEntries.targetId, String(refused?.id))));
        expect(audits).toHaveLength(1);
        expect(audits[0]?.before).toMatchObject({ state: 'fallido', lastError: refused?.lastError });

        await ctx.app.runJobs();
        const [issued] = await documentsOf(ctx, [sale.idVenta]);
        expect(issued).toMatchObject({ state: 'emitido', lastError: null });
        // One request for the refusal, one for the retry: the second operator's click asked nothing more.
        expect(fake.state.requests.length - requestsBefore).toBe(1);
        expect((await asOperator(ctx, ana, 'POST', `/api/backoffice/tax-documents/${refused?.id}/retry`)).status).toBe(
          409,
        );
      }
      const unknown = await asOperator(ctx, ana, 'POST', '/api/backoffice/tax-documents/2000000000/retry');
      expect(unknown.status).toBe(404);
    });
  },
  env,
  { now: clock.now },
);
