import { errorMessages } from '@travesia/domain/messages';
import { desc, eq } from 'drizzle-orm';
import transbank from 'transbank-sdk';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { payments } from '#app/db/schema.ts';
import { webpayBaseUrl } from '#app/integrations/payments/webpay.ts';
import {
  countCertificates,
  countEmails,
  drainJobsAfterAll,
  failureUrl,
  givenConsents,
  type PaymentCreated,
  paymentResult,
  postPayment,
  pricedClp,
  readyToPay,
  saleRows,
  startPayment,
  successUrl,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import {
  authorizedBody,
  type CreatedTransaction,
  type FakeWebpay,
  failedBody,
  integrationApiKey,
  integrationCommerceCode,
  startFakeWebpay,
  webpayBasePath,
} from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectError, get } from './support/http.ts';
import { inDays, putQuotation, quotationBody } from './support/trips.ts';

let webpay: FakeWebpay;
const env: NodeJS.ProcessEnv = {};
const badKeyEnv: NodeJS.ProcessEnv = { WEBPAY_API_KEY: 'not-the-key-webpay-expects' };
useTemporaryDataDir(env);
useTemporaryDataDir(badKeyEnv);

// The double must listen before the suites' beforeAll reads WEBPAY_ENVIRONMENT.
beforeAll(async () => {
  webpay = await startFakeWebpay();
  env.WEBPAY_ENVIRONMENT = webpay.url;
  badKeyEnv.WEBPAY_ENVIRONMENT = webpay.url;
});
afterAll(async () => {
  await webpay?.close();
});

/** The token of a started Webpay payment, read from the redirect URL (where Webpay's form expects it). */
const tokenOf = (payment: PaymentCreated) => new URL(payment.redirectUrl).searchParams.get('token_ws') ?? '';

/** The browser back from Webpay: a form POST to the return URL, as Webpay sends it after paying. */
async function postReturn(ctx: TestContext, params: Record<string, string>) {
  const answer = await call(ctx.app, {
    method: 'POST',
    url: '/api/payments/return/webpay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(params).toString(),
  });
  expect(answer.status, answer.text).toBe(303);
  return String(answer.headers.location);
}

/** The same, as a GET with the parameters in the query string. */
async function getReturn(ctx: TestContext, params: Record<string, string>) {
  const answer = await call(ctx.app, {
    method: 'GET',
    url: `/api/payments/return/webpay?${new URLSearchParams(params).toString()}`,
  });
  expect(answer.status, answer.text).toBe(303);
  return String(answer.headers.location);
}

async function startWebpay(ctx: TestContext) {
  const quotationId = await readyToPay(ctx);
  const payment = await startPayment(ctx, quotationId, 'webpay');
  const token = tokenOf(payment);
  const transaction = webpay.transactions.get(token);
  expect(transaction, 'the token in the redirect URL is one the gateway created').toBeDefined();
  return { quotationId, payment, token, transaction: transaction as CreatedTransaction };
}

async function expectSaleNotPaid(ctx: TestContext, quotationId: string, saleId: number) {
  expect((await saleRows(ctx, quotationId)).map((s) => s.status)).toStrictEqual(['pending']);
  expect(await countCertificates(ctx, saleId)).toBe(0);
  expect(await countEmails(ctx, saleId)).toBe(0);
  const link = await get(ctx.app, `/api/certificates/b2c/${saleId}`);
  expectError(link, 404, errorMessages.resourceNotFound, `/api/certificates/b2c/${saleId}`);
}

it("names Transbank's hosts as its SDK does (the SDK itself is loaded on the first call to Webpay)", () => {
  expect(webpayBaseUrl('integration')).toBe(transbank.Environment.Integration);
  expect(webpayBaseUrl('production')).toBe(transbank.Environment.Production);
  expect(webpayBaseUrl('http://127.0.0.1:9999/')).toBe('http://127.0.0.1:9999');
});

