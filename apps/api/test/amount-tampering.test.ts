import { errorMessages } from '@travesia/domain/messages';
import { alreadyPaid } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { payments, sales, sandboxTransactions } from '#app/db/schema.ts';
import {
  clpText,
  countCertificates,
  decideOnSandbox,
  drainJobsAfterAll,
  failureUrl,
  followReturn,
  givenConsents,
  invoiceBody,
  paidSale,
  passengersBody,
  pathAndQuery,
  paymentResult,
  postPayment,
  pricedClp,
  putPassengers,
  readyToPay,
  referencePlanId,
  saleRows,
  sandboxPage,
  startPayment,
  successUrl,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectBadRequest } from './support/http.ts';
import {
  createQuotation,
  inDays,
  insertDiscountCode,
  postQuotation,
  putQuotation,
  quotationBody,
  readQuotation,
  twoAdultsOneSenior,
} from './support/trips.ts';

/**
 * Issue #11: money is computed on the server only. No field a client adds (to a quotation, its travellers, its
 * billing data, a payment start, the gateway's page or its return) changes what a quotation costs or what a payment
 * started is for; a repriced quotation cannot be paid by the attempt started before; a paid one cannot be repriced.
 * (Webpay authorizing another amount than the sale's: webpay.test.ts, «an authorization for an amount other…».)
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

/** Every name a client might try to set a price with, each with a price nobody would charge. */
const money = {
  totalAmount: 1,
  amount: 1,
  amountClp: 1,
  amountUsd: 0.01,
  valorPlan: 1,
  montoDescuento: 99_999_999,
  montoConversion: 1,
  price: 1,
  discount: 100,
  discountPercent: 100,
};

/** A plan of the reference trip dearer than the reference plan. */
const otherPlan = 410;

const paymentRows = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(payments).where(eq(payments.saleId, saleId));

