import { addDays } from '@travesia/domain/dates';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { payments, quotations, sales } from '#app/db/schema.ts';
import {
  decideOnSandbox,
  drainJobsAfterAll,
  followReturn,
  givenConsents,
  passengersBody,
  postPayment,
  pricedClp,
  putPassengers,
  readyToPay,
  referencePlanId,
  startPayment,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import {
  inDays,
  passengersParam,
  putQuotation,
  quotationBody,
  readQuotation,
  searchPlans,
  tripDates,
  twoAdultsOneSenior,
} from './support/trips.ts';

/**
 * Issue 7.1: the trip that was paid is a fact no later write changes. The buyer's browser returns from the gateway
 * while the same quotation is rewritten (a trip 18 times longer on the dearest plan) and its travellers replaced,
 * all at once; on PostgreSQL these requests really run in parallel on the pool. Whatever the interleaving, a paid
 * sale's certificate states exactly what was priced for the amount the gateway authorized, and a paid quotation
 * never becomes editable again.
 */
const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

const rounds = 12;
/** The window between reading a quotation and opening its attempt is short: many rounds to hit it. */
const startRounds = 40;
const chileanDate = (iso: string) => iso.split('-').reverse().join('-');

/** The dearest plan sold for the rewritten trip (departure as quoted, 180 days long). */
async function dearestPlanFor(ctx: TestContext, departureDate: string, returnDate: string) {
  const answer = await searchPlans(ctx, {
    origin: 1,
    destination: 3,
    modality: 1,
    departureDate,
    returnDate,
    passengers: passengersParam(twoAdultsOneSenior),
  });
  expect(answer.status, answer.text).toBe(200);
  const plans = answer.json<{ id: number; totalAmount: number }[]>();
  const dearest = plans.reduce((best, plan) => (plan.totalAmount > best.totalAmount ? plan : best));
  expect(dearest.id).not.toBe(referencePlanId);
  return dearest.id;
}

async function certificateTextOf(ctx: TestContext, sale: { idVenta: number; accessToken: string }) {
  const link = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${sale.accessToken}`);
  expect(link.status, link.text).toBe(200);
  const response = await ctx.app.inject({ method: 'GET', url: link.json<{ message: string }>().message });
  expect(response.statusCode).toBe(200);
  return pdfText(response.rawPayload);
}

describeOnEachDatabase(
  'The paid trip is frozen',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it(`returns from the gateway racing quotation rewrites and new travellers (${rounds} rounds): every paid sale's certificate is what was paid for`, async () => {
      const original = tripDates(10);
      const longReturn = addDays(original.departureDate, 179);
      const dearPlan = await dearestPlanFor(ctx, original.departureDate, longReturn);
      const outcomes = { paid: 0, voided: 0 };

      for (let round = 0; round < rounds; round += 1) {
        const quotationId = await readyToPay(ctx);
        const payment = await startPayment(ctx, quotationId);
        const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 3);
        const rewrite = () =>
          putQuotation(ctx, quotationId, quotationBody({ returnDate: longReturn, planId: dearPlan }));
        const renamed = passengersBody();
        for (const person of renamed.passangers) person.lastName = `Cambiado${round}`;
        // The return (twice, as a browser retrying would) and the writes, all at once; the order varies per round.
        const racers = [
          () => followReturn(ctx, back),
          rewrite,
          () => putPassengers(ctx, quotationId, renamed),
          rewrite,
          () => followReturn(ctx, back),
          rewrite,
        ];
        const shift = round % racers.length;
        const answers = await Promise.all([...racers.slice(shift), ...racers.slice(0, shift)].map((run) => run()));
        for (const answer of answers) {
          if (typeof answer === 'string') continue;
          // Writes either went through (before the claim) or were refused in words: never a 5xx.
          expect([200, 204, 400], answer.text).toContain(answer.status);
        }

        const [sale] = await ctx.database.db.select().from(sales).where(eq(sales.quotationId, quotationId));
        const [authorized] = await ctx.database.db
          .select()
          .from(payments)
          .where(and(eq(payments.saleId, payment.idVenta), eq(payments.status, 'authorized')));
        const quotation = await readQuotation(ctx, quotationId);
        if (!authorized) {
          // The change came first: the attempt was voided, nothing was paid, and the visitor can pay the new trip.
          expect(sale?.status).toBe('pending');
          expect(quotation.status).not.toBe('paid');
          outcomes.voided += 1;
          continue;
        }
        outcomes.paid += 1;
        expect(sale?.status).toBe('paid');
        const bought = sale?.purchase;
        if (!bought) throw new Error('a paid sale without its purchase');
        // The amount the gateway authorized is the price of the trip the certificate states.
        expect(authorized.amountClp).toBe(sale.amountClp);
        expect(bought.price.totalClp).toBe(authorized.amountClp);
        expect(bought.plan.id).toBe(sale.productId);
        expect(bought.trip.returnDate).toBe(original.returnDate);
        const text = await certificateTextOf(ctx, { idVenta: sale.id, accessToken: payment.accessToken });
        expect(text).toContain(`${chileanDate(bought.trip.departureDate)} al ${chileanDate(bought.trip.returnDate)}`);
        expect(text).not.toContain(chileanDate(longReturn));
        for (const person of bought.travellers) expect(text).toContain(`${person.firstName} ${person.lastName}`);
        // And the quotation says the same, paid for ever: a later rewrite is refused and changes nothing.
        expect(quotation).toMatchObject({ status: 'paid', returnDate: original.returnDate, planId: referencePlanId });
        const late = await rewrite();
        expect(late.status, late.text).toBe(400);
        const [row] = await ctx.database.db.select().from(quotations).where(eq(quotations.id, quotationId));
        // Stored, the quotation keeps how far the visitor got; «paid» is the sale's alone (decision 010).
        expect(row).toMatchObject({ status: 'payment-started', returnDate: original.returnDate });
      }
      // Both orders happen over the rounds on a pool; on PGlite requests interleave at every await as well.
      expect(outcomes.paid + outcomes.voided).toBe(rounds);
    });

    it(`payment starts racing changes of the trip and travellers (${startRounds} rounds): an attempt left open always prices and names exactly what the quotation holds`, async () => {
      for (let round = 0; round < startRounds; round += 1) {
        const quotationId = await readyToPay(ctx);
        const renamed = passengersBody();
        for (const person of renamed.passangers) person.firstName = `Otro${round}`;
        const racers = [
          () => postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents }),
          () => putPassengers(ctx, quotationId, renamed),
          () => postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents }),
          () => putPassengers(ctx, quotationId, renamed),
          () => postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents }),
          () => putQuotation(ctx, quotationId, quotationBody({ planId: referencePlanId, returnDate: inDays(25) })),
        ];
        const shift = round % racers.length;
        const answers = await Promise.all([...racers.slice(shift), ...racers.slice(0, shift)].map((run) => run()));
        for (const answer of answers) expect([200, 201, 204, 400], answer.text).toContain(answer.status);

        const [sale] = await ctx.database.db.select().from(sales).where(eq(sales.quotationId, quotationId));
        if (!sale) continue;
        const open = await ctx.database.db
          .select()
          .from(payments)
          .where(and(eq(payments.saleId, sale.id), eq(payments.status, 'pending')));
        expect(open.length).toBeLessThanOrEqual(1);
        const [attempt] = open;
        if (!attempt?.purchase) continue;
        // What the open attempt would pay for is what the quotation says now: trip, price and travellers.
        const quotation = await readQuotation(ctx, quotationId);
        expect(attempt.purchase.trip.returnDate).toBe(quotation.returnDate);
        expect(attempt.purchase.price.totalClp).toBe(await pricedClp(ctx, quotationId));
        expect(attempt.amountClp).toBe(attempt.purchase.price.totalClp);
        const saved = await get(ctx.app, `/api/quotations/${quotationId}/passangers`);
        const names = saved.json<{ passangers: { firstName: string }[] }>().passangers.map((p) => p.firstName);
        expect(attempt.purchase.travellers.map((p) => p.firstName)).toStrictEqual(names);
      }
    });
  },
  env,
);