describeOnEachDatabase(
  'Webpay Plus through its REST API (a double on loopback)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    afterEach(() => webpay.reset());

    it('POST /payments creates the transaction with the amount priced on the server and sends the browser to Webpay with token_ws', async () => {
      const quotationId = await readyToPay(ctx);
      const amount = await pricedClp(ctx, quotationId);
      const before = webpay.calls.length;
      const payment = await startPayment(ctx, quotationId, 'webpay');

      const creates = webpay.calls.slice(before).filter((c) => c.kind === 'create');
      expect(creates).toHaveLength(1);
      const [create] = creates;
      expect(create?.path).toBe(`${webpayBasePath}/transactions`);
      expect(create?.answered).toBe(200);
      expect(create?.headers['tbk-api-key-id']).toBe(integrationCommerceCode);
      expect(create?.headers['tbk-api-key-secret']).toBe(integrationApiKey);
      const body = create?.body as { buy_order: string; session_id: string; amount: number; return_url: string };
      expect(body.amount).toBe(amount);
      expect(body.buy_order.length).toBeLessThanOrEqual(26);
      expect(body.buy_order).toBe(`TRV${payment.idVenta}-1`);
      expect(body.session_id.length).toBeLessThanOrEqual(61);
      expect(new URL(body.return_url).pathname).toBe('/api/payments/return/webpay');

      const redirect = new URL(payment.redirectUrl);
      expect(payment.redirectUrl.startsWith(webpay.url)).toBe(true);
      expect(`${redirect.origin}${redirect.pathname}`).toBe(webpay.formUrl);
      expect(redirect.searchParams.get('token_ws')).toBe(create?.token);
      expect((await saleRows(ctx, quotationId))[0]).toMatchObject({ id: payment.idVenta, amountClp: amount });
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'PENDING', gateway: 'webpay' });
    });

    it('approved (AUTHORIZED, response_code 0) in 3 instalments SI → commit once, /exito, the payment-result records it', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      webpay.onCommit = (tx) => ({
        status: 200,
        body: authorizedBody(tx, {
          payment_type_code: 'SI',
          installments_number: 3,
          installments_amount: Math.round(tx.amount / 3),
          authorization_code: '123456',
          card_detail: { card_number: '6623' },
        }),
      });
      expect(await postReturn(ctx, { token_ws: token })).toBe(successUrl(payment));

      const commits = webpay.callsFor(token, 'commit');
      expect(commits).toHaveLength(1);
      expect(commits[0]?.path).toBe(`${webpayBasePath}/transactions/${token}`);
      expect(commits[0]?.headers['tbk-api-key-id']).toBe(integrationCommerceCode);
      expect(webpay.callsFor(token, 'status')).toHaveLength(0);
      const result = await paymentResult(ctx, payment);
      expect(result).toMatchObject({
        resultTransaction: 'AUTHORIZED',
        gateway: 'webpay',
        amountClp: transaction.amount,
        instalments: 3,
        paymentTypeCode: 'SI',
        authorizationCode: '123456',
        cardLastDigits: '6623',
      });
      expect(result.certificates).toHaveLength(travellers.length);
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('paid');
      expect(await countEmails(ctx, payment.idVenta)).toBe(1);

      // The browser coming back once more (reload) changes nothing and asks Webpay nothing.
      expect(await postReturn(ctx, { token_ws: token })).toBe(successUrl(payment));
      expect(webpay.callsFor(token, 'commit')).toHaveLength(1);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
    });

    it('declined (response_code -1, status FAILED) → /error, DECLINED; the sale stays pending without certificates', async () => {
      const { quotationId, payment, token } = await startWebpay(ctx);
      webpay.onCommit = (tx) => ({ status: 200, body: failedBody(tx) });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      expect(webpay.callsFor(token, 'commit')).toHaveLength(1);
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'DECLINED', certificates: [] });
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('response_code 0 with a status other than AUTHORIZED is not an approval', async () => {
      const { quotationId, payment, token } = await startWebpay(ctx);
      webpay.onCommit = (tx) => ({ status: 200, body: authorizedBody(tx, { status: 'FAILED' }) });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('DECLINED');
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('aborted by the payer (TBK_TOKEN, TBK_ORDEN_COMPRA, TBK_ID_SESION) → status is asked, commit never; ABORTED', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      const location = await getReturn(ctx, {
        TBK_TOKEN: token,
        TBK_ORDEN_COMPRA: transaction.buy_order,
        TBK_ID_SESION: transaction.session_id,
      });
      expect(location).toBe(failureUrl(payment));
      expect(webpay.callsFor(token, 'status')).toHaveLength(1);
      expect(webpay.callsFor(token, 'commit')).toHaveLength(0);
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'ABORTED' });
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('timeout (only TBK_ID_SESION and TBK_ORDEN_COMPRA) → the payment is found by its buy order; TIMEOUT, no commit', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      const location = await postReturn(ctx, {
        TBK_ID_SESION: transaction.session_id,
        TBK_ORDEN_COMPRA: transaction.buy_order,
      });
      expect(location).toBe(failureUrl(payment));
      expect(webpay.callsFor(token, 'commit')).toHaveLength(0);
      expect(webpay.callsFor(token)).toHaveLength(1); // the create, nothing after it
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'TIMEOUT' });
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('an error page in Webpay (all four parameters) → ERROR, nothing committed', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      const location = await postReturn(ctx, {
        token_ws: token,
        TBK_TOKEN: token,
        TBK_ORDEN_COMPRA: transaction.buy_order,
        TBK_ID_SESION: transaction.session_id,
      });
      expect(location).toBe(failureUrl(payment));
      expect(webpay.callsFor(token, 'commit')).toHaveLength(0);
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'ERROR' });
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('an authorization for an amount other than the sale’s → ERROR, the sale is NOT paid', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      webpay.onCommit = (tx) => ({ status: 200, body: authorizedBody(tx, { amount: tx.amount - 1000 }) });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      const result = await paymentResult(ctx, payment);
      expect(result.resultTransaction).toBe('ERROR');
      expect(result.detailResoonse).toContain(String(transaction.amount - 1000));
      expect(result.certificates).toStrictEqual([]);
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('the gateway took another amount: the authorization is refunded through Webpay and recorded', async () => {
      const { payment, token, transaction } = await startWebpay(ctx);
      const taken = transaction.amount - 1000;
      webpay.onCommit = (tx) => ({ status: 200, body: authorizedBody(tx, { amount: taken }) });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      const refunds = webpay.callsFor(token, 'refund');
      expect(refunds.map((call) => call.body)).toStrictEqual([{ amount: taken }]);
      const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, payment.idTransaction));
      expect(row).toMatchObject({ status: 'error', refundStatus: 'refunded', refundAmountClp: taken });
      expect(row?.refundedAt).toBeInstanceOf(Date);
    });

    it('a refund Webpay refuses stays pending and the sweeper tries again until it goes through', async () => {
      const { payment, token, transaction } = await startWebpay(ctx);
      webpay.onCommit = (tx) => ({ status: 200, body: authorizedBody(tx, { amount: tx.amount + 5 }) });
      webpay.onRefund = () => ({ status: 500, body: { error_message: 'Internal error' } });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      const read = async () =>
        (await ctx.database.db.select().from(payments).where(eq(payments.id, payment.idTransaction)))[0];
      expect(await read()).toMatchObject({ refundStatus: 'pending', refundAmountClp: transaction.amount + 5 });
      await ctx.app.sweepPayments();
      expect((await read())?.refundStatus).toBe('pending');
      webpay.onRefund = () => ({ status: 200, body: { type: 'NULLIFIED', response_code: 0 } });
      await ctx.app.sweepPayments();
      expect((await read())?.refundStatus).toBe('refunded');
      expect(webpay.callsFor(token, 'refund')).toHaveLength(3);
    });

    it('the sweeper asks status, never commit, for a confirmation Webpay already settled', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      // A process claimed the return and died before asking Webpay anything; Webpay says it was authorized.
      await ctx.database.db
        .update(payments)
        .set({ status: 'confirming', claimedAt: new Date(Date.now() - 10 * 60_000) })
        .where(eq(payments.id, payment.idTransaction));
      webpay.onStatus = () => ({ status: 200, body: authorizedBody(transaction) });
      expect(await ctx.app.sweepPayments()).toBe(1);
      expect(webpay.callsFor(token, 'status')).toHaveLength(1);
      expect(webpay.callsFor(token, 'commit')).toHaveLength(0);
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('AUTHORIZED');
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('paid');
    });

    it('a commit that fails (422) after the payment was made is recovered from status AUTHORIZED', async () => {
      const { quotationId, payment, token } = await startWebpay(ctx);
      webpay.onCommit = () => ({
        status: 422,
        body: { error_message: 'Transaction already locked by another process' },
      });
      webpay.onStatus = (tx) => ({
        status: 200,
        body: authorizedBody(tx, { payment_type_code: 'VD', installments_number: 0 }),
      });
      expect(await postReturn(ctx, { token_ws: token })).toBe(successUrl(payment));
      expect(webpay.callsFor(token, 'commit').map((c) => c.answered)).toStrictEqual([422]);
      expect(webpay.callsFor(token, 'status')).toHaveLength(1);
      const result = await paymentResult(ctx, payment);
      expect(result).toMatchObject({ resultTransaction: 'AUTHORIZED', paymentTypeCode: 'VD' });
      expect(result.certificates).toHaveLength(travellers.length);
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('paid');
    });

    it('a commit that fails while status says the payment was never authorized → ERROR, not paid', async () => {
      const { quotationId, payment, token } = await startWebpay(ctx);
      webpay.onCommit = () => ({ status: 500, body: { error_message: 'Internal error' } });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      expect(webpay.callsFor(token, 'status')).toHaveLength(1);
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('ERROR');
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('when neither commit nor status answers, the payment stays in confirmation and the sweeper settles it later', async () => {
      const { quotationId, payment, token, transaction } = await startWebpay(ctx);
      webpay.onCommit = () => ({ status: 503, body: { error_message: 'Service unavailable' } });
      webpay.onStatus = () => ({ status: 503, body: { error_message: 'Service unavailable' } });
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('CONFIRMING');
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);

      // Webpay is back and the transaction was in fact authorized: the sweeper (run by the server's timer)
      // claims the stale confirmation again and records the payment.
      webpay.onCommit = () => ({ status: 422, body: { error_message: 'Transaction already committed' } });
      webpay.onStatus = () => ({ status: 200, body: authorizedBody(transaction) });
      await ctx.database.db
        .update(payments)
        .set({ claimedAt: new Date(Date.now() - 10 * 60_000) })
        .where(eq(payments.id, payment.idTransaction));
      expect(await ctx.app.sweepPayments()).toBe(1);
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('AUTHORIZED');
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
    });

    it('a trip changed after the payment started voids the attempt: never committed, ERROR, sale not paid', async () => {
      const { quotationId, payment, token } = await startWebpay(ctx);
      const longer = await putQuotation(ctx, quotationId, quotationBody({ planId: 411, returnDate: inDays(40) }));
      expect(longer.status, longer.text).toBe(200);
      expect(await postReturn(ctx, { token_ws: token })).toBe(failureUrl(payment));
      expect(webpay.callsFor(token, 'commit')).toHaveLength(0);
      const result = await paymentResult(ctx, payment);
      expect(result.resultTransaction).toBe('ERROR');
      expect(result.detailResoonse).toBe('La compra cambió después de iniciar este pago');
      await expectSaleNotPaid(ctx, quotationId, payment.idVenta);
    });

    it('an earlier attempt left open is superseded by a new one and is never committed', async () => {
      const quotationId = await readyToPay(ctx);
      const first = await startPayment(ctx, quotationId, 'webpay');
      const second = await startPayment(ctx, quotationId, 'webpay');
      expect(second.idVenta).toBe(first.idVenta);
      expect(await postReturn(ctx, { token_ws: tokenOf(first) })).toBe(failureUrl(first));
      expect(webpay.callsFor(tokenOf(first), 'commit')).toHaveLength(0);
      expect(await postReturn(ctx, { token_ws: tokenOf(second) })).toBe(successUrl(second));
      expect(webpay.callsFor(tokenOf(second), 'commit')).toHaveLength(1);
    });

    it("a timeout return naming another session's order changes nothing", async () => {
      const { payment } = await startWebpay(ctx);
      const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, payment.idTransaction));
      expect(await postReturn(ctx, { TBK_ORDEN_COMPRA: row?.buyOrder ?? '', TBK_ID_SESION: 'someone-else' })).toBe(
        '/error?motivo=desconocido',
      );
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('PENDING');
    });

    it('concurrent returns of one token commit it once', async () => {
      const { payment, token } = await startWebpay(ctx);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/payments/return/webpay',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: `token_ws=${token}`,
          }),
        ),
      );
      expect(new Set(answers.map((a) => `${a.statusCode} ${a.headers.location}`))).toStrictEqual(
        new Set([`303 ${successUrl(payment)}`]),
      );
      expect(webpay.callsFor(token, 'commit')).toHaveLength(1);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
    });
  },
  env,
);