describeOnEachDatabase(
  'amount tampering (issue #11)',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('money fields added to a quotation (POST and PUT, also per passenger type) are ignored: it costs what the server prices', async () => {
      const clean = await createQuotation(ctx, { planId: referencePlanId });
      const price = await pricedClp(ctx, clean);

      const tampered = {
        ...quotationBody({ planId: referencePlanId }),
        ...money,
        passangerTypes: twoAdultsOneSenior.map((type) => ({ ...type, ...money })),
      };
      const created = await postQuotation(ctx, tampered);
      expect(created.status, created.text).toBe(201);
      const id = created.json<{ id: string }>().id;
      expect(await pricedClp(ctx, id)).toBe(price);
      expect(await readQuotation(ctx, id)).toStrictEqual({ ...(await readQuotation(ctx, clean)), id });

      const updated = await putQuotation(ctx, clean, tampered);
      expect(updated.status, updated.text).toBe(200);
      expect(await pricedClp(ctx, clean)).toBe(price);
    });

    it('money fields in the travellers, the billing data and the payment start are ignored: the attempt is for the server’s price', async () => {
      const id = await readyToPay(ctx, { passengers: false, invoice: false });
      const price = await pricedClp(ctx, id);
      const travellers = passengersBody();
      const saved = await putPassengers(ctx, id, {
        ...travellers,
        ...money,
        passangers: travellers.passangers.map((traveller) => ({ ...traveller, ...money })),
      });
      expect(saved.status, saved.text).toBe(204);
      const billing = await call(ctx.app, {
        method: 'POST',
        url: `/api/quotations/${id}/invoice-details`,
        payload: {
          ...invoiceBody(),
          ...money,
          personalInformation: { ...invoiceBody().personalInformation, ...money },
        },
      });
      expect(billing.status, billing.text).toBe(204);

      const started = await postPayment(ctx, {
        quotationId: id,
        gatewayId: 'sandbox',
        consents: givenConsents,
        ...money,
      });
      expect(started.status, started.text).toBe(201);
      const payment = started.json<{ redirectUrl: string; idVenta: number; idTransaction: number }>();
      expect((await saleRows(ctx, id))[0]?.amountClp).toBe(price);
      expect((await paymentRows(ctx, payment.idVenta)).map((row) => row.amountClp)).toStrictEqual([price]);
      const page = await sandboxPage(ctx, payment.redirectUrl);
      expect(page.text).toContain(clpText(price));
    });

    it('amounts added to the sandbox decision and to the gateway return are ignored: paid for the server’s price', async () => {
      const id = await readyToPay(ctx);
      const price = await pricedClp(ctx, id);
      const payment = await startPayment(ctx, id);
      const form = new URLSearchParams({ decision: 'approve', instalments: '1', amount: '1', amountClp: '1' });
      const decided = await sandboxPage(ctx, payment.redirectUrl, form.toString());
      expect(decided.status, decided.text).toBe(303);
      const back = new URL(String(decided.headers.location), 'http://localhost');
      back.searchParams.set('amount', '1');
      back.searchParams.set('vci', 'TSY');
      expect(await followReturn(ctx, pathAndQuery(back.toString()))).toBe(successUrl(payment));
      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'AUTHORIZED', amountClp: price });
      expect((await saleRows(ctx, id))[0]).toMatchObject({ status: 'paid', amountClp: price });
    });

    it('the test gateway authorizing another amount than the attempt’s → ERROR, the sale is not paid', async () => {
      const id = await readyToPay(ctx);
      const payment = await startPayment(ctx, id);
      const token = new URL(payment.redirectUrl).pathname.split('/').pop() ?? '';
      // What a gateway would report had the payer's page been changed to charge less.
      const [ledger] = await ctx.database.db
        .update(sandboxTransactions)
        .set({ amountClp: 1000 })
        .where(eq(sandboxTransactions.token, token))
        .returning();
      expect(ledger?.amountClp).toBe(1000);
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve');
      expect(await followReturn(ctx, back)).toBe(failureUrl(payment));
      const result = await paymentResult(ctx, payment);
      expect(result.resultTransaction).toBe('ERROR');
      expect(result.detailResoonse).toContain('1000');
      expect((await saleRows(ctx, id))[0]?.status).toBe('pending');
      expect(await countCertificates(ctx, payment.idVenta)).toBe(0);
    });

    it('a plan changed after a payment started leaves that payment’s amount as it was, and it cannot pay the new price', async () => {
      const id = await readyToPay(ctx);
      const price = await pricedClp(ctx, id);
      const first = await startPayment(ctx, id);
      const changed = await putQuotation(ctx, id, quotationBody({ planId: otherPlan, upgradeCovid: true }));
      expect(changed.status, changed.text).toBe(200);
      const newPrice = await pricedClp(ctx, id, otherPlan);
      expect(newPrice).not.toBe(price);

      expect((await paymentRows(ctx, first.idVenta)).map((row) => row.amountClp)).toStrictEqual([price]);
      const token = new URL(first.redirectUrl).pathname.split('/').pop() ?? '';
      const ledger = await ctx.database.db
        .select()
        .from(sandboxTransactions)
        .where(eq(sandboxTransactions.token, token));
      expect(ledger.map((row) => row.amountClp)).toStrictEqual([price]);
      expect((await sandboxPage(ctx, first.redirectUrl)).text).toContain(clpText(price));

      const back = await decideOnSandbox(ctx, first.redirectUrl, 'approve');
      expect(await followReturn(ctx, back)).toBe(failureUrl(first));
      expect((await saleRows(ctx, id))[0]?.status).toBe('pending');
    });

    it('a paid quotation cannot be repriced: another plan, the covid upgrade, a discount code, more travellers are refused', async () => {
      const sale = await paidSale(ctx);
      const [paidRow] = await saleRows(ctx, sale.quotationId);
      const before = await readQuotation(ctx, sale.quotationId);
      await insertDiscountCode(ctx, {
        code: 'TODOGRATIS',
        percentBp: 9_000,
        validFrom: inDays(-1),
        validTo: inDays(30),
      });
      const instance = `/api/quotations/1/${sale.quotationId}`;
      for (const change of [
        { planId: otherPlan },
        { planId: referencePlanId, upgradeCovid: true },
        { planId: referencePlanId, discountCode: 'TODOGRATIS' },
        { planId: referencePlanId, passangerTypes: [{ passengerTypeId: 1, quantity: 1 }] },
        { planId: referencePlanId, ...money },
      ]) {
        const answer = await putQuotation(ctx, sale.quotationId, { ...quotationBody(), ...change });
        const errors = expectBadRequest(answer, errorMessages.invalidInputs, instance);
        expect(errors, JSON.stringify(change)).toStrictEqual([{ field: 'quotationId', ...alreadyPaid }]);
      }
      expect(await readQuotation(ctx, sale.quotationId)).toStrictEqual(before);
      const again = await postPayment(ctx, {
        quotationId: sale.quotationId,
        gatewayId: 'sandbox',
        consents: givenConsents,
        ...money,
      });
      expect(again.status).toBe(400);
      const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
      expect(row).toStrictEqual(paidRow);
      expect(await paymentResult(ctx, sale)).toMatchObject({
        resultTransaction: 'AUTHORIZED',
        amountClp: sale.result.amountClp,
      });
      expect(await paymentRows(ctx, sale.idVenta)).toHaveLength(1);
    });
  },
  env,
);
