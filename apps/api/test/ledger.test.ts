import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#app/db/client.ts';
import { payments, saleRefunds } from '#app/db/schema.ts';
import { ledgerEmailLines, taxWording } from '#app/modules/payments/ledger.ts';
import { NothingToRefundError, requestSaleRefund } from '#app/modules/payments/sale-refunds.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { clpText, drainJobsAfterAll, paidWithWebpay, pathAndQuery, useTemporaryDataDir } from './support/checkout.ts';
import { authorizedBody, type FakeWebpay, startFakeWebpay } from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';
import { tripDates } from './support/trips.ts';

/**
 * The sale's ledger (issue 22, item 3): every payment and refund of a Webpay-paid sale, and the net, agree with what
 * the gateway holds after any sequence of date changes and a withdrawal; a refund is drawn across the payments newest
 * first, never more than a payment can give back; «Mi compra» and the receipt print the net. Every paid sale of
 * support/checkout.ts is a 10-day trip leaving in 10 days.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
let webpay: FakeWebpay;
let smtp: FakeSmtp;
beforeAll(async () => {
  webpay = await startFakeWebpay();
  smtp = await startFakeSmtp();
  env.WEBPAY_ENVIRONMENT = webpay.url;
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await webpay?.close();
  await smtp?.close();
});

type LedgerEntry = {
  kind: 'payment' | 'refund';
  id: number;
  amountClp: number;
  status: string;
  statusLabel: string;
  paymentId?: number;
  purpose?: string;
  reason?: string;
  instalments?: number | null;
  instalmentAmountClp?: number | null;
  instalmentsText?: string | null;
};
type Ledger = {
  entries: LedgerEntry[];
  paidClp: number;
  refundedClp: number;
  pendingRefundClp: number;
  netClp: number;
  netAfterPendingClp: number;
};
type Purchase = { status: string; amountClp: number; ledger: Ledger };
type Result = { action: 'pay' | 'refund' | 'none'; redirectUrl: string | null; differenceClp: number };

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

/** A sale paid through the fake Webpay, opened in «Mi compra» by its signed link. */
async function openWebpaySale(ctx: TestContext) {
  const sale = await paidWithWebpay(ctx);
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  return { ...sale, access: opened.json<{ token: string }>().token };
}

async function mine(ctx: TestContext, access: string) {
  const answer = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: withToken(access) });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Purchase>();
}

async function receiptText(ctx: TestContext, access: string) {
  const pdf = await ctx.app.inject({
    method: 'GET',
    url: '/api/purchases/mine/comprobante.pdf',
    headers: withToken(access),
  });
  expect(pdf.statusCode).toBe(200);
  return pdfText(pdf.rawPayload);
}

/**
 * Changes the trip to `days` days: a dearer one is paid at the fake Webpay (the browser comes back with its token), a
 * cheaper one is applied at once with its refund requested. Never a 5xx.
 */
async function changeDates(ctx: TestContext, access: string, days: number): Promise<Result> {
  const confirmed = await call(ctx.app, {
    method: 'POST',
    url: '/api/purchases/mine/date-change',
    headers: withToken(access),
    payload: tripDates(days),
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  const result = confirmed.json<Result>();
  if (result.action === 'pay') {
    const token = new URL(result.redirectUrl ?? '').searchParams.get('token_ws') ?? '';
    const back = await call(ctx.app, {
      method: 'POST',
      url: '/api/payments/return/webpay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token_ws: token }).toString(),
    });
    expect(back.status, back.text).toBe(303);
    expect(pathAndQuery(String(back.headers.location))).toBe('/mi-compra?cambio=pagado');
  }
  return result;
}

async function withdraw(ctx: TestContext, access: string) {
  const answer = await call(ctx.app, {
    method: 'POST',
    url: '/api/purchases/mine/withdrawal',
    headers: withToken(access),
  });
  expect(answer.status, answer.text).toBe(200);
}

// Ordered by id: without ORDER BY, PostgreSQL returns updated rows in heap order, not in the order they were asked.
const refundsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId)).orderBy(asc(saleRefunds.id));
const paymentsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(payments).where(eq(payments.saleId, saleId)).orderBy(asc(payments.id));