describeOnEachDatabase(
  'Webpay refusing the credentials',
  (ctx) => {
    it('create answered 401 → POST /payments 502, the attempt recorded as ERROR and nothing to pay', async () => {
      const quotationId = await readyToPay(ctx);
      const before = webpay.calls.length;
      const answer = await postPayment(ctx, { quotationId, gatewayId: 'webpay', consents: givenConsents });
      expectError(answer, 502, errorMessages.unexpected, '/api/payments');
      const creates = webpay.calls.slice(before).filter((c) => c.kind === 'create');
      expect(creates.map((c) => [c.answered, c.headers['tbk-api-key-secret']])).toStrictEqual([
        [401, 'not-the-key-webpay-expects'],
      ]);
      const [sale] = await saleRows(ctx, quotationId);
      expect(sale?.status).toBe('pending');
      expect(
        await paymentResult(ctx, { idVenta: sale?.id ?? 0, idTransaction: await lastPaymentId(ctx) }),
      ).toMatchObject({ resultTransaction: 'ERROR' });
    });
  },
  badKeyEnv,
);

async function lastPaymentId(ctx: TestContext): Promise<number> {
  const [row] = await ctx.database.db.select({ id: payments.id }).from(payments).orderBy(desc(payments.id)).limit(1);
  return row?.id ?? 0;
}
