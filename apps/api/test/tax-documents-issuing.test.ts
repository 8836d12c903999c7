import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '#app/db/client.ts';
import { jobs, taxDocuments } from '#app/db/schema.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { notIssuedDocuments, retryTaxDocument } from '#app/modules/tax-documents/service.ts';
import {
  decideOnSandbox,
  drainJobsAfterAll,
  followReturn,
  invoiceBody,
  paidSale,
  readyToPay,
  settleSaleRefunds,
  startPayment,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { fakeOpenFactura, openFacturaEnv } from './support/fake-openfactura.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { tripDates } from './support/trips.ts';

/*
 * Issuing end to end with the local adapter (issue 26): a paid sale queues its boleta as a job in the payment's
 * transaction; the worker issues it (PDF and XML in the document store, state emitido) and queues its e-mail; a
 * withdrawal's refund, once given back, queues a nota de crédito correcting it; documents add up to the ledger.
 */

const env: NodeJS.ProcessEnv = { TAX_DOCUMENTS_PROVIDER: 'local' };
useTemporaryDataDir(env);

const docsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(taxDocuments).where(eq(taxDocuments.saleId, saleId)).orderBy(asc(taxDocuments.id));

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

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

      // «Mi compra» lists it, its PDF opens with the buyer's token only, and the receipt lists it instead of disclaiming.
      const mine = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: withToken(sale.access) });
      const listed = mine.json<{
        taxDocuments: { folio: number; noTaxValue: boolean; pdfUrl: string; typeName: string }[];
      }>().taxDocuments;
      expect(listed).toEqual([
        expect.objectContaining({ folio: issued?.folio, noTaxValue: true, typeName: expect.stringMatching(/^Boleta/) }),
      ]);
      const pdfUrl = listed[0]?.pdfUrl ?? '';
      const own = await ctx.app.inject({ method: 'GET', url: pdfUrl, headers: withToken(sale.access) });
      expect(own.statusCode).toBe(200);
      expect(pdfText(own.rawPayload)).toContain('SIN VALOR TRIBUTARIO');
      expect((await call(ctx.app, { method: 'GET', url: pdfUrl })).status).toBe(404);
      const other = await openSale(ctx);
      expect((await call(ctx.app, { method: 'GET', url: pdfUrl, headers: withToken(other.access) })).status).toBe(404);
      const receipt = await ctx.app.inject({
        method: 'GET',
        url: '/api/purchases/mine/comprobante.pdf',
        headers: withToken(sale.access),
      });
      const receiptText = pdfText(receipt.rawPayload);
      expect(receiptText).toContain(`N° ${issued?.folio}`);
      expect(receiptText).toContain('SIN VALOR TRIBUTARIO');
      expect(receiptText).not.toContain('no reemplaza la boleta');

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
      expect((note?.netClp ?? 0) + (note?.ivaClp ?? 0) + (note?.exemptClp ?? 0)).toBe(note?.totalClp);
    });
  },
  env,
);

/*
 * Against a loopback fake of OpenFactura (support/fake-openfactura.ts, built from the formats of ADR 020): a factura
 * with the buyer's company data, a 5xx retried under the same key, a refusal recorded in words and retried by an
 * operator, and a crash between the provider's answer and our commit (the retry gets the same folio, not a second).
 */
const ofEnv: NodeJS.ProcessEnv = openFacturaEnv();
useTemporaryDataDir(ofEnv);
let fake: Awaited<ReturnType<typeof fakeOpenFactura>>;
beforeAll(async () => {
  fake = await fakeOpenFactura();
  ofEnv.OPENFACTURA_BASE_URL = fake.baseUrl;
});
afterAll(() => fake?.close());

/** Makes the sale's pending issue jobs due now (the queue's back-off would wait 30 s), then runs the jobs. */
async function runDueNow(ctx: TestContext) {
  await ctx.database.db
    .update(jobs)
    .set({ runAfter: new Date(0) })
    .where(eq(jobs.status, 'pending'));
  await ctx.app.runJobs();
}

