import { priceTrip } from '@travesia/domain/pricing';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { paidPurchase } from '#app/modules/certificates/service.ts';
import type { PlanPrices } from '#app/modules/plans/prices.ts';
import { asOperator, enrolledOperator, TestClock } from './support/backoffice.ts';
import {
  decideOnSandbox,
  followReturn,
  paymentResult,
  readyToPay,
  referencePlanId,
  startPayment,
} from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { tripDates } from './support/trips.ts';

/**
 * Issue 25's property: whatever price table is published (length bands and trip lengths included), the price the
 * comparator shows, the price the payment charges and the price the paid purchase records (what the certificates module reads for «Mi compra» and its
 * receipt) are the same, in USD and in CLP, with and without the covid upgrade.
 */

/** The draft and live body of the kind `prices`, as the console's API sends and takes it. */
type Prices = PlanPrices;

const clock = new TestClock();

describeOnEachDatabase(
  'Published prices agree from the comparator to the payment and the purchase (property)',
  (ctx) => {
    it('for random price tables: comparator = payment = purchase record', async () => {
      const operator = await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], clock);
      const item = (await asOperator(ctx, operator, 'GET', `/api/backoffice/prices/${referencePlanId}`)).json<{
        live: Prices;
      }>();
      let version = 0;
      const table = fc.record({
        // The reference trip is to Europe (3) with both bands 1 and 2; other regions keep their rates.
        adult: fc.integer({ min: 1, max: 20_000 }),
        senior: fc.integer({ min: 1, max: 30_000 }),
        promotionBp: fc.integer({ min: 0, max: 9_000 }),
        covidFee: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: null }),
        upgradeCovid: fc.boolean(),
        // A length band for the adults from that many days on (none: one price for every length), and the trip's.
        band: fc.option(
          fc.record({ fromDays: fc.integer({ min: 2, max: 30 }), rate: fc.integer({ min: 1, max: 20_000 }) }),
          {
            nil: null,
          },
        ),
        days: fc.integer({ min: 3, max: 30 }),
      });
      await fc.assert(
        fc.asyncProperty(table, async ({ adult, senior, promotionBp, covidFee, upgradeCovid, band, days }) => {
          const body: Prices = {
            promotionBp,
            covidFeeCentsPerDay: covidFee,
            rates: [
              ...item.live.rates.map((rate) =>
                rate.destinationId !== 3
                  ? rate
                  : {
                      ...rate,
                      rateCents:
                        rate.passengerTypeId === 1 ? adult : rate.passengerTypeId === 2 ? senior : rate.rateCents,
                    },
              ),
              ...(band ? [{ destinationId: 3, passengerTypeId: 1, minDays: band.fromDays, rateCents: band.rate }] : []),
            ],
          };
          const saved = await asOperator(ctx, operator, 'PUT', `/api/backoffice/prices/${referencePlanId}/draft`, {
            body,
            baseVersion: version,
          });
          expect(saved.status, saved.text).toBe(200);
          const published = await asOperator(
            ctx,
            operator,
            'POST',
            `/api/backoffice/prices/${referencePlanId}/publish`,
            {
              baseVersion: saved.json<{ version: number }>().version,
            },
          );
          expect(published.status, published.text).toBe(200);
          version = published.json<{ version: number }>().version;

          const quotationId = await readyToPay(ctx, { quotation: { upgradeCovid, ...tripDates(days) } });
          const comparator = await ctx.app.inject({
            method: 'GET',
            url: `/api/1/plans-comparador?quotationId=${quotationId}`,
          });
          const shown = comparator
            .json<{ id: number; totalAmount: number; montoConversion: number }[]>()
            .find((plan) => plan.id === referencePlanId);
          expect(shown).toBeDefined();
          const payment = await startPayment(ctx, quotationId);
          await followReturn(ctx, await decideOnSandbox(ctx, payment.redirectUrl, 'approve'));
          const result = await paymentResult(ctx, payment);
          expect(result.resultTransaction).toBe('AUTHORIZED');
          const { sale, bought } = await paidPurchase(ctx.app.db, payment.idVenta);
          const shownCents = Math.round((shown?.totalAmount ?? 0) * 100);
          // The comparator took the adults' rate of the trip's length band: two adults and a senior, every day.
          const adultRate = band && days >= band.fromDays ? band.rate : adult;
          const expected = priceTrip({
            days,
            rating: 'daily',
            passengers: [
              { passengerTypeId: 1, quantity: 2, rateCents: adultRate },
              { passengerTypeId: 2, quantity: 1, rateCents: senior },
            ],
            promotionBp,
            discountCodeBp: 0,
            covidFeeCentsPerDay: upgradeCovid ? covidFee : null,
            taxBp: null,
            clpPerUsd: '1',
          });
          expect(shownCents).toBe(expected.totalCents);
          expect({
            paymentClp: result.amountClp,
            paymentUsdCents: Math.round(result.amountUsd * 100),
            saleClp: sale.amountClp,
            saleUsdCents: sale.amountUsdCents,
            purchaseClp: bought.price.totalClp,
            purchaseUsdCents: bought.price.totalUsdCents,
          }).toStrictEqual({
            paymentClp: shown?.montoConversion,
            paymentUsdCents: shownCents,
            saleClp: shown?.montoConversion,
            saleUsdCents: shownCents,
            purchaseClp: shown?.montoConversion,
            purchaseUsdCents: shownCents,
          });
        }),
        { numRuns: 6 },
      );
    });
  },
  {},
  { now: clock.now },
);
