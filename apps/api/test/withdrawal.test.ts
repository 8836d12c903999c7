import { addDays, chileDayStart, todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { certificates, certificateVerifications, saleRefunds, sales, sandboxTransactions } from '#app/db/schema.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { withdrawalRefusals } from '#app/modules/purchases/withdrawal.ts';
import { clpText, drainJobsAfterAll, paidSale, paidWithWebpay, useTemporaryDataDir } from './support/checkout.ts';
import { authorizedBody, type FakeWebpay, startFakeWebpay } from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, anyRequestId, call, expectError, get } from './support/http.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';

/**
 * Withdrawal (derecho a retracto, issue #12): within 10 days of the payment and before the trip starts, «Retractarme»
 * voids the certificates and refunds the whole amount through the gateway that took it, once, however many clicks.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
let smtp: FakeSmtp;
let webpay: FakeWebpay;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  webpay = await startFakeWebpay();
  env.SMTP_URL = smtp.url;
  env.WEBPAY_ENVIRONMENT = webpay.url;
});
afterAll(async () => {
  await smtp?.close();
  await webpay?.close();
});

type Withdrawal = {
  status: 'paid' | 'withdrawing' | 'withdrawn';
  available: boolean;
  reason: string | null;
  reasonCode: string | null;
  deadline: string;
  lastDay: string;
  refund: { status: string; amountClp: number } | null;
};

/** Opens «Mi compra» of a sale as the e-mailed link does; answers the access token. */
async function openPurchase(ctx: TestContext, saleId: number) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, saleId);
  const answer = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ token: string }>().token;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const withdraw = (ctx: TestContext, token: string) =>
  call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal', headers: auth(token) });
const mine = async (ctx: TestContext, token: string) => {
  const answer = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: auth(token) });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ status: string; withdrawal: Withdrawal; travellers: { certificateVoided: boolean }[] }>();
};

const refundsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId));
const saleStatus = async (ctx: TestContext, saleId: number) =>
  (await ctx.database.db.select({ status: sales.status }).from(sales).where(eq(sales.id, saleId)))[0]?.status;

