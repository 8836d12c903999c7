import { consentVersion, dataProcessingConsentRequired } from '@travesia/domain/consents';
import { errorMessages } from '@travesia/domain/messages';
import { alreadyPaid } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { payments, sales } from '#app/db/schema.ts';
import {
  clpText,
  countCertificates,
  countEmails,
  decideOnSandbox,
  drainJobsAfterAll,
  failureUrl,
  followReturn,
  getPaymentResult,
  givenConsents,
  type PaymentCreated,
  paidSale,
  pathAndQuery,
  paymentResult,
  postPayment,
  pricedClp,
  putPassengers,
  readyToPay,
  saleRows,
  sandboxPage,
  startPayment,
  successUrl,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectBadRequest, expectError, get } from './support/http.ts';
import { createQuotation, putQuotation, quotationBody } from './support/trips.ts';

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

const unknownQuotation = '7d8f3a52-1c4b-4e8a-9f0e-2b6c1d3e4f50';

describeOnEachDatabase(
  'Payments through the sandbox gateway',
  (ctx) => {
    drainJobsAfterAll(ctx);

    /** POST /payments refused with 400 «Invalid inputs supplied»; answers the field errors. */
    /** A refused start; the buyer's consent is given unless the body says otherwise (`consents` present). */
    async function expectRefused(body: Record<string, unknown>) {
      const answer = await postPayment(ctx, 'consents' in body ? body : { ...body, consents: givenConsents });
      return expectBadRequest(answer, errorMessages.invalidInputs, '/api/payments');
    }

    it('a quotation without a plan cannot be paid (Elige un plan antes de pagar)', async () => {
      const quotationId = await readyToPay(ctx, { plan: false });
      const errors = await expectRefused({ quotationId, gatewayId: 'sandbox' });
      expect(errors).toStrictEqual([
        { field: 'quotationId', code: 'plan_required', message: 'Elige un plan antes de pagar' },
      ]);
      expect(await saleRows(ctx, quotationId)).toHaveLength(0);
    });

    it('a quotation without its travellers cannot be paid (Completa los datos de los pasajeros…)', async () => {
      const quotationId = await readyToPay(ctx, { passengers: false });
      const errors = await expectRefused({ quotationId, gatewayId: 'sandbox' });
      expect(errors).toStrictEqual([
        {
          field: 'quotationId',
          code: 'passengers_missing',
          message: 'Completa los datos de los pasajeros antes de pagar',
        },
      ]);
      expect(await saleRows(ctx, quotationId)).toHaveLength(0);
    });

    it('travellers saved for other passenger counts than the quotation now has cannot be paid', async () => {
      const quotationId = await readyToPay(ctx);
      const changed = await putQuotation(
        ctx,
        quotationId,
        quotationBody({
          planId: 411,
          passangerTypes: [
            { passengerTypeId: 1, quantity: 3 },
            { passengerTypeId: 2, quantity: 1 },
          ],
        }),
      );
      expect(changed.status, changed.text).toBe(200);
      const errors = await expectRefused({ quotationId, gatewayId: 'sandbox' });
      expect(errors).toStrictEqual([
        {
          field: 'quotationId',
          code: 'passengers_mismatch',
          message: 'Los pasajeros ingresados no coinciden con la cotización; revisa sus datos antes de pagar',
        },
      ]);
      expect(await saleRows(ctx, quotationId)).toHaveLength(0);
    });

    it('a quotation without billing data cannot be paid (Completa los datos de facturación…)', async () => {
      const quotationId = await readyToPay(ctx, { invoice: false });
      const errors = await expectRefused({ quotationId, gatewayId: 'sandbox' });
      expect(errors).toStrictEqual([
        {
          field: 'quotationId',
          code: 'billing_missing',
          message: 'Completa los datos de facturación antes de pagar',
        },
      ]);
      expect(await saleRows(ctx, quotationId)).toHaveLength(0);
    });

    it('every missing step is reported at once', async () => {
      const quotationId = await createQuotation(ctx);
      const errors = await expectRefused({ quotationId, gatewayId: 'sandbox' });
      expect(errors.map((e) => e.message).sort()).toStrictEqual(
        [
          'Completa los datos de facturación antes de pagar',
          'Completa los datos de los pasajeros antes de pagar',
          'Elige un plan antes de pagar',
        ].sort(),
      );
    });

    it('an unknown gateway → 400 Medio de pago no disponible on gatewayId, and no sale', async () => {
      const quotationId = await readyToPay(ctx);
      const errors = await expectRefused({ quotationId, gatewayId: 'paypal' });
      expect(errors).toStrictEqual([
        { field: 'gatewayId', code: 'not_available', message: 'Medio de pago no disponible' },
      ]);
      expect(await saleRows(ctx, quotationId)).toHaveLength(0);
    });

    it("without the consent to process the travellers' data → 400 consent_required; no sale, no attempt", async () => {
      const quotationId = await readyToPay(ctx);
      for (const consents of [undefined, { dataProcessing: false, marketing: true }]) {
        const errors = await expectRefused({ quotationId, gatewayId: 'sandbox', consents });
        expect(errors).toStrictEqual([{ field: 'consents.dataProcessing', ...dataProcessingConsentRequired }]);
      }
      expect(await saleRows(ctx, quotationId)).toHaveLength(0);
    });

    it('what the buyer agreed to is stored with the paid sale: the version of the texts, when, and the optional marketing', async () => {
      const quotationId = await readyToPay(ctx);
      const before = Date.now();
      const answer = await postPayment(ctx, {
        quotationId,
        gatewayId: 'sandbox',
        consents: { dataProcessing: true, marketing: true },
      });
      expect(answer.status, answer.text).toBe(201);
      const payment = answer.json<PaymentCreated>();
      await followReturn(ctx, await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 1));
      const [sale] = await saleRows(ctx, quotationId);
      expect(sale?.status).toBe('paid');
      expect(sale?.purchase?.consents).toMatchObject({
        version: consentVersion,
        dataProcessing: true,
        marketing: true,
      });
      expect(Date.parse(sale?.purchase?.consents?.recordedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    });

    it('an unknown quotation → 404 Resource not found', async () => {
      const answer = await postPayment(ctx, {
        quotationId: unknownQuotation,
        gatewayId: 'sandbox',
        consents: givenConsents,
      });
      expectError(answer, 404, errorMessages.resourceNotFound, '/api/payments');
    });

    it('a malformed quotation id, or no body fields → 400 Invalid inputs supplied naming the field', async () => {
      const errors = await expectRefused({ quotationId: 'not-a-uuid', gatewayId: 'sandbox' });
      expect(errors.map((e) => e.field)).toStrictEqual(['quotationId']);
      const missing = await expectRefused({});
      expect(missing.map((e) => e.field).sort()).toStrictEqual(['gatewayId', 'quotationId']);
    });

    it('POST /payments answers 201 with the sandbox page, the sale and the attempt; the page shows the CLP amount', async () => {
      const quotationId = await readyToPay(ctx);
      const amount = await pricedClp(ctx, quotationId);
      const answer = await postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents });
      expect(answer.status, answer.text).toBe(201);
      const created = answer.json<PaymentCreated>();
      expect(Object.keys(created).sort()).toStrictEqual(['accessToken', 'idTransaction', 'idVenta', 'redirectUrl']);
      expect(created.accessToken).toMatch(/^[0-9a-f]{64}$/);
      expect(new URL(created.redirectUrl).pathname).toMatch(/^\/api\/payments\/sandbox\/sbx_[0-9a-f]{32}$/);
      const [sale] = await saleRows(ctx, quotationId);
      expect(sale).toMatchObject({ id: created.idVenta, status: 'pending', amountClp: amount, productId: 411 });

      const page = await sandboxPage(ctx, created.redirectUrl);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain(clpText(amount));
      expect(page.text).toContain('name="decision"');
      // Nobody can take it for a real payment page: the banner, and the title a tab or history shows.
      expect(page.text).toContain('PAGO DE PRUEBA — SIN VALOR');
      expect(page.text).toMatch(/<title>PAGO DE PRUEBA — SIN VALOR/);

      const pending = await paymentResult(ctx, created);
      expect(pending).toMatchObject({ resultTransaction: 'PENDING', amountClp: amount, certificates: [] });
    });

    it('approved in 3 instalments: 303 to /exito, AUTHORIZED with 3 instalments (SI) and one certificate per traveller', async () => {
      const quotationId = await readyToPay(ctx);
      const amount = await pricedClp(ctx, quotationId);
      const payment = await startPayment(ctx, quotationId);
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 3);
      expect(new URL(back).pathname).toBe('/api/payments/return/sandbox');
      expect(new URL(back).searchParams.get('token_ws')).toMatch(/^sbx_/);
      expect(await followReturn(ctx, back)).toBe(successUrl(payment));

      const result = await paymentResult(ctx, payment);
      expect(result).toMatchObject({
        idTransaction: payment.idTransaction,
        idVenta: payment.idVenta,
        resultTransaction: 'AUTHORIZED',
        message: 'Pago aprobado',
        quotationId,
        planId: 411,
        amountClp: amount,
        gateway: 'sandbox',
        instalments: 3,
        instalmentAmountClp: Math.ceil(amount / 3),
        paymentTypeCode: 'SI',
        paymentType: 'Crédito, cuotas sin interés',
        cardLastDigits: '6623',
      });
      expect(result.authorizationCode).toMatch(/^\d{6}$/);
      expect(result.certificates.map((c) => [c.name, c.lastName])).toStrictEqual(
        travellers.map((t) => [t.firstName, t.lastName]),
      );
      expect(new Set(result.certificates.map((c) => c.number)).size).toBe(travellers.length);
      const [sale] = await saleRows(ctx, quotationId);
      expect(sale?.status).toBe('paid');
      expect(sale?.paidAt).toBeInstanceOf(Date);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
      expect(await countEmails(ctx, payment.idVenta)).toBe(1);
    });

    it('declined → /error and DECLINED, the sale stays pending; paying again (new attempt, same sale) succeeds', async () => {
      const quotationId = await readyToPay(ctx);
      const first = await startPayment(ctx, quotationId);
      const back = await decideOnSandbox(ctx, first.redirectUrl, 'decline');
      expect(await followReturn(ctx, back)).toBe(failureUrl(first));
      const declined = await paymentResult(ctx, first);
      expect(declined).toMatchObject({
        resultTransaction: 'DECLINED',
        certificates: [],
        instalments: null,
        instalmentAmountClp: null,
      });
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('pending');
      expect(await countCertificates(ctx, first.idVenta)).toBe(0);
      expect(await countEmails(ctx, first.idVenta)).toBe(0);

      const second = await startPayment(ctx, quotationId);
      expect(second.idVenta).toBe(first.idVenta);
      expect(second.idTransaction).not.toBe(first.idTransaction);
      expect(second.redirectUrl).not.toBe(first.redirectUrl);
      const again = await decideOnSandbox(ctx, second.redirectUrl, 'approve', 1);
      expect(await followReturn(ctx, again)).toBe(successUrl(second));
      const paid = await paymentResult(ctx, second);
      expect(paid).toMatchObject({ resultTransaction: 'AUTHORIZED', instalments: 1, paymentTypeCode: 'VN' });
      expect(paid).toMatchObject({ paymentType: 'Crédito', instalmentAmountClp: paid.amountClp });
      // The first attempt keeps its own outcome.
      expect((await paymentResult(ctx, first)).resultTransaction).toBe('DECLINED');
      expect(await saleRows(ctx, quotationId)).toHaveLength(1);
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('paid');
      const buyOrders = await ctx.database.db
        .select({ buyOrder: payments.buyOrder })
        .from(payments)
        .where(eq(payments.saleId, first.idVenta));
      expect(buyOrders.map((p) => p.buyOrder).sort()).toStrictEqual(
        [`TRV${first.idVenta}-1`, `TRV${first.idVenta}-2`].sort(),
      );
    });

    it('abandoned → the page returns with TBK_TOKEN, TBK_ORDEN_COMPRA, TBK_ID_SESION; /error and ABORTED', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'abandon');
      const params = new URL(back).searchParams;
      expect(params.get('token_ws')).toBeNull();
      expect(params.get('TBK_TOKEN')).toMatch(/^sbx_/);
      expect(params.get('TBK_ORDEN_COMPRA')).toBe(`TRV${payment.idVenta}-1`);
      expect(params.get('TBK_ID_SESION')).toBe(quotationId);
      expect(await followReturn(ctx, back)).toBe(failureUrl(payment));
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'ABORTED', certificates: [] });
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('pending');
    });

    it('the sandbox page takes one decision only: a second one → 409, and the page then says it was processed', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      await decideOnSandbox(ctx, payment.redirectUrl, 'decline');
      const again = await sandboxPage(ctx, payment.redirectUrl, 'decision=approve&instalments=2');
      expect(again.status).toBe(409);
      expect(again.text).toContain('ya fue procesada');
      const page = await sandboxPage(ctx, payment.redirectUrl);
      expect(page.status).toBe(200);
      expect(page.text).toContain('ya fue procesada');
      expect(page.text).not.toContain('name="decision"');
      // A client that does not ask for HTML gets the §8 body instead of the page (issue #11).
      const plain = await call(ctx.app, {
        method: 'POST',
        url: pathAndQuery(payment.redirectUrl),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'decision=approve&instalments=2',
      });
      expectError(plain, 409, errorMessages.unexpected, new URL(payment.redirectUrl).pathname);
      const unknown = '/api/payments/sandbox/sbx_no-such-token';
      expectError(await get(ctx.app, unknown), 404, errorMessages.resourceNotFound, unknown);
    });

    it('instalments outside 1…6 are refused by the sandbox page (400) and decide nothing', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      const answer = await sandboxPage(ctx, payment.redirectUrl, 'decision=approve&instalments=7');
      expect(answer.status).toBe(400);
      expect((await sandboxPage(ctx, payment.redirectUrl)).text).toContain('name="decision"');
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 6);
      expect(await followReturn(ctx, back)).toBe(successUrl(payment));
      expect(await paymentResult(ctx, payment)).toMatchObject({ instalments: 6, paymentTypeCode: 'NC' });
    });

    it('a return naming no known payment → /error?motivo=desconocido', async () => {
      expect(await followReturn(ctx, '/api/payments/return/sandbox?token_ws=sbx_unknown')).toBe(
        '/error?motivo=desconocido',
      );
      expect(await followReturn(ctx, '/api/payments/return/nosuchgateway?token_ws=abc')).toBe(
        '/error?motivo=desconocido',
      );
    });

    it('payment-result of an attempt with another sale id → 404', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      const answer = await getPaymentResult(ctx, {
        idTransaction: payment.idTransaction,
        idVenta: payment.idVenta + 1,
      });
      expectError(
        answer,
        404,
        errorMessages.resourceNotFound,
        `/api/companies/${payment.idTransaction}/payment-result/${payment.idVenta + 1}`,
      );
    });

    it('the same return twice (GET, then a form POST) → the same redirect, one paid sale, one set of certificates', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 2);
      expect(await followReturn(ctx, back)).toBe(successUrl(payment));
      const posted = await call(ctx.app, {
        method: 'POST',
        url: '/api/payments/return/sandbox',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token_ws=${new URL(back).searchParams.get('token_ws')}`,
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toBe(successUrl(payment));
      expect(await followReturn(ctx, back)).toBe(successUrl(payment));
      expect(await saleRows(ctx, quotationId)).toHaveLength(1);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
      expect(await countEmails(ctx, payment.idVenta)).toBe(1);
      expect(await paymentResult(ctx, payment)).toMatchObject({ instalments: 2, paymentTypeCode: 'S2' });
    });

    it('50 simultaneous returns of one approved payment → all 303 to the same /exito, one paid sale, one set of certificates, one automatic e-mail', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      const back = pathAndQuery(await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 3));
      const answers = await Promise.all(Array.from({ length: 50 }, () => ctx.app.inject({ method: 'GET', url: back })));
      expect(answers.map((a) => a.statusCode)).toStrictEqual(Array(50).fill(303));
      expect(new Set(answers.map((a) => a.headers.location))).toStrictEqual(new Set([successUrl(payment)]));

      const paid = await ctx.database.db.select().from(sales).where(eq(sales.quotationId, quotationId));
      expect(paid.map((s) => s.status)).toStrictEqual(['paid']);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
      expect(await countEmails(ctx, payment.idVenta)).toBe(1);
      expect(await countEmails(ctx, payment.idVenta, `certificate:auto:${payment.idVenta}`)).toBe(1);
      const result = await paymentResult(ctx, payment);
      expect(result).toMatchObject({ resultTransaction: 'AUTHORIZED', instalments: 3, paymentTypeCode: 'SI' });
      expect(result.certificates).toHaveLength(travellers.length);
    });

    it('five simultaneous POST /payments (double clicks) → all 201: five attempts of one sale, each its own buy order', async () => {
      const quotationId = await readyToPay(ctx);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents }),
        ),
      );
      expect(answers.map((a) => a.status)).toStrictEqual(Array(5).fill(201));
      const created = answers.map((a) => a.json<{ idVenta: number; idTransaction: number }>());
      expect(new Set(created.map((c) => c.idVenta)).size).toBe(1);
      expect(new Set(created.map((c) => c.idTransaction)).size).toBe(5);
      expect(await saleRows(ctx, quotationId)).toHaveLength(1);
      const saleId = created[0]?.idVenta ?? 0;
      const buyOrders = await ctx.database.db
        .select({ buyOrder: payments.buyOrder })
        .from(payments)
        .where(eq(payments.saleId, saleId));
      expect(buyOrders.map((p) => p.buyOrder).sort()).toStrictEqual([1, 2, 3, 4, 5].map((n) => `TRV${saleId}-${n}`));
    });

    it('an attempt started before the sale was repriced (another plan chosen) cannot pay it: ERROR, not paid', async () => {
      const quotationId = await readyToPay(ctx);
      const first = await startPayment(ctx, quotationId);
      const firstAmount = (await saleRows(ctx, quotationId))[0]?.amountClp;
      // Back in the storefront the payer picks another plan and starts paying again: the sale takes the new price.
      const otherPlan = 410;
      const changed = await putQuotation(ctx, quotationId, quotationBody({ planId: otherPlan }));
      expect(changed.status, changed.text).toBeLessThan(300);
      const newAmount = await pricedClp(ctx, quotationId, otherPlan);
      expect(newAmount).not.toBe(firstAmount);
      const second = await startPayment(ctx, quotationId);
      expect(second.idVenta).toBe(first.idVenta);
      expect((await saleRows(ctx, quotationId))[0]).toMatchObject({ amountClp: newAmount, productId: otherPlan });

      // The old tab then approves the old amount: that must not pay the repriced sale.
      const oldBack = await decideOnSandbox(ctx, first.redirectUrl, 'approve', 1);
      expect(await followReturn(ctx, oldBack)).toBe(failureUrl(first));
      expect((await paymentResult(ctx, first)).resultTransaction).toBe('ERROR');
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('pending');
      expect(await countCertificates(ctx, first.idVenta)).toBe(0);

      const back = await decideOnSandbox(ctx, second.redirectUrl, 'approve', 1);
      expect(await followReturn(ctx, back)).toBe(successUrl(second));
      expect(await paymentResult(ctx, second)).toMatchObject({ resultTransaction: 'AUTHORIZED', amountClp: newAmount });
    });

    it('a paid quotation refuses a new POST /payments (Esta compra ya fue pagada) and new travellers', async () => {
      const sale = await paidSale(ctx);
      const errors = await expectRefused({ quotationId: sale.quotationId, gatewayId: 'sandbox' });
      expect(errors).toStrictEqual([{ field: 'quotationId', ...alreadyPaid }]);
      const attempts = await ctx.database.db.select().from(payments).where(eq(payments.saleId, sale.idVenta));
      expect(attempts).toHaveLength(1);

      const put = await putPassengers(ctx, sale.quotationId);
      const putErrors = expectBadRequest(
        put,
        errorMessages.invalidInputs,
        `/api/quotations/${sale.quotationId}/passangers`,
      );
      expect(putErrors).toStrictEqual([{ field: 'quotationId', ...alreadyPaid }]);
      expect((await paymentResult(ctx, sale)).certificates).toHaveLength(travellers.length);
    });
  },
  env,
);

const noSandboxEnv: NodeJS.ProcessEnv = { PAYMENTS_SANDBOX: 'false' };
// In production (NODE_ENV=production, here with Webpay's integration environment) the test gateway is off unless
// PAYMENTS_SANDBOX=true says otherwise.
const productionEnv: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://tienda.travesia.cl',
  BACKOFFICE_ORIGIN: 'https://consola.travesia.cl',
  COOKIE_SECRET: 'a-production-cookie-secret-of-32-chars',
  PREVIEW_SECRET: 'a-test-preview-secret-of-32-characters',
  TAX_DOCUMENTS_PROVIDER: 'external',
  RECAPTCHA_SITE_KEY: 'production-site-key',
  RECAPTCHA_SECRET_KEY: 'production-secret-key',
  // Named, with credentials that are not Transbank's public ones (a staging store on the integration environment).
  WEBPAY_ENVIRONMENT: 'integration',
  WEBPAY_COMMERCE_CODE: '597012345678',
  WEBPAY_API_KEY: 'a-staging-webpay-api-key',
};
const productionWithSandboxEnv: NodeJS.ProcessEnv = { ...productionEnv, PAYMENTS_SANDBOX: 'true' };
for (const env of [noSandboxEnv, productionEnv, productionWithSandboxEnv]) useTemporaryDataDir(env);

const listedGateways = async (ctx: TestContext) => {
  const listed = await call(ctx.app, { method: 'GET', url: '/api/companies/1/payment-gateways' });
  expect(listed.status, listed.text).toBe(200);
  return listed.json<{ id: string }[]>().map((gateway) => gateway.id);
};

for (const [title, env] of [
  ['with PAYMENTS_SANDBOX=false (as next to Webpay production)', noSandboxEnv],
  ['in production (NODE_ENV=production) without PAYMENTS_SANDBOX', productionEnv],
] as const) {
  describeOnEachDatabase(
    `payments without the test gateway, ${title}`,
    (ctx) => {
      it('the sandbox is neither offered nor accepted', async () => {
        expect(await listedGateways(ctx)).toStrictEqual(['webpay']);
        const quotationId = await readyToPay(ctx);
        const answer = await postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents });
        expect(expectBadRequest(answer, errorMessages.invalidInputs, '/api/payments')).toStrictEqual([
          { field: 'gatewayId', code: 'not_available', message: 'Medio de pago no disponible' },
        ]);
        expect(await saleRows(ctx, quotationId)).toStrictEqual([]);
      });
    },
    env,
  );
}

describeOnEachDatabase(
  'payments in production with PAYMENTS_SANDBOX=true (explicitly enabled)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    it('the sandbox is offered and accepted, its page at PUBLIC_URL', async () => {
      expect(await listedGateways(ctx)).toStrictEqual(['sandbox', 'webpay']);
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId, 'sandbox');
      expect(payment.redirectUrl).toMatch(/^https:\/\/tienda\.travesia\.cl\/api\/payments\/sandbox\/sbx_/);
    });
  },
  productionWithSandboxEnv,
);
