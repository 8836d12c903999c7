import { addDays } from '@travesia/domain/dates';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { invalidateReadCache } from '#app/app.ts';
import {
  certificates,
  exchangeRates,
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
  paidWithWebpay,
  spain,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { authorizedBody, type FakeWebpay, startFakeWebpay, webpayBasePath } from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call, get } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';
import { tripDates } from './support/trips.ts';

/**
 * Date change from «Mi compra» (issue #12): before the departure date the buyer picks new dates, the server reprices
 * them as the quoter does, and the difference is paid through the gateway (then new certificates replace the old
 * ones), refunded, or nothing. Every paid sale of support/checkout.ts is a 10-day trip leaving in 10 days.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
let webpay: FakeWebpay;
let smtp: FakeSmtp;
beforeAll(async () => {
  webpay = await startFakeWebpay();
  env.WEBPAY_ENVIRONMENT = webpay.url;
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await webpay?.close();
  await smtp?.close();
});

type Country = { id: number; label: string };

type Purchase = {
  departureDate: string;
  returnDate: string;
  amountClp: number;
  destinationCountry: Country | null;
  travellers: { certificate: string | null }[];
  dateChange: { available: boolean; reason: string | null; countries: Country[] };
  dateChanges: {
    differenceClp: number;
    refund: string | null;
    refundRefused: boolean;
    previousDestinationCountry: string | null;
    destinationCountry: string | null;
  }[];
};
type Preview = {
  amountClp: number;
  paidClp: number;
  differenceClp: number;
  action: string;
  days: number;
  destinationCountry: Country | null;
};
type Result = { action: string; status: string; redirectUrl: string | null; differenceClp: number };

/** A paid sale (in the sandbox, or through the fake Webpay) with a «Mi compra» access token opened by its signed link. */
async function openPurchase(ctx: TestContext, gateway: 'sandbox' | 'webpay' = 'sandbox') {
  const sale = gateway === 'webpay' ? await paidWithWebpay(ctx) : { token: '', ...(await paidSale(ctx)) };
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  return { ...sale, webpayToken: sale.token, token: opened.json<{ token: string }>().token };
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
    afterEach(() => webpay.reset());

    it('a longer trip costs more: the difference is paid through the gateway, then the new certificates replace the old ones', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      expect(before.dateChange).toMatchObject({ available: true, reason: null });
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

    it('the new certificates are e-mailed to each person alone: the buyer every one and the payment, each traveller only her own', async () => {
      const sale = await openPurchase(ctx);
      await ctx.app.runJobs();
      const from = smtp.received.length;
      const confirmed = await confirm(ctx, sale.token, tripDates(5));
      expect(confirmed.status, confirmed.text).toBe(200);
      await ctx.app.runJobs();
      const live = (await liveCertificates(ctx, sale.idVenta)).map((c) => c.number);
      const mails = smtp.received.slice(from).filter((m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`));
      expect(mails.map((m) => m.to)).toStrictEqual([['camila@example.cl'], ['diego@example.com'], ['rosa@example.cl']]);
      for (const mail of mails) expect(mail.parsed.cc).toBeUndefined();
      const [buyer, ...travellers] = mails;
      expect(buyer?.parsed.attachments).toHaveLength(3);
      // After a cheaper change the buyer's e-mail lists the ledger: the payment, the refund and the net.
      expect(buyer?.parsed.text).toContain('Tus pagos y devoluciones');
      expect(buyer?.parsed.text).toContain('Neto pagado');
      const names = ['Camila Rojas', 'Diego Muñoz', 'Rosa Pérez'];
      travellers.forEach((mail, index) => {
        const name = names[index + 1] ?? '';
        const text = mail.parsed.text ?? '';
        expect(mail.parsed.attachments).toHaveLength(1);
        expect(text).toContain(name);
        for (const other of names.filter((n) => n !== name)) expect(text).not.toContain(other);
        for (const address of ['camila@', 'diego@', 'rosa@']) expect(text).not.toContain(address);
        for (const paymentLine of ['Tus pagos', 'Total pagado', 'Neto pagado', 'Pagado:']) {
          expect(text).not.toContain(paymentLine);
        }
        expect(live.filter((number) => text.includes(number))).toHaveLength(1);
      });
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
      const paidTotalClp = paid.reduce((total, payment) => total + payment.amountClp, 0);

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
        withdrawal: { refund: { status: 'refunded', amountClp: paidTotalClp } },
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
      // Repriced for the new dates: the rate it was converted at is recorded with the new price.
      const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
      expect(row?.clpPerUsd).toBe('948.5300');
      expect(row?.purchase?.price.clpPerUsd).toBe('948.5300');
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(3);
    });

    it('the same dates in another country of the region: applied at once, the new certificates name it and are e-mailed', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      expect(before.destinationCountry?.id).toBe(spain);
      // The countries offered are the region's, as GET /companies/{id}/destinations/{id}/countries lists them.
      const region = await get(ctx.app, '/api/companies/1/destinations/3/countries');
      expect(before.dateChange.countries).toStrictEqual(region.json<Country[]>());
      const other = before.dateChange.countries.find((country) => country.id !== spain);
      if (!other) throw new Error('the region has one country');
      const same = { departureDate: before.departureDate, returnDate: before.returnDate };

      const priced = await preview(ctx, sale.token, { ...same, countryDestination: other.id });
      expect(priced.status, priced.text).toBe(200);
      expect(priced.json<Preview>()).toMatchObject({ action: 'none', differenceClp: 0, destinationCountry: other });
      expect(await changesOf(ctx, sale.idVenta)).toHaveLength(0);

      const confirmed = await confirm(ctx, sale.token, { ...same, countryDestination: other.id });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.json<Result>()).toMatchObject({ action: 'none', status: 'applied', redirectUrl: null });

      const after = await mine(ctx, sale.token);
      expect(after).toMatchObject({ ...same, amountClp: before.amountClp, destinationCountry: other });
      expect(after.dateChanges).toHaveLength(1);
      expect(after.dateChanges[0]).toMatchObject({
        previousDestinationCountry: before.destinationCountry?.label,
        destinationCountry: other.label,
        differenceClp: 0,
        refund: null,
      });
      const [change] = await changesOf(ctx, sale.idVenta);
      expect(change).toMatchObject({
        status: 'applied',
        previousDestinationCountry: before.destinationCountry,
        destinationCountry: other,
      });
      const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
      expect(row?.purchase?.trip.destinationCountry).toStrictEqual(other);
      const [quotation] = await ctx.database.db
        .select({ countryDestinationId: quotations.countryDestinationId })
        .from(quotations)
        .where(eq(quotations.id, sale.quotationId));
      expect(quotation?.countryDestinationId).toBe(other.id);
      // Old certificates voided, new ones issued, printing the new «País de destino», and e-mailed.
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(3);
      expect(await liveCertificates(ctx, sale.idVenta)).toHaveLength(3);
      const pdf = await ctx.app.inject({
        method: 'GET',
        url: '/api/purchases/mine/certificado.pdf',
        headers: withToken(sale.token),
      });
      expect(pdf.statusCode).toBe(200);
      const text = pdfText(pdf.rawPayload);
      expect(text).toContain('País de destino');
      expect(text).toContain(other.label);
      expect(text).not.toContain(before.destinationCountry?.label ?? '');
      expect(await emailJobsOfSale(ctx, sale.idVenta, `certificate:date-change:${change?.id}`)).toHaveLength(1);

      // Back to the first country with the same dates again: another change, not «same dates».
      const back = await confirm(ctx, sale.token, { ...same, countryDestination: spain });
      expect(back.status, back.text).toBe(200);
      expect((await mine(ctx, sale.token)).destinationCountry?.id).toBe(spain);
    });

    it('a change of the country alone keeps what was paid, however the catalogue moved since (no refund, no charge)', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const other = before.dateChange.countries.find((country) => country.id !== spain);
      if (!other) throw new Error('the region has one country');
      const same = { departureDate: before.departureDate, returnDate: before.returnDate };
      // The dollar falls by half after the purchase: the same trip quoted today costs far fewer pesos.
      await ctx.database.db.insert(exchangeRates).values({
        companyId: 1,
        fromCurrency: 'USD',
        toCurrency: 'CLP',
        rate: '450',
        validFrom: new Date(Date.now() - 1000),
      });
      await invalidateReadCache(ctx.app);
      try {
        const priced = await preview(ctx, sale.token, { ...same, countryDestination: other.id });
        expect(priced.status, priced.text).toBe(200);
        expect(priced.json<Preview>()).toMatchObject({ action: 'none', differenceClp: 0, amountClp: before.amountClp });
        const confirmed = await confirm(ctx, sale.token, { ...same, countryDestination: other.id });
        expect(confirmed.status, confirmed.text).toBe(200);
        expect(confirmed.json<Result>()).toMatchObject({ action: 'none', status: 'applied', differenceClp: 0 });
        expect(await mine(ctx, sale.token)).toMatchObject({ amountClp: before.amountClp });
        // The price kept, the rate it was converted at is kept with it (not today's 450).
        const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, sale.idVenta));
        expect(row?.clpPerUsd).toBe('948.5300');
        expect(row?.purchase?.price.clpPerUsd).toBe('948.5300');
        const refunds = await ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, sale.idVenta));
        expect(refunds).toHaveLength(0);
      } finally {
        await ctx.database.db.delete(exchangeRates).where(eq(exchangeRates.rate, '450.0000'));
        await invalidateReadCache(ctx.app);
      }
    });

    it('a country outside the region is a 400 field error (§8 body); the same dates and country are still same_dates', async () => {
      const sale = await openPurchase(ctx);
      const before = await mine(ctx, sale.token);
      const region = before.dateChange.countries.map((country) => country.id);
      // A country of another region of the catalogue (Norteamérica, Sudamérica…).
      const elsewhere: Country[] = [];
      for (const destination of [1, 2, 4, 5]) {
        const listed = await get(ctx.app, `/api/companies/1/destinations/${destination}/countries`);
        if (listed.status === 200) elsewhere.push(...listed.json<Country[]>());
      }
      const outside = elsewhere.find((country) => !region.includes(country.id));
      if (!outside) throw new Error('every country is in the region');
      for (const ask of [preview, confirm]) {
        const refused = await ask(ctx, sale.token, { ...tripDates(5), countryDestination: outside.id });
        expect(refused.status, refused.text).toBe(400);
        const body = refused.json<{ status: number; detail: string; instance: string; errors: object[] }>();
        expect(body).toMatchObject({ status: 400, instance: expect.any(String), detail: expect.any(String) });
        expect(body.errors).toStrictEqual([
          {
            field: 'countryDestination',
            code: 'country_outside_region',
            message: 'El país de destino no pertenece a la región de tu compra.',
          },
        ]);
      }
      const garbage = await preview(ctx, sale.token, { ...tripDates(5), countryDestination: 'Francia' });
      expect(garbage.status).toBe(400);
      expect(garbage.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('countryDestination');
      const same = await confirm(ctx, sale.token, {
        departureDate: before.departureDate,
        returnDate: before.returnDate,
        countryDestination: spain,
      });
      expect(same.status).toBe(400);
      expect(same.json<{ errors: { code: string }[] }>().errors[0]?.code).toBe('same_dates');
      expect(await changesOf(ctx, sale.idVenta)).toHaveLength(0);
      expect(await voidedCertificates(ctx, sale.idVenta)).toHaveLength(0);
    });

    it('paid through Webpay, a cheaper change asks Webpay to annul exactly the difference (NULLIFIED) and records the refund', async () => {
      const sale = await openPurchase(ctx, 'webpay');
      const before = await mine(ctx, sale.token);
      const { differenceClp } = (await preview(ctx, sale.token, tripDates(5))).json<Preview>();
      // A credit sale: Webpay annuls part of it (NULLIFIED, approved with code 0) and says what is left.
      webpay.onRefund = (transaction) => ({
        status: 200,
        body: {
          type: 'NULLIFIED',
          response_code: 0,
          authorization_code: '123456',
          authorization_date: new Date().toISOString(),
          nullified_amount: -differenceClp,
          balance: transaction.amount + differenceClp,
        },
      });
      const confirmed = await confirm(ctx, sale.token, tripDates(5));
      expect(confirmed.status, confirmed.text).toBe(200);
      const result = confirmed.json<Result>();
      expect(result).toMatchObject({ action: 'refund', status: 'applied', redirectUrl: null });
      expect(result.differenceClp).toBe(differenceClp);
      expect(differenceClp).toBeLessThan(0);

      await ctx.app.sweepPayments();
      await expect
        .poll(async () => (await refundsOf(ctx, sale.idVenta)).map((r) => r.status), { timeout: 5_000 })
        .toStrictEqual(['refunded']);
      const calls = webpay.callsFor(sale.webpayToken, 'refund');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        method: 'POST',
        path: `${webpayBasePath}/transactions/${sale.webpayToken}/refunds`,
        body: { amount: -result.differenceClp },
        answered: 200,
      });
      const [refund] = await refundsOf(ctx, sale.idVenta);
      expect(refund).toMatchObject({
        reason: 'date_change',
        amountClp: -result.differenceClp,
        detail: 'Webpay: NULLIFIED',
        lastError: null,
      });
      expect(refund?.refundedAt).toBeTruthy();
      const after = await mine(ctx, sale.token);
      expect(after.amountClp).toBe(before.amountClp + result.differenceClp);
      expect(after.dateChanges[0]).toMatchObject({ refund: 'reembolsado', refundRefused: false });
      // Further sweeps ask nothing more.
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(sale.webpayToken, 'refund')).toHaveLength(1);
    });

    it('paid through Webpay with a debit card, the partial refund is refused: pending with its error, retried later, never twice', async () => {
      webpay.onCommit = (transaction) => ({
        status: 200,
        body: authorizedBody(transaction, { payment_type_code: 'VD' }),
      });
      const sale = await openPurchase(ctx, 'webpay');
      // Webpay does not annul part of a debit sale.
      webpay.onRefund = () => ({
        status: 422,
        body: { error_message: 'Transaction type not allowed for partial refund' },
      });
      const confirmed = await confirm(ctx, sale.token, tripDates(5));
      expect(confirmed.status, confirmed.text).toBe(200);
      const difference = -confirmed.json<Result>().differenceClp;
      const refundCalls = () => webpay.callsFor(sale.webpayToken, 'refund');
      for (let round = 0; round < 30 && refundCalls().length < 1; round += 1) {
        await ctx.app.sweepPayments();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(refundCalls()).toHaveLength(1);
      expect(refundCalls()[0]).toMatchObject({ body: { amount: difference }, answered: 422 });
      // The fake answered; the attempt's outcome is written right after.
      await expect
        .poll(async () => (await refundsOf(ctx, sale.idVenta))[0]?.lastError, { timeout: 5_000 })
        .toBeTruthy();
      const [failed] = await refundsOf(ctx, sale.idVenta);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, amountClp: difference });
      expect(failed?.lastError).toBeTruthy();
      // What «Mi compra» shows for it: in process, and the gateway refused it (the page: returned by transfer).
      expect((await mine(ctx, sale.token)).dateChanges[0]).toMatchObject({
        refund: 'reembolso en proceso',
        refundRefused: true,
      });
      // Backed off: sweeps now call nobody.
      await Promise.all([ctx.app.sweepPayments(), ctx.app.sweepPayments()]);
      expect(refundCalls()).toHaveLength(1);

      // Due again (later): retried once, however many sweeps race for it; still refused, still pending.
      const due = () =>
        ctx.database.db
          .update(saleRefunds)
          .set({ nextAttemptAt: sql`now()` })
          .where(eq(saleRefunds.saleId, sale.idVenta));
      await due();
      await Promise.all([ctx.app.sweepPayments(), ctx.app.sweepPayments(), ctx.app.sweepPayments()]);
      expect(refundCalls()).toHaveLength(2);
      expect((await refundsOf(ctx, sale.idVenta))[0]).toMatchObject({ status: 'pending', attempts: 2 });

      // Once given back (the operator's transfer recorded, or the gateway accepting): never asked again.
      webpay.onRefund = () => ({ status: 200, body: { type: 'NULLIFIED', response_code: 0 } });
      await due();
      await ctx.app.sweepPayments();
      await expect
        .poll(async () => (await refundsOf(ctx, sale.idVenta)).map((r) => r.status), { timeout: 5_000 })
        .toStrictEqual(['refunded']);
      await due();
      await ctx.app.sweepPayments();
      expect(refundCalls()).toHaveLength(3);
      expect((await mine(ctx, sale.token)).dateChanges[0]).toMatchObject({
        refund: 'reembolsado',
        refundRefused: false,
      });
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
