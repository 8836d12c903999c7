import { addDays } from '@travesia/domain/dates';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  certificates,
  payments,
  quotations,
  saleDateChanges,
  saleRefunds,
  sales,
  sandboxTransactions,
} from '#app/db/schema.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import {
  decideOnSandbox,
  drainJobsAfterAll,
  emailJobsOfSale,
  followReturn,
  paidSale,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call } from './support/http.ts';
import { tripDates } from './support/trips.ts';

/**
 * Date change from «Mi compra» (issue #12): before the departure date the buyer picks new dates, the server reprices
 * them as the quoter does, and the difference is paid through the gateway (then new certificates replace the old
 * ones), refunded, or nothing. Every paid sale of support/checkout.ts is a 10-day trip leaving in 10 days.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

type Purchase = {
  departureDate: string;
  returnDate: string;
  amountClp: number;
  travellers: { certificate: string | null }[];
  dateChange: { available: boolean; reason: string | null };
  dateChanges: { differenceClp: number; refund: string | null }[];
};
type Preview = { amountClp: number; paidClp: number; differenceClp: number; action: string; days: number };
type Result = { action: string; status: string; redirectUrl: string | null; differenceClp: number };

/** A paid sale with a «Mi compra» access token opened by its signed link. */
async function openPurchase(ctx: TestContext) {
  const sale = await paidSale(ctx);
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  return { ...sale, token: opened.json<{ token: string }>().token };
}

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });
const mine = async (ctx: TestContext, token: string) => {
  const answer = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: withToken(token) });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Purchase>();
};
const preview = (ctx: TestContext, token: string, dates: object) =>
  call(ctx.app, {
    method: 'POST',
    url: '/api/purchases/mine/date-change/preview',
    headers: withToken(token),
    payload: dates as Record<string, unknown>,
  });
const confirm = (ctx: TestContext, token: string, dates: object): Promise<Answer> =>
  call(ctx.app, {
    method: 'POST',
    url: '/api/purchases/mine/date-change',
    headers: withToken(token),
    payload: dates as Record<string, unknown>,
  });

const withdraw = (ctx: TestContext, token: string): Promise<Answer> =>
  call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal', headers: withToken(token) });

const liveCertificates = (ctx: TestContext, saleId: number) =>
  ctx.database.db
    .select({ number: certificates.number })
    .from(certificates)
    .where(and(eq(certificates.saleId, saleId), sql`${certificates.voidedAt} is null`));
const voidedCertificates = (ctx: TestContext, saleId: number) =>
  ctx.database.db
    .select({ number: certificates.number })
    .from(certificates)
    .where(and(eq(certificates.saleId, saleId), isNotNull(certificates.voidedAt)));
const refundsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId));
const changesOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(saleDateChanges).where(eq(saleDateChanges.saleId, saleId));