/** Runs the payment sweeper until every refund of the sale went through (or fails the test after ~5 s). */
async function settleRefunds(ctx: TestContext, saleId: number) {
  for (let round = 0; round < 50; round += 1) {
    if ((await refundsOf(ctx, saleId)).every((refund) => refund.status === 'refunded')) return;
    await ctx.app.sweepPayments();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect((await refundsOf(ctx, saleId)).map((refund) => refund.status)).not.toContain('pending');
}

/** What the fake Webpay holds of a sale: captured minus refunded, over the transactions of its payments. */
async function heldAtWebpay(ctx: TestContext, saleId: number) {
  const rows = await paymentsOf(ctx, saleId);
  return rows.reduce((sum, payment) => sum + (payment.externalId ? webpay.held(payment.externalId) : 0), 0);
}

/** The net, as every document shows it: «Mi compra»'s ledger and the receipt PDF's total line. */
async function expectDocumentsShow(ctx: TestContext, access: string, netClp: number) {
  const purchase = await mine(ctx, access);
  expect(purchase.ledger.netClp).toBe(netClp);
  expect(purchase.ledger.paidClp - purchase.ledger.refundedClp).toBe(netClp);
  const text = await receiptText(ctx, access);
  expect(text).toContain(`${clpText(netClp)} (no afecto a IVA)`);
  const refunds = purchase.ledger.entries.filter((entry) => entry.kind === 'refund');
  if (refunds.length > 0) {
    // Something was given back: the receipt lists it and says «Neto pagado», never «Total pagado».
    expect(text).toContain('Neto pagado');
    expect(text).not.toContain('Total pagado');
    for (const refund of refunds) expect(text).toContain(`-${clpText(refund.amountClp)}`);
  } else expect(text).toContain('Total pagado');
  // Instalments only beside their own payment, and they add up to it.
  for (const entry of purchase.ledger.entries) {
    if (entry.kind !== 'payment' || !entry.instalments || !entry.instalmentAmountClp) continue;
    expect(entry.instalmentAmountClp * entry.instalments).toBeGreaterThanOrEqual(entry.amountClp);
    expect(entry.instalmentAmountClp * (entry.instalments - 1)).toBeLessThan(entry.amountClp);
  }
  return purchase;
}

/** No payment gives back more than it took, and the refunds of each add up to at most its amount. */
async function expectNoPaymentOverdrawn(ctx: TestContext, saleId: number) {
  const [paid, refunds] = await Promise.all([paymentsOf(ctx, saleId), refundsOf(ctx, saleId)]);
  for (const payment of paid) {
    const given = refunds.filter((r) => r.paymentId === payment.id).reduce((sum, r) => sum + r.amountClp, 0);
    expect(given).toBeLessThanOrEqual(payment.status === 'authorized' ? payment.amountClp : 0);
  }
}

describeOnEachDatabase(
  'The sale ledger',
  (ctx, kind) => {
    drainJobsAfterAll(ctx);
    afterEach(() => webpay.reset());

    it('cheaper → dearer → cheaper: the third change is drawn from the dearer difference first, then the purchase (was a 500)', async () => {
      const sale = await openWebpaySale(ctx);
      const paid = (await mine(ctx, sale.access)).amountClp;
      const first = await changeDates(ctx, sale.access, 5);
      expect(first.action).toBe('refund');
      await settleRefunds(ctx, sale.idVenta);
      const second = await changeDates(ctx, sale.access, 20);
      expect(second.action).toBe('pay');
      const third = await changeDates(ctx, sale.access, 3);
      expect(third.action).toBe('refund');
      await settleRefunds(ctx, sale.idVenta);

      const difference = (await paymentsOf(ctx, sale.idVenta)).find((p) => p.purpose === 'date_change');
      const purchase = (await paymentsOf(ctx, sale.idVenta)).find((p) => p.purpose === 'purchase');
      const thirdRefunds = (await refundsOf(ctx, sale.idVenta)).filter(
        (r) => r.createdAt > (difference?.createdAt ?? 0),
      );
      // The newest payment gives back all it holds first; the rest comes from the purchase.
      expect(thirdRefunds.map((r) => [r.paymentId, r.amountClp])).toStrictEqual([
        [difference?.id, second.differenceClp],
        [purchase?.id, -third.differenceClp - second.differenceClp],
      ]);
      const price = paid + first.differenceClp + second.differenceClp + third.differenceClp;
      expect(await heldAtWebpay(ctx, sale.idVenta)).toBe(price);
      const after = await expectDocumentsShow(ctx, sale.access, price);
      expect(after.amountClp).toBe(price);
      await expectNoPaymentOverdrawn(ctx, sale.idVenta);
    });

    it('after a dearer change paid in 3 instalments, «Mi compra» and the receipt list both payments, each with its own instalments', async () => {
      webpay.onCommit = (transaction) => ({
        status: 200,
        body: authorizedBody(transaction, { payment_type_code: 'S2', installments_number: 3 }),
      });
      const sale = await openWebpaySale(ctx);
      const before = await mine(ctx, sale.access);
      const dearer = await changeDates(ctx, sale.access, 20);
      const purchase = await expectDocumentsShow(ctx, sale.access, before.amountClp + dearer.differenceClp);
      const [first, second] = purchase.ledger.entries;
      expect(purchase.ledger.entries).toHaveLength(2);
      expect(first).toMatchObject({
        kind: 'payment',
        purpose: 'purchase',
        amountClp: before.amountClp,
        instalments: 3,
      });
      expect(second).toMatchObject({ kind: 'payment', purpose: 'date_change', amountClp: dearer.differenceClp });
      const text = await receiptText(ctx, sale.access);
      expect(text).toContain(`3 cuotas sin interés de ${clpText(Math.ceil(before.amountClp / 3))}`);
      expect(text).toContain(`3 cuotas sin interés de ${clpText(Math.ceil(dearer.differenceClp / 3))}`);
      // Never the instalments of one payment beside a total they do not make.
      expect(text).not.toContain(`3 cuotas sin interés de ${clpText(Math.ceil(purchase.ledger.netClp / 3))}`);
      expect(text).toContain('Total pagado');
      expect(text).toContain(`${clpText(purchase.ledger.netClp)} (no afecto a IVA)`);
    });

    it('a withdrawn sale says «Compra anulada» on the receipt, whose net is $0, and in the e-mails, which list the refunds', async () => {
      const sale = await openWebpaySale(ctx);
      const before = await mine(ctx, sale.access);
      const cheaper = await changeDates(ctx, sale.access, 5);
      await settleRefunds(ctx, sale.idVenta);
      await withdraw(ctx, sale.access);
      const pending = await mine(ctx, sale.access);
      // The withdrawal nudges the refund run, which may already have given the money back by now (more likely on a
      // busy machine): then nothing is pending and the net is 0; otherwise all of it is pending. Either way nothing
      // is left once the pending refund completes.
      expect([0, before.amountClp + cheaper.differenceClp]).toContain(pending.ledger.netClp);
      expect(pending.ledger).toMatchObject({ pendingRefundClp: pending.ledger.netClp, netAfterPendingClp: 0 });
      expect(await receiptText(ctx, sale.access)).toContain('Compra anulada');
      await settleRefunds(ctx, sale.idVenta);
      for (let round = 0; round < 20 && (await mine(ctx, sale.access)).status !== 'withdrawn'; round += 1) {
        await ctx.app.sweepPayments();
      }
      const after = await expectDocumentsShow(ctx, sale.access, 0);
      expect(after.status).toBe('withdrawn');
      expect(await heldAtWebpay(ctx, sale.idVenta)).toBe(0);
      const text = await receiptText(ctx, sale.access);
      expect(text).toContain('Compra anulada');
      expect(text).toContain('COMPRA ANULADA');
      expect(text).toContain('Devolución por retracto');
      expect(text).toContain('Devolución por cambio de fechas');

      await ctx.app.runJobs();
      const mails = smtp.received.filter((m) => m.parsed.subject?.includes(`compra N° ${sale.idVenta} anulada`));
      expect(mails.map((m) => m.parsed.subject?.split(' – ')[0]).sort()).toStrictEqual([
        'Recibimos tu retracto',
        'Reembolso completado',
      ]);
      for (const mail of mails) {
        const body = mail.parsed.text ?? '';
        expect(body).toContain('Compra anulada');
        expect(body).toContain('Devolución por retracto');
        expect(body).toContain(`Devolución por cambio de fechas · Webpay Plus · devuelto`);
      }
      const done = mails.find((m) => m.parsed.subject?.startsWith('Reembolso completado'));
      expect(done?.parsed.text).toContain(`Neto pagado: ${clpText(0)}.`);
      // What this withdrawal gave back: everything left after the cheaper change's refund.
      expect(done?.parsed.text).toContain(`Devolvimos ${clpText(before.amountClp + cheaper.differenceClp)}`);
    });

    it('the date change e-mail lists both payments and the total they make, each with its own instalments', async () => {
      webpay.onCommit = (transaction) => ({
        status: 200,
        body: authorizedBody(transaction, { payment_type_code: 'S2', installments_number: 3 }),
      });
      const sale = await openWebpaySale(ctx);
      const before = await mine(ctx, sale.access);
      await ctx.app.runJobs();
      const sentBefore = smtp.received.length;
      const dearer = await changeDates(ctx, sale.access, 20);
      await ctx.app.runJobs();
      const total = before.amountClp + dearer.differenceClp;
      const mail = smtp.received
        .slice(sentBefore)
        .find((m) => m.parsed.text?.includes('Tus pagos y devoluciones') && m.parsed.text.includes('cuotas'));
      const body = mail?.parsed.text ?? '';
      expect(body).toContain(
        `Pago de la compra · Webpay Plus (Crédito, cuotas sin interés, 3 cuotas sin interés de ${clpText(Math.ceil(before.amountClp / 3))})`,
      );
      expect(body).toContain(`Pago de la diferencia (cambio de fechas) · Webpay Plus`);
      expect(body).toContain(`Total pagado: ${clpText(total)}.`);
      expect(body).not.toContain(`3 cuotas sin interés de ${clpText(Math.ceil(total / 3))}`);
    });

    if (kind === 'postgres') {
      it('refunds requested at once on a pool never draw more than a payment holds (row locks), 10 rounds', async () => {
        for (let round = 0; round < 10; round += 1) {
          const sale = await openWebpaySale(ctx);
          await changeDates(ctx, sale.access, 20);
          const { netClp } = (await mine(ctx, sale.access)).ledger;
          // 8 requests of a third of the net each, in parallel transactions: at most 3 fit.
          const third = Math.floor(netClp / 3);
          const db = ctx.database.db as Database;
          const outcomes = await Promise.allSettled(
            Array.from({ length: 8 }, (_, index) =>
              db.transaction((tx) =>
                requestSaleRefund(tx as unknown as Database, {
                  saleId: sale.idVenta,
                  reason: 'date_change',
                  amountClp: third,
                  idempotencyKey: `ledger-test:${sale.idVenta}:${index}`,
                }),
              ),
            ),
          );
          const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
          for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(NothingToRefundError);
          expect(outcomes.length - refused.length).toBe(3);
          await expectNoPaymentOverdrawn(ctx, sale.idVenta);
          const asked = (await refundsOf(ctx, sale.idVenta)).reduce((sum, refund) => sum + refund.amountClp, 0);
          expect(asked).toBe(3 * third);
        }
      });

      it('date changes and a withdrawal at once on a pool: no 5xx, and the ledger still adds up to the gateway', async () => {
        for (let round = 0; round < 5; round += 1) {
          const sale = await openWebpaySale(ctx);
          await changeDates(ctx, sale.access, 20);
          const answers = await Promise.all([
            ...[4, 5, 6, 7].map((days) =>
              call(ctx.app, {
                method: 'POST',
                url: '/api/purchases/mine/date-change',
                headers: withToken(sale.access),
                payload: tripDates(days),
              }),
            ),
            call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal', headers: withToken(sale.access) }),
          ]);
          for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(500);
          await settleRefunds(ctx, sale.idVenta);
          await expectNoPaymentOverdrawn(ctx, sale.idVenta);
          const purchase = await mine(ctx, sale.access);
          expect(purchase.ledger.netClp).toBe(await heldAtWebpay(ctx, sale.idVenta));
          expect(purchase.ledger.netClp).toBe(purchase.status === 'paid' ? purchase.amountClp : 0);
        }
      });
    }

    it(`property: any sequence of date changes and a withdrawal keeps the ledger's net equal to what Webpay holds [${kind}]`, async () => {
      const step = fc.integer({ min: 2, max: 30 });
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), fc.boolean(), async (lengths, instalments) => {
          webpay.onCommit = (transaction) => ({
            status: 200,
            body: authorizedBody(
              transaction,
              instalments ? { payment_type_code: 'S2', installments_number: 3 } : { payment_type_code: 'VN' },
            ),
          });
          const sale = await openWebpaySale(ctx);
          let days = 10;
          for (const length of lengths) {
            if (length === days) continue;
            await changeDates(ctx, sale.access, length);
            days = length;
            await settleRefunds(ctx, sale.idVenta);
            const held = await heldAtWebpay(ctx, sale.idVenta);
            const purchase = await expectDocumentsShow(ctx, sale.access, held);
            expect(purchase.amountClp).toBe(held);
            await expectNoPaymentOverdrawn(ctx, sale.idVenta);
          }
          await withdraw(ctx, sale.access);
          await settleRefunds(ctx, sale.idVenta);
          expect(await heldAtWebpay(ctx, sale.idVenta)).toBe(0);
          const after = await expectDocumentsShow(ctx, sale.access, 0);
          expect(after.ledger.pendingRefundClp).toBe(0);
          expect(await receiptText(ctx, sale.access)).toContain('Compra anulada');
          await expectNoPaymentOverdrawn(ctx, sale.idVenta);
          webpay.reset();
        }),
        { numRuns: kind === 'postgres' ? 8 : 4, seed: Number(process.env.LEDGER_SEED ?? 20261128), endOnFailure: true },
      );
    });
  },
  env,
);

describe("the purchase e-mail's total follows the plan's tax treatment", () => {
  const onePayment = {
    entries: [{ kind: 'payment', amountClp: 80_625, paymentType: null, instalmentsText: null }],
  } as unknown as Parameters<typeof ledgerEmailLines>[0];
  it('«IVA 19 % incluido» for a plan that carries it, «no afecto a IVA» for one that does not', () => {
    expect(taxWording(1900)).toBe('IVA 19 % incluido');
    expect(taxWording(null)).toBe('no afecto a IVA');
    expect(taxWording(0)).toBe('no afecto a IVA');
    expect(ledgerEmailLines(onePayment, 85, 1900)[0]).toBe('Total pagado: $80.625 (USD 85,00), IVA 19 % incluido.');
    expect(ledgerEmailLines(onePayment, null, null)[0]).toBe('Total pagado: $80.625, no afecto a IVA.');
  });
});
