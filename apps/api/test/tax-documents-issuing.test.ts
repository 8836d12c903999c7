import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { jobs, taxDocuments } from '#app/db/schema.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { drainJobsAfterAll, paidSale, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';

/*
 * Issuing end to end with the local adapter (issue 26): a paid sale queues its boleta as a job in the payment's
 * transaction; the worker issues it (PDF and XML in the document store, state emitido) and queues its e-mail; a
 * withdrawal's refund, once given back, queues a nota de crédito correcting it; documents add up to the ledger.
 */

const env: NodeJS.ProcessEnv = { TAX_DOCUMENTS_PROVIDER: 'local' };
useTemporaryDataDir(env);

const docsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(taxDocuments).where(eq(taxDocuments.saleId, saleId)).orderBy(asc(taxDocuments.id));

async function openSale(ctx: TestContext) {
  const sale = await paidSale(ctx);
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  return { ...sale, access: opened.json<{ token: string }>().token };
}

describeOnEachDatabase(
  'tax documents issued by jobs (local adapter)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    it('a paid sale gets one boleta, issued by a job and e-mailed; a withdrawal a credit note correcting it', async () => {
      const sale = await openSale(ctx);
      const [pending] = await docsOf(ctx, sale.idVenta);
      expect(pending).toMatchObject({ state: 'pendiente', sourceKey: expect.stringMatching(/^payment:\d+$/) });
      expect([39, 41]).toContain(pending?.type);

      await ctx.app.runJobs();
      const [issued] = await docsOf(ctx, sale.idVenta);
      expect(issued).toMatchObject({ state: 'emitido', provider: 'local', lastError: null });
      expect(issued?.folio).toBeGreaterThanOrEqual(900_000_001);
      const pdf = await ctx.app.documentStore.get(issued?.pdfKey ?? '');
      const chunks: Buffer[] = [];
      for await (const chunk of pdf) chunks.push(Buffer.from(chunk as Uint8Array));
      expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');
      const ledger = await saleLedger(ctx.database.db, sale.idVenta);
      expect(issued?.totalClp).toBe(ledger.paidClp);
      const emailJobs = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, 'tax-document.email'));
      expect(emailJobs.some((job) => (job.payload as { documentId: number }).documentId === issued?.id)).toBe(true);
      expect(emailJobs.every((job) => job.status === 'done')).toBe(true);

      // A retry of the same job issues nothing new: one sale document per payment.
      await ctx.app.runJobs();
      expect((await docsOf(ctx, sale.idVenta)).filter((d) => d.type !== 61)).toHaveLength(1);

      const withdrawn = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/withdrawal',
        headers: { authorization: `Bearer ${sale.access}` },
      });
      expect(withdrawn.status, withdrawn.text).toBe(200);
      for (let round = 0; round < 20; round += 1) {
        await ctx.app.sweepPayments();
        if ((await saleLedger(ctx.database.db, sale.idVenta)).pendingRefundClp === 0) break;
      }
      await ctx.app.runJobs();
      const docs = await docsOf(ctx, sale.idVenta);
      const note = docs.find((d) => d.type === 61);
      expect(note).toMatchObject({ state: 'emitido', correctsId: issued?.id, paymentId: issued?.paymentId });
      const after = await saleLedger(ctx.database.db, sale.idVenta);
      const sum = docs.reduce((total, d) => total + (d.type === 61 ? -d.totalClp : d.totalClp), 0);
      expect(sum).toBe(after.netClp);
      expect(note?.netClp + (note?.ivaClp ?? 0) + (note?.exemptClp ?? 0)).toBe(note?.totalClp);
    });
  },
  env,
);