describeOnEachDatabase(
  '«Mi compra»: date change',
  (ctx, kind) => {
    drainJobsAfterAll(ctx);

    it('a longer trip costs more: the difference is paid through the gateway, then the new certificates replace the old ones', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      expect(before.dateChange).toStrictEqual({ available: true, reason: null });
      const oldNumbers = (await liveCertificates(ctx, sale.idVenta)).map((c) => c.number).sort();
      const longer = tripDates(15);

      const priced = await preview(ctx, sale.token, longer);
      expect(priced.status, priced.text).toBe(200);
      const quote = priced.json<Preview>();
      expect(quote).toMatchObject({ action: 'pay', paidClp: before.amountClp, days: 15 });
      expect(quote.differenceClp).toBe(quote.amountClp - before.amountClp);
      expect(quote.differenceClp).toBeGreaterThan(0);
      // The preview writes nothing.
      expect(await changesOf(ctx, sale.idVenta)).toHaveLength(0);

      const confirmed = await confirm(ctx, sale.token, longer);
      expect(confirmed.status, confirmed.text).toBe(200);
      const result = confirmed.json<Result>();
      expect(result).toMatchObject({ action: 'pay', status: 'awaiting_payment', differenceClp: quote.differenceClp });
      // Nothing changes until the difference is paid.
      expect((await mine(ctx, sale.token)).departureDate).toBe(before.departureDate);
      const [difference] = await ctx.database.db
        .select()
        .from(payments)
        .where(and(eq(payments.saleId, sale.idVenta), eq(payments.purpose, 'date_change')));
      expect(difference?.amountClp).toBe(quote.differenceClp);

      const back = await decideOnSandbox(ctx, result.redirectUrl ?? '', 'approve');
      expect(await followReturn(ctx, back)).toBe('/mi-compra?cambio=pagado');
      // The same return again (a reload, a double delivery) changes nothing more.
      expect(await followReturn(ctx, back)).toBe('/mi-compra?cambio=pagado');

      const after = await mine(ctx, sale.token);
      expect(after).toMatchObject({ ...longer, amountClp: quote.amountClp });
      expect(after.dateChanges).toHaveLength(1);
      const voided = (await voidedCertificates(ctx, sale.idVenta)).map((c) => c.number).sort();
      expect(voided).toStrictEqual(oldNumbers);
      const live = await liveCertificates(ctx, sale.idVenta);
      expect(live).toHaveLength(oldNumbers.length);
      for (const certificate of live) expect(certificate.number).toMatch(/-C\d+$/);
      expect(after.travellers.map((t) => t.certificate).sort()).toStrictEqual(live.map((c) => c.number).sort());
      const [change] = await changesOf(ctx, sale.idVenta);
      expect(change?.status).toBe('applied');
      const [quotation] = await ctx.database.db
        .select({ departureDate: quotations.departureDate, returnDate: quotations.returnDate })
        .from(quotations)
        .where(eq(quotations.id, sale.quotationId));
      expect(quotation).toStrictEqual(longer);
      // The new certificates are e-mailed.
      const jobs = await emailJobsOfSale(ctx, sale.idVenta, `certificate:date-change:${change?.id}`);
      expect(jobs).toHaveLength(1);
      // The purchase's own payment is still the one «Mi compra» shows.
      const [purchasePayment] = await ctx.database.db
        .select()
        .from(payments)
        .where(and(eq(payments.saleId, sale.idVenta), eq(payments.purpose, 'purchase')));
      expect(purchasePayment?.status).toBe('authorized');
    });

    it('a declined difference payment changes nothing', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const confirmed = await confirm(ctx, sale.token, tripDates(14));
      expect(confirmed.status, confirmed.text).toBe(200);
      const back = await decideOnSandbox(ctx, confirmed.json<Result>().redirectUrl ?? '', 'decline');
      expect(await followReturn(ctx, back)).toBe('/mi-compra?cambio=no-pagado');
      const after = await mine(ctx, sale.token);
      expect(after).toMatchObject({ departureDate: before.departureDate, amountClp: before.amountClp });
      expect(after.dateChanges).toHaveLength(0);
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(0);
      expect((await changesOf(ctx, sale.idVenta)).map((c) => c.status)).toStrictEqual(['cancelled']);
    });

    it('a shorter trip costs less: applied at once, and the difference is refunded through the gateway', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const shorter = tripDates(5);
      const confirmed = await confirm(ctx, sale.token, shorter);
      expect(confirmed.status, confirmed.text).toBe(200);
      const result = confirmed.json<Result>();
      expect(result).toMatchObject({ action: 'refund', status: 'applied', redirectUrl: null });
      expect(result.differenceClp).toBeLessThan(0);

      // The difference is a sale refund (the withdrawal's foundation), asked of the gateway by the payment sweeper.
      const [requested] = await refundsOf(ctx, sale.idVenta);
      expect(requested).toMatchObject({ reason: 'date_change', amountClp: -result.differenceClp });
      // The confirmation nudged the refund run already (it may hold the refund's claim): wait for it, or sweep.
      await ctx.app.sweepPayments();
      await expect
        .poll(async () => (await refundsOf(ctx, sale.idVenta)).map((r) => r.status), { timeout: 5_000 })
        .toStrictEqual(['refunded']);
      const after = await mine(ctx, sale.token);
      expect(after).toMatchObject({ ...shorter, amountClp: before.amountClp + result.differenceClp });
      expect(after.dateChanges[0]).toMatchObject({ differenceClp: result.differenceClp, refund: 'reembolsado' });
      expect((await refundsOf(ctx, sale.idVenta)).map((r) => r.status)).toStrictEqual(['refunded']);
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(3);
      // The sandbox ledger recorded a partial refund of the paid transaction.
      const [paid] = await ctx.database.db
        .select({ externalId: payments.externalId })
        .from(payments)
        .where(and(eq(payments.saleId, sale.idVenta), eq(payments.status, 'authorized')));
      const [ledger] = await ctx.database.db
        .select({ refundedClp: sandboxTransactions.refundedClp })
        .from(sandboxTransactions)
        .where(eq(sandboxTransactions.token, paid?.externalId ?? ''));
      expect(ledger?.refundedClp).toBe(-result.differenceClp);
    });

    it('a withdrawal after a dearer date change gives back both payments, each at the gateway that took it', async () => {
      const sale = await openPurchase(ctx);
      const confirmed = await confirm(ctx, sale.token, tripDates(15));
      expect(confirmed.status, confirmed.text).toBe(200);
      const back = await decideOnSandbox(ctx, confirmed.json<Result>().redirectUrl ?? '', 'approve');
      expect(await followReturn(ctx, back)).toBe('/mi-compra?cambio=pagado');
      const paid = await ctx.database.db
        .select({ id: payments.id, amountClp: payments.amountClp, externalId: payments.externalId })
        .from(payments)
        .where(and(eq(payments.saleId, sale.idVenta), eq(payments.status, 'authorized')))
        .orderBy(payments.createdAt);
      expect(paid).toHaveLength(2);

      const withdrawn = await withdraw(ctx, sale.token);
      expect(withdrawn.status, withdrawn.text).toBe(200);
      const requested = await refundsOf(ctx, sale.idVenta);
      expect(
        requested.map((r) => [r.reason, r.paymentId, r.amountClp]).sort((a, b) => Number(a[1]) - Number(b[1])),
      ).toStrictEqual(paid.map((p) => ['withdrawal', p.id, p.amountClp]).sort((a, b) => Number(a[1]) - Number(b[1])));

      await ctx.app.sweepPayments();
      await expect
        .poll(async () => (await refundsOf(ctx, sale.idVenta)).map((r) => r.status), { timeout: 5_000 })
        .toStrictEqual(['refunded', 'refunded']);
      // A withdrawn purchase no longer offers a date change.
      expect((await mine(ctx, sale.token)).dateChange.available).toBe(false);
      const after = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: withToken(sale.token) });
      expect(
        after.json<{ status: string; withdrawal: { refund: { status: string; amountClp: number } } }>(),
      ).toMatchObject({
        status: 'withdrawn',
        withdrawal: { refund: { status: 'refunded', amountClp: paid[0]!.amountClp + paid[1]!.amountClp } },
      });
      for (const payment of paid) {
        const [ledger] = await ctx.database.db
          .select({ refundedClp: sandboxTransactions.refundedClp })
          .from(sandboxTransactions)
          .where(eq(sandboxTransactions.token, payment.externalId ?? ''));
        expect(ledger?.refundedClp).toBe(payment.amountClp);
      }
    });

    it('a withdrawal after a cheaper date change gives back what is left of the purchase', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const confirmed = await confirm(ctx, sale.token, tripDates(5));
      expect(confirmed.status, confirmed.text).toBe(200);
      const difference = confirmed.json<Result>().differenceClp;
      const withdrawn = await withdraw(ctx, sale.token);
      expect(withdrawn.status, withdrawn.text).toBe(200);
      const requested = await refundsOf(ctx, sale.idVenta);
      expect(requested.map((r) => r.amountClp).reduce((a, b) => a + b, 0)).toBe(before.amountClp);
      expect(requested.find((r) => r.reason === 'withdrawal')?.amountClp).toBe(before.amountClp + difference);
    });

    it('the same price (same length, other days) is applied at once with nothing to pay', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const moved = tripDates(10, 12);
      const priced = (await preview(ctx, sale.token, moved)).json<Preview>();
      expect(priced).toMatchObject({ action: 'none', differenceClp: 0 });
      const confirmed = await confirm(ctx, sale.token, moved);
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.json<Result>()).toMatchObject({ action: 'none', status: 'applied' });
      expect(await mine(ctx, sale.token)).toMatchObject({ ...moved, amountClp: before.amountClp });
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(3);
    });

    it('invalid dates are refused as the quoter refuses them, and the same dates are not a change', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const backwards = await preview(ctx, sale.token, {
        departureDate: tripDates(10).departureDate,
        returnDate: addDays(tripDates(10).departureDate, -2),
      });
      expect(backwards.status, backwards.text).toBe(400);
      expect(backwards.json<{ errors: { field: string; code: string }[] }>().errors).toContainEqual(
        expect.objectContaining({ field: 'returnDate', code: 'return_before_departure' }),
      );
      const garbage = await confirm(ctx, sale.token, { departureDate: 'mañana', returnDate: '' });
      expect(garbage.status).toBe(400);
      const same = await confirm(ctx, sale.token, {
        departureDate: before.departureDate,
        returnDate: before.returnDate,
      });
      expect(same.status).toBe(400);
      expect(same.json<{ errors: { code: string }[] }>().errors[0]?.code).toBe('same_dates');
      const noToken = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/date-change',
        payload: tripDates(5),
      });
      expect(noToken.status).toBe(404);
      expect(await changesOf(ctx, sale.idVenta)).toHaveLength(0);
    });

    it('once the departure date has come, the dates cannot change (409 with the reason)', async () => {
      const sale = await openPurchase(ctx);
      // The trip started today: the snapshot's departure date is moved to today in Chile.
      const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
      const purchase = row?.purchase;
      if (!purchase) throw new Error('no snapshot');
      const today = tripDates(1, 0).departureDate;
      purchase.trip.departureDate = today;
      await ctx.database.db.update(sales).set({ purchase }).where(eq(sales.id, sale.idVenta));

      expect((await mine(ctx, sale.token)).dateChange.available).toBe(false);
      for (const answer of [
        await preview(ctx, sale.token, tripDates(5, 20)),
        await confirm(ctx, sale.token, tripDates(5, 20)),
      ]) {
        expect(answer.status, answer.text).toBe(409);
        expect(answer.json<{ errors: { code: string }[] }>().errors[0]?.code).toBe('trip_started');
      }
    });

    it(`concurrent confirmations make one change and one refund [${kind}]`, async () => {
      const sale = await openPurchase(ctx);
      const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(ctx, sale.token, tripDates(6))));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(
        statuses.filter((status) => status === 200),
        answers.map((a) => a.text).join('\n'),
      ).toHaveLength(1);
      // The others found the dates already changed (409 changed, or 400 same_dates once the change is visible).
      for (const status of statuses) expect([200, 400, 409]).toContain(status);
      const changes = await changesOf(ctx, sale.idVenta);
      expect(changes).toHaveLength(1);
      expect(changes[0]?.status).toBe('applied');
      expect(await refundsOf(ctx, sale.idVenta)).toHaveLength(1);
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(3);
      expect(await liveCertificates(ctx, sale.idVenta)).toHaveLength(3);
    });
  },
  env,
);