describeOnEachDatabase(
  'tax documents through OpenFactura (loopback fake)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    // Each database numbers its refunds from 1: the other engine's documents must not answer this one's keys.
    beforeAll(() => {
      fake.state.byKey.clear();
      fake.state.requests.length = 0;
    });

    it('issues a factura with the company data the buyer gave («Necesito factura»)', async () => {
      const quotationId = await readyToPay(ctx, { invoice: false });
      const saved = await call(ctx.app, {
        method: 'POST',
        url: `/api/quotations/${quotationId}/invoice-details`,
        payload: {
          ...invoiceBody(),
          generateInvoice: true,
          companyDetails: {
            name: 'Viajes Andinos SpA',
            id: '76543210-3',
            business: 'Agencia de viajes',
            address: 'Huérfanos 1000, Santiago',
            email: 'facturas@andinos.cl',
          },
        },
      });
      expect(saved.status, saved.text).toBe(204);
      const payment = await startPayment(ctx, quotationId);
      await followReturn(ctx, await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 1));
      await ctx.app.runJobs();
      const [doc] = await docsOf(ctx, payment.idVenta);
      expect([33, 34]).toContain(doc?.type);
      expect(doc).toMatchObject({ state: 'emitido', provider: 'openfactura' });
      const sent = fake.state.requests.at(-1);
      expect(sent?.headers['idempotency-key']).toBe(doc?.sourceKey);
      expect(sent?.body.dte.Encabezado.Receptor).toMatchObject({
        RUTRecep: '76543210-3',
        RznSocRecep: 'Viajes Andinos SpA',
        GiroRecep: 'Agencia de viajes',
      });
      expect(sent?.body.dte.Encabezado.Totales.MntTotal).toBe(doc?.totalClp);
    });

    it('retries a 5xx under the same key, records a refusal in words, and an operator retry issues it', async () => {
      const sale = await paidSale(ctx);
      fake.state.script.push({ status: 503, error: { message: 'Servicio no disponible', code: 'OF-503' } });
      await ctx.app.runJobs();
      let [doc] = await docsOf(ctx, sale.idVenta);
      expect(doc).toMatchObject({ state: 'pendiente', tries: 1 });
      expect(doc?.lastError).toMatch(/^El proveedor falló .*se reintentará$/);

      fake.state.script.push({ status: 422, error: { message: 'Folios agotados para el tipo 39', code: 'OF-FOLIOS' } });
      await runDueNow(ctx);
      [doc] = await docsOf(ctx, sale.idVenta);
      expect(doc).toMatchObject({
        state: 'fallido',
        tries: 2,
        lastError: 'El proveedor rechazó el documento: Folios agotados para el tipo 39',
      });
      expect((await notIssuedDocuments(ctx.database.db)).map((d) => d.id)).toContain(doc?.id);

      await ctx.database.db.transaction(async (tx) => {
        expect(await retryTaxDocument(tx as unknown as Database, doc?.id ?? 0)).not.toBeNull();
      });
      await ctx.app.runJobs();
      [doc] = await docsOf(ctx, sale.idVenta);
      expect(doc).toMatchObject({ state: 'emitido', lastError: null });
      const keys = fake.state.requests.map((r) => r.headers['idempotency-key']).filter((k) => k === doc?.sourceKey);
      expect(keys).toHaveLength(3);
    });

    it('a cheaper date change gets a nota de crédito correcting the amounts, and so does the withdrawal of what is left', async () => {
      const sale = await openSale(ctx);
      await ctx.app.runJobs();
      const [boleta] = await docsOf(ctx, sale.idVenta);
      expect(boleta).toMatchObject({ state: 'emitido' });
      const changed = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/date-change',
        headers: withToken(sale.access),
        payload: tripDates(4),
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.json<{ action: string }>().action).toBe('refund');
      await settleSaleRefunds(ctx, sale.idVenta);
      await runDueNow(ctx);
      const note = (await docsOf(ctx, sale.idVenta)).find((d) => d.type === 61);
      expect(note).toMatchObject({ state: 'emitido', correctsId: boleta?.id });
      expect(note?.totalClp).toBeLessThan(boleta?.totalClp ?? 0);
      const sentNote = fake.state.requests.findLast((r) => r.headers['idempotency-key'] === note?.sourceKey);
      expect(sentNote?.body.dte.Encabezado.IdDoc.TipoDTE).toBe(61);
      expect(sentNote?.body.dte.Encabezado.Totales.MntTotal).toBe(note?.totalClp);
      expect(sentNote?.body.dte.Referencia).toEqual([
        expect.objectContaining({
          TpoDocRef: boleta?.type,
          FolioRef: boleta?.folio,
          CodRef: 3,
          RazonRef: 'Cambio de fechas: devolución de la diferencia',
        }),
      ]);

      const withdrawn = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/withdrawal',
        headers: withToken(sale.access),
      });
      expect(withdrawn.status, withdrawn.text).toBe(200);
      await settleSaleRefunds(ctx, sale.idVenta);
      await runDueNow(ctx);
      const notes = (await docsOf(ctx, sale.idVenta)).filter((d) => d.type === 61);
      expect(notes).toHaveLength(2);
      const rest = notes.find((d) => d.id !== note?.id);
      expect(rest).toMatchObject({ state: 'emitido', totalClp: (boleta?.totalClp ?? 0) - (note?.totalClp ?? 0) });
      const sentRest = fake.state.requests.findLast((r) => r.headers['idempotency-key'] === rest?.sourceKey);
      // What was left of the boleta, not all of it: its amounts are corrected again (3), not annulled (1).
      expect(sentRest?.body.dte.Referencia).toEqual([
        expect.objectContaining({ FolioRef: boleta?.folio, CodRef: 3, RazonRef: 'Retracto de la compra' }),
      ]);
    });

    it('after a crash between the answer and the commit, the retry gets the same document', async () => {
      const sale = await paidSale(ctx);
      const [pending] = await docsOf(ctx, sale.idVenta);
      // The provider issued it under the key (the answer arrived) but the process died before recording it.
      const before = fake.state.byKey.size;
      const answered = await fetch(`${fake.baseUrl}/v2/dte/document`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          apikey: 'test-key',
          'Idempotency-Key': pending?.sourceKey ?? '',
        },
        body: '{}',
      }).then((r) => r.json() as Promise<{ FOLIO: number }>);
      await ctx.app.runJobs();
      const [doc] = await docsOf(ctx, sale.idVenta);
      expect(doc).toMatchObject({ state: 'emitido', folio: answered.FOLIO });
      expect(fake.state.byKey.size).toBe(before + 1);
    });
  },
  ofEnv,
);