/** Runs the worker (payment sweeper and job queue) until the sale is withdrawn, or gives up after ~5 s. */
async function settle(ctx: TestContext, saleId: number) {
  for (let round = 0; round < 50; round += 1) {
    await ctx.app.sweepPayments();
    await ctx.app.runJobs();
    if ((await saleStatus(ctx, saleId)) === 'withdrawn') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const mailsTo = (address: string, subject: string) =>
  smtp.received.filter((m) => m.to.includes(address) && m.parsed.subject?.includes(subject));

async function verificationOf(ctx: TestContext, saleId: number): Promise<Answer> {
  const [row] = await ctx.database.db
    .select({ code: certificateVerifications.code })
    .from(certificateVerifications)
    .where(eq(certificateVerifications.saleId, saleId));
  return get(ctx.app, `/api/certificates/verification/${row?.code}`);
}

describeOnEachDatabase(
  'Withdrawal from «Mi compra» (derecho a retracto)',
  (ctx, kind) => {
    drainJobsAfterAll(ctx);
    afterEach(() => webpay.reset());

    it('inside the window: certificates voided, the whole amount refunded (sandbox ledger), verification says cancelled, both e-mails sent', async () => {
      const sale = await paidSale(ctx);
      const token = await openPurchase(ctx, sale.idVenta);
      const before = await mine(ctx, token);
      expect(before.withdrawal).toMatchObject({ status: 'paid', available: true, reason: null, refund: null });
      // A sandbox sale's certificates are «sin valor» (test payment) until withdrawn, then «anulado».
      expect((await verificationOf(ctx, sale.idVenta)).json()).toMatchObject({ status: 'void' });

      const answer = await withdraw(ctx, token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json<Withdrawal>()).toMatchObject({
        status: 'withdrawing',
        available: false,
        refund: { status: 'pending', amountClp: sale.result.amountClp },
      });
      // Voided in the same transaction: the verification and the documents say so at once.
      expect((await verificationOf(ctx, sale.idVenta)).json()).toMatchObject({ status: 'cancelled' });
      const pdf = await call(ctx.app, {
        method: 'GET',
        url: '/api/purchases/mine/certificado.pdf',
        headers: auth(token),
      });
      expect(pdf.status).toBe(409);
      expect(pdf.json()).toMatchObject({ status: 409, errors: [{ code: 'sale_withdrawn' }] });
      const search = await get(ctx.app, '/api/certificates?word=12345678-5');
      const numbers = search.json<{ certificado: string }[]>().map((c) => JSON.stringify(c));
      for (const certificate of sale.result.certificates) {
        expect(numbers.some((found) => found.includes(certificate.number))).toBe(false);
      }

      await settle(ctx, sale.idVenta);
      const after = await mine(ctx, token);
      expect(after.status).toBe('withdrawn');
      expect(after.withdrawal).toMatchObject({ status: 'withdrawn', refund: { status: 'refunded' } });
      expect(after.travellers.every((t) => t.certificateVoided)).toBe(true);
      const voided = await ctx.database.db.select().from(certificates).where(eq(certificates.saleId, sale.idVenta));
      expect(voided.every((c) => c.voidedAt !== null && c.voidedReason === 'withdrawal')).toBe(true);
      const [ledger] = await ctx.database.db
        .select({ refundedClp: sandboxTransactions.refundedClp })
        .from(sandboxTransactions)
        .innerJoin(sql`payments`, sql`payments.external_id = ${sandboxTransactions.token}`)
        .where(sql`payments.sale_id = ${sale.idVenta}`);
      expect(ledger?.refundedClp).toBe(sale.result.amountClp);

      expect(mailsTo('camila@example.cl', `Recibimos tu retracto – compra N° ${sale.idVenta}`)).toHaveLength(1);
      expect(mailsTo('camila@example.cl', `Reembolso completado – compra N° ${sale.idVenta}`)).toHaveLength(1);

      // Again: the same answer, nothing new.
      const again = await withdraw(ctx, token);
      expect(again.status).toBe(200);
      expect(again.json()).toMatchObject({ status: 'withdrawn' });
      expect(await refundsOf(ctx, sale.idVenta)).toHaveLength(1);
    });

    it('the window is calendar days in Chile: bought at 00:10 ten days ago, open until tonight’s midnight', async () => {
      const sale = await paidSale(ctx);
      const today = todayInChile();
      await ctx.database.db
        .update(sales)
        .set({ paidAt: new Date(chileDayStart(addDays(today, -10)).getTime() + 10 * 60_000) })
        .where(eq(sales.id, sale.idVenta));
      const token = await openPurchase(ctx, sale.idVenta);
      expect((await mine(ctx, token)).withdrawal).toMatchObject({
        available: true,
        lastDay: today,
        deadline: chileDayStart(addDays(today, 1)).toISOString(),
      });
    });

    it('after the 10 days (bought at 23:50 eleven days ago): 409 with the reason, nothing changes', async () => {
      const sale = await paidSale(ctx);
      await ctx.database.db
        .update(sales)
        .set({ paidAt: new Date(chileDayStart(addDays(todayInChile(), -10)).getTime() - 10 * 60_000) })
        .where(eq(sales.id, sale.idVenta));
      const token = await openPurchase(ctx, sale.idVenta);
      expect((await mine(ctx, token)).withdrawal).toMatchObject({
        available: false,
        reasonCode: 'window_expired',
        reason: withdrawalRefusals.window_expired,
      });
      const answer = await withdraw(ctx, token);
      expect(answer.status).toBe(409);
      expect(answer.json()).toStrictEqual({
        status: 409,
        detail: withdrawalRefusals.window_expired,
        instance: '/api/purchases/mine/withdrawal',
        errors: [{ field: 'idVenta', code: 'withdrawal_window_expired', message: withdrawalRefusals.window_expired }],
        requestId: anyRequestId,
      });
      expect(await saleStatus(ctx, sale.idVenta)).toBe('paid');
      expect(await refundsOf(ctx, sale.idVenta)).toHaveLength(0);
      expect((await verificationOf(ctx, sale.idVenta)).json()).toMatchObject({ status: 'void' });
    });

    it('once the trip started (departure date today in Chile): 409', async () => {
      const sale = await paidSale(ctx);
      await ctx.database.db
        .update(sales)
        .set({
          purchase: sql`jsonb_set(${sales.purchase}, '{trip,departureDate}', to_jsonb(to_char(now() at time zone 'America/Santiago', 'YYYY-MM-DD')))`,
        })
        .where(eq(sales.id, sale.idVenta));
      const token = await openPurchase(ctx, sale.idVenta);
      expect((await mine(ctx, token)).withdrawal).toMatchObject({ available: false, reasonCode: 'trip_started' });
      const answer = await withdraw(ctx, token);
      expect(answer.status).toBe(409);
      expect(answer.json()).toMatchObject({ detail: withdrawalRefusals.trip_started });
      expect(await refundsOf(ctx, sale.idVenta)).toHaveLength(0);
    });

    it('Webpay refuses the refund, then cannot be reached: «retracto en proceso»; the worker retries and it is refunded once', async () => {
      const sale = await paidWithWebpay(ctx);
      let refundCalls = 0;
      webpay.onRefund = () => {
        refundCalls += 1;
        return refundCalls === 1
          ? { status: 422, body: { error_message: 'Invalid status' } }
          : { status: 500, body: { error_message: 'down' } };
      };
      const token = await openPurchase(ctx, sale.idVenta);
      expect((await withdraw(ctx, token)).json()).toMatchObject({ status: 'withdrawing' });
      for (let round = 0; round < 30 && refundCalls < 1; round += 1) {
        await ctx.app.sweepPayments();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const [failed] = await refundsOf(ctx, sale.idVenta);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed?.lastError).toBeTruthy();
      // Backed off: a sweep now does not call the gateway again.
      await ctx.app.sweepPayments();
      expect(refundCalls).toBe(1);
      expect((await mine(ctx, token)).withdrawal).toMatchObject({
        status: 'withdrawing',
        refund: { status: 'pending' },
      });

      // Due again: the gateway is down (500) — still pending, tried once more.
      const due = () =>
        ctx.database.db
          .update(saleRefunds)
          .set({ nextAttemptAt: sql`now()` })
          .where(eq(saleRefunds.saleId, sale.idVenta));
      await due();
      await ctx.app.sweepPayments();
      expect(refundCalls).toBe(2);
      expect(await saleStatus(ctx, sale.idVenta)).toBe('withdrawing');

      // The gateway answers again: refunded, the sale withdrawn.
      webpay.onRefund = () => {
        refundCalls += 1;
        return { status: 200, body: { type: 'REVERSED' } };
      };
      await due();
      await settle(ctx, sale.idVenta);
      expect(await saleStatus(ctx, sale.idVenta)).toBe('withdrawn');
      expect(refundCalls).toBe(3);
      const refunds = webpay.callsFor(sale.token, 'refund');
      expect(refunds).toHaveLength(3);
      expect(refunds.at(-1)?.body).toMatchObject({ amount: (await refundsOf(ctx, sale.idVenta))[0]?.amountClp });
      const [done] = await refundsOf(ctx, sale.idVenta);
      expect(done).toMatchObject({ status: 'refunded', attempts: 3, detail: 'Webpay: REVERSED', lastError: null });
      // Nothing left to retry: further sweeps call nobody.
      await due();
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(sale.token, 'refund')).toHaveLength(3);
    });

    it('a refund Webpay made but whose answer was lost is recorded on the retry from its status, not asked twice', async () => {
      const sale = await paidWithWebpay(ctx);
      let given = 0;
      // The gateway gives the money back, but the answer never arrives (a cut connection, a process that died).
      webpay.onRefund = (transaction) => {
        given += transaction.amount;
        return { status: 500, body: { error_message: 'connection reset' } };
      };
      webpay.onStatus = (transaction) => ({
        status: 200,
        body:
          given >= transaction.amount
            ? authorizedBody(transaction, { status: 'REVERSED' })
            : authorizedBody(transaction),
      });
      const token = await openPurchase(ctx, sale.idVenta);
      expect((await withdraw(ctx, token)).json()).toMatchObject({ status: 'withdrawing' });
      for (let round = 0; round < 30 && webpay.callsFor(sale.token, 'refund').length < 1; round += 1) {
        await ctx.app.sweepPayments();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await refundsOf(ctx, sale.idVenta))[0]).toMatchObject({ status: 'pending', attempts: 1 });

      // Due again: the status shows the money back, so the refund is recorded without a second refund call.
      await ctx.database.db
        .update(saleRefunds)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(saleRefunds.saleId, sale.idVenta));
      await settle(ctx, sale.idVenta);
      expect(await saleStatus(ctx, sale.idVenta)).toBe('withdrawn');
      expect(webpay.callsFor(sale.token, 'refund')).toHaveLength(1);
      expect((await refundsOf(ctx, sale.idVenta))[0]).toMatchObject({ status: 'refunded', attempts: 2 });
    });

    it(`20 clicks at once, three rounds: one withdrawal, one refund row, one refund call at the gateway [${kind}]`, async () => {
      for (let round = 0; round < 3; round += 1) {
        const sale = await paidWithWebpay(ctx);
        const token = await openPurchase(ctx, sale.idVenta);
        const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(ctx, token)));
        for (const answer of answers) expect(answer.status, answer.text).toBe(200);
        const refunds = await refundsOf(ctx, sale.idVenta);
        expect(refunds).toHaveLength(1);
        expect(refunds[0]?.amountClp).toBeGreaterThan(0);
        await settle(ctx, sale.idVenta);
        // Sweeps racing each other after the refund: still one call.
        await Promise.all([ctx.app.sweepPayments(), ctx.app.sweepPayments(), ctx.app.sweepPayments()]);
        expect(webpay.callsFor(sale.token, 'refund')).toHaveLength(1);
        expect(await saleStatus(ctx, sale.idVenta)).toBe('withdrawn');
        const jobsOfSale = await ctx.database.db.execute(
          sql`select count(*)::int as count from jobs where kind = 'withdrawal-email' and payload->>'saleId' = ${String(sale.idVenta)}`,
        );
        expect(JSON.stringify(jobsOfSale)).toContain('"count":2');
      }
    });

    it('each person gets an e-mail of her own: the buyer the whole purchase and the refund, each traveller only that her certificate is void', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const from = smtp.received.length;
      const token = await openPurchase(ctx, sale.idVenta);
      expect((await withdraw(ctx, token)).status).toBe(200);
      await settle(ctx, sale.idVenta);
      await ctx.app.runJobs();
      const mails = smtp.received.slice(from).filter((m) => m.parsed.text?.includes(`N° ${sale.idVenta}`));
      for (const mail of mails) {
        // One envelope recipient, one address in To:, no Cc or Bcc.
        expect(mail.to).toHaveLength(1);
        const header = Array.isArray(mail.parsed.to) ? mail.parsed.to : [mail.parsed.to];
        expect(header.flatMap((to) => to?.value ?? []).map((a) => a.address)).toStrictEqual(mail.to);
        expect(mail.parsed.cc).toBeUndefined();
        expect(mail.raw.toString('latin1')).not.toMatch(/^(Cc|Bcc):/im);
      }
      const byRecipient = (address: string) => mails.filter((m) => m.to[0] === address);
      const amount = clpText(sale.result.amountClp);
      expect(byRecipient('camila@example.cl').map((m) => m.parsed.subject)).toStrictEqual([
        expect.stringContaining(`Recibimos tu retracto – compra N° ${sale.idVenta}`),
        expect.stringContaining(`Reembolso completado – compra N° ${sale.idVenta}`),
      ]);
      expect(byRecipient('camila@example.cl')[0]?.parsed.text).toContain(amount);
      const everyone = sale.result.certificates;
      for (const [name, address] of [
        ['Diego', 'diego@example.com'],
        ['Rosa', 'rosa@example.cl'],
      ] as const) {
        const own = everyone.find((c) => c.name === name)?.number ?? '';
        const [mail, ...more] = byRecipient(address);
        expect(more).toHaveLength(0);
        expect(mail?.parsed.subject).toContain(`Tu certificado ${own} fue anulado`);
        const text = `${mail?.parsed.subject}\n${mail?.parsed.text}\n${mail?.parsed.html}`;
        expect(text).toContain(own);
        for (const other of everyone.filter((c) => c.number !== own)) {
          expect(text).not.toContain(other.number);
          expect(text).not.toContain(other.name);
        }
        for (const hidden of ['camila@', 'diego@', 'rosa@', amount, 'mi-compra?enlace'])
          expect(text).not.toContain(hidden);
      }
      expect(mails).toHaveLength(4);
    });

    it('without a live access token: the catalogue’s 404 (§8), nothing withdrawn', async () => {
      const sale = await paidSale(ctx);
      const none = await call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal' });
      expectError(none, 404, errorMessages.resourceNotFound, '/api/purchases/mine/withdrawal');
      const wrong = await withdraw(ctx, 'x'.repeat(43));
      expect(wrong.status).toBe(404);
      expect(await saleStatus(ctx, sale.idVenta)).toBe('paid');
      expect(
        await ctx.database.db
          .select()
          .from(saleRefunds)
          .where(and(eq(saleRefunds.saleId, sale.idVenta))),
      ).toHaveLength(0);
    });
  },
  env,
);
