import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { addOns } from '#app/db/schema.ts';
import { demoPlans } from '#app/db/seed/demo-plans.ts';
import type { ComparatorPlan, ListingPlan, PreviewPlan } from '#app/modules/plans/schemas.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { anyRequestId, expectBadRequest, expectError, get } from './support/http.ts';
import {
  annualDates,
  createQuotation,
  inDays,
  insertDiscountCode,
  listing,
  planOf,
  putQuotation,
  quotationBody,
  type SearchParams,
  searchParams,
  searchPlans,
  tripDates,
} from './support/trips.ts';

/*
 * Expected prices are worked out by hand from the seed (apps/api/src/db/seed/demo-plans.ts) and the pricing model
 * (packages/domain/src/pricing.ts). Rates are cents per passenger per day: base × region factor × band factor, where
 * Europe (destination 3) has factor 1 and band 2 (75–84) factor 2. Exchange rate 948.53 CLP per USD.
 *
 *   plan                 Europe band 1 / band 2   promotion   covid fee/day   tax    medical limit
 *   410 Esencial         250 / 500                15 %        90              –       30 000
 *   411 Plus             380 / 760                15 %        110             –       60 000  (best seller)
 *   412 Premium          620 / 1240               20 %        130             –      250 000
 *   413 Senior           band 2 900, band 3 1350  10 %        150             –       60 000  (bands 2 and 3 only)
 *   414 Anual            flat: SA 19 920, world 33 615 (band 1 only, modality 2 only)  10 %, no covid   150 000
 *   418 Protección Esp.  480 / 960                 0 %        none            19 %   100 000
 *
 * The reference trip: 2 adults (band 1) + 1 senior (band 2) to Europe for 10 days (departure + 9).
 */

const unknownId = '7d8f3a52-1c4b-4e8a-9f0e-2b6c1d3e4f50';

/** The numbers a client shows for one plan of the listing. */
type ListingNumbers = Pick<
  ListingPlan,
  | 'valorPlan'
  | 'discount'
  | 'montoDescuento'
  | 'montoNeto'
  | 'montoCovid'
  | 'tax'
  | 'montoTax'
  | 'totalAmount'
  | 'valorDia'
  | 'dias'
  | 'montoConversion'
>;

const numbersOf = (plan: ListingPlan): ListingNumbers => ({
  valorPlan: plan.valorPlan,
  discount: plan.discount,
  montoDescuento: plan.montoDescuento,
  montoNeto: plan.montoNeto,
  montoCovid: plan.montoCovid,
  tax: plan.tax,
  montoTax: plan.montoTax,
  totalAmount: plan.totalAmount,
  valorDia: plan.valorDia,
  dias: plan.dias,
  montoConversion: plan.montoConversion,
});

/** The reference trip without code nor covid upgrade, by hand. */
const referencePrices: Record<number, ListingNumbers> = {
  // 2 × 250 × 10 + 1 × 500 × 10 = 10 000 ¢ = 100.00; 15 % = 15.00; net 85.00; 85.00 / 10 = 8.50/day;
  // 85.00 × 948.53 = 80 625.05 → 80 625
  410: {
    valorPlan: 100,
    discount: 15,
    montoDescuento: 15,
    montoNeto: 85,
    montoCovid: 0,
    tax: 1,
    montoTax: 0,
    totalAmount: 85,
    valorDia: 8.5,
    dias: 10,
    montoConversion: 80_625,
  },
  // 2 × 380 × 10 + 760 × 10 = 15 200 ¢ = 152.00; 15 % = 22.80; net 129.20; 12.92/day;
  // 129.20 × 948.53 = 122 550.076 → 122 550
  411: {
    valorPlan: 152,
    discount: 15,
    montoDescuento: 22.8,
    montoNeto: 129.2,
    montoCovid: 0,
    tax: 1,
    montoTax: 0,
    totalAmount: 129.2,
    valorDia: 12.92,
    dias: 10,
    montoConversion: 122_550,
  },
  // 2 × 620 × 10 + 1240 × 10 = 24 800 ¢ = 248.00; 20 % = 49.60; net 198.40; 19.84/day;
  // 198.40 × 948.53 = 188 188.352 → 188 188
  412: {
    valorPlan: 248,
    discount: 20,
    montoDescuento: 49.6,
    montoNeto: 198.4,
    montoCovid: 0,
    tax: 1,
    montoTax: 0,
    totalAmount: 198.4,
    valorDia: 19.84,
    dias: 10,
    montoConversion: 188_188,
  },
  // 2 × 480 × 10 + 960 × 10 = 19 200 ¢ = 192.00; no promotion; tax 19 % × 192.00 = 36.48; total 228.48;
  // 228.48 / 10 = 22.848 → 22.85/day; 228.48 × 948.53 = 216 720.1344 → 216 720
  418: {
    valorPlan: 192,
    discount: 0,
    montoDescuento: 0,
    montoNeto: 192,
    montoCovid: 0,
    tax: 1.19,
    montoTax: 36.48,
    totalAmount: 228.48,
    valorDia: 22.85,
    dias: 10,
    montoConversion: 216_720,
  },
};

const seedBenefits = (planId: number) =>
  (demoPlans.find((p) => p.id === planId)?.benefits ?? []).map((b) => ({
    id: expect.any(Number),
    label: b.label,
    value: b.value,
    isPriority: b.isPriority,
  }));

const noCode = { code: null, status: 'none', message: null };

describeOnEachDatabase('plan search: which plans fit and what they cost', (ctx) => {
  it('2 adults + 1 senior to Europe on a single trip: Esencial, Plus, Premium and Protección Especial, in order', async () => {
    const plans = await listing(ctx);
    // 413 Senior is not sold to band 1; 414 Anual is annual only.
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 418]);
  });

  it('prices Esencial by hand: 100.00 − 15 % = 85.00, 8.50 a day, $80.625, with every field a client reads', async () => {
    const esencial = planOf(await listing(ctx), 410);
    expect(esencial).toStrictEqual({
      id: 410,
      label: 'Travesía Esencial',
      bestOption: null,
      image: { original: '/img/plans/esencial.svg', small: '/img/plans/esencial.svg' },
      enableTax: false,
      isCovidupgrade: false,
      covidUpgradeAvailable: true,
      ...referencePrices[410],
      valorTipoCambio: 948.53,
      mejorPlan: false,
      mejorCobertura: false,
      coberturaMedica: 30_000,
      // Issue 25 («Planes») and issue 27 §2: the seed's «para quién» line and why it carries no IVA; no conditions PDF.
      paraQuien: 'Para viajes cortos con lo esencial: cobertura médica de USD 30.000.',
      porQueIva:
        'Sin IVA: sus coberturas se prestan durante el viaje fuera de Chile, y ese servicio no está afecto a IVA.',
      condicionesGenerales: null,
      benefits: seedBenefits(410),
      discountCode: noCode,
      formatted: { totalAmount: 'USD 85,00', before: 'USD 100,00', perDay: 'USD 8,50', montoConversion: '$80.625' },
      passengerCount: 3,
      // $80.625 / 6 = 13 437.5 → 13 438, rounded up so 6 instalments cover the total
      instalments: { count: 6, amountClp: 13_438, formatted: '$13.438' },
      // 85.00 / (10 days × 3 travellers) = 2.833… → 2.83, an average of two age bands
      perPassengerPerDay: { amountUsd: 2.83, formatted: 'USD 2,83', averaged: true },
      // Issue 27 §1: the add-ons offered with the plan, priced in add-on-offer.test.ts.
      adicionales: expect.arrayContaining([expect.objectContaining({ code: 'deportes-aventura' })]),
      // one adult: 25.00 − 15 % = 21.25 → 20 156.26 → $20.156; one senior: 50.00 − 15 % = 42.50 → 40 312.525 → $40.313
      perPassenger: [
        {
          passengerTypeId: 1,
          quantity: 2,
          amountClp: 20_156,
          formatted: '$20.156',
          amountUsd: 21.25,
          formattedUsd: 'USD 21,25',
        },
        {
          passengerTypeId: 2,
          quantity: 1,
          amountClp: 40_313,
          formatted: '$40.313',
          amountUsd: 42.5,
          formattedUsd: 'USD 42,50',
        },
      ],
    });
  });

  it('one age band: the price per traveller per day is exact, not an average; instalments of an exact sixth', async () => {
    // 2 adults to Europe for 10 days on Esencial: 2 × 25.00 − 15 % = 42.50; 42.50 / 20 = 2.125 → 2.13 (half up)
    const esencial = planOf(await listing(ctx, searchParams({ passengers: '1:2' })), 410);
    expect(esencial.perPassengerPerDay).toStrictEqual({ amountUsd: 2.13, formatted: 'USD 2,13', averaged: false });
    // 42.50 × 948.53 = 40 312.525 → $40.313; / 6 = 6 718.83 → 6 719
    expect(esencial.montoConversion).toBe(40_313);
    expect(esencial.instalments).toStrictEqual({ count: 6, amountClp: 6719, formatted: '$6.719' });
  });

  it.each([411, 412, 418])('prices plan %i by hand for the reference trip', async (id) => {
    expect(numbersOf(planOf(await listing(ctx), id))).toStrictEqual(referencePrices[id]);
  });

  it('formats the prices es-CL style: USD with a decimal comma, CLP with thousands dots', async () => {
    const plans = await listing(ctx);
    expect(plans.map((p) => [p.id, p.formatted])).toStrictEqual([
      [410, { totalAmount: 'USD 85,00', before: 'USD 100,00', perDay: 'USD 8,50', montoConversion: '$80.625' }],
      [411, { totalAmount: 'USD 129,20', before: 'USD 152,00', perDay: 'USD 12,92', montoConversion: '$122.550' }],
      [412, { totalAmount: 'USD 198,40', before: 'USD 248,00', perDay: 'USD 19,84', montoConversion: '$188.188' }],
      [418, { totalAmount: 'USD 228,48', before: 'USD 192,00', perDay: 'USD 22,85', montoConversion: '$216.720' }],
    ]);
  });

  it('Protección Especial (418) charges tax 1.19: montoTax is 19 % of the net and part of the total', async () => {
    const special = planOf(await listing(ctx), 418);
    expect(special.enableTax).toBe(true);
    expect(special.tax).toBe(1.19);
    // 19 % × 192.00 = 36.48; 192.00 + 36.48 = 228.48
    expect(special.montoTax).toBe(36.48);
    expect(special.totalAmount).toBe(228.48);
    for (const id of [410, 411, 412]) {
      expect(planOf(await listing(ctx), id)).toMatchObject({ enableTax: false, tax: 1, montoTax: 0 });
    }
  });

  it('mejorPlan marks Plus (411) only; mejorCobertura marks Premium (412, USD 250 000) only', async () => {
    const plans = await listing(ctx);
    expect(plans.filter((p) => p.mejorPlan).map((p) => p.id)).toStrictEqual([411]);
    expect(plans.filter((p) => p.mejorCobertura).map((p) => p.id)).toStrictEqual([412]);
    expect(planOf(plans, 412).coberturaMedica).toBe(250_000);
  });

  it('passengers of bands 2 and 3 only (75–84, 85+): Senior (413) is the only plan, and the best coverage', async () => {
    const plans = await listing(ctx, searchParams({ passengers: '2:1,3:1', ...tripDates(5) }));
    expect(plans.map((p) => p.id)).toStrictEqual([413]);
    const senior = planOf(plans, 413);
    // 1 × 900 × 5 + 1 × 1350 × 5 = 11 250 ¢ = 112.50; 10 % = 11.25; net 101.25; 101.25 / 5 = 20.25/day;
    // 101.25 × 948.53 = 96 038.6625 → 96 039
    expect(numbersOf(senior)).toStrictEqual({
      valorPlan: 112.5,
      discount: 10,
      montoDescuento: 11.25,
      montoNeto: 101.25,
      montoCovid: 0,
      tax: 1,
      montoTax: 0,
      totalAmount: 101.25,
      valorDia: 20.25,
      dias: 5,
      montoConversion: 96_039,
    });
    expect(senior.mejorCobertura).toBe(true);
    expect(senior.mejorPlan).toBe(false);
  });

  it('only band-2 seniors (no adult of band 1): Senior (413) is offered beside the general plans', async () => {
    const plans = await listing(ctx, searchParams({ passengers: '2:2' }));
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 413, 418]);
    // 2 × 900 × 10 = 18 000 ¢ = 180.00; 10 % = 18.00; net 162.00; 162.00 × 948.53 = 153 661.86 → 153 662
    expect(planOf(plans, 413)).toMatchObject({
      valorPlan: 180,
      montoDescuento: 18,
      totalAmount: 162,
      valorDia: 16.2,
      montoConversion: 153_662,
    });
    expect(plans.filter((p) => p.mejorCobertura).map((p) => p.id)).toStrictEqual([412]);
  });

  it('one adult of band 1 among seniors excludes Senior (413)', async () => {
    const plans = await listing(ctx, searchParams({ passengers: '1:1,2:3' }));
    expect(plans.map((p) => p.id)).not.toContain(413);
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 418]);
  });

  it('a passenger of 85+ (band 3) with an adult: no plan fits, an empty list (not an error)', async () => {
    expect(await listing(ctx, searchParams({ passengers: '1:1,3:1' }))).toStrictEqual([]);
  });

  it('annual (modality 2) to South America, 2 adults: only Anual (414), a flat price for the year', async () => {
    const plans = await listing(
      ctx,
      searchParams({ modality: 2, destination: 1, passengers: '1:2', ...annualDates() }),
    );
    expect(plans.map((p) => p.id)).toStrictEqual([414]);
    // Flat: 2 × 19 920 = 39 840 ¢ = 398.40 (not × 365 days); 10 % = 39.84; net 358.56; 365 days;
    // 358.56 / 365 = 0.98235… → 0.98/day; 358.56 × 948.53 = 340 104.9168 → 340 105
    expect(numbersOf(planOf(plans, 414))).toStrictEqual({
      valorPlan: 398.4,
      discount: 10,
      montoDescuento: 39.84,
      montoNeto: 358.56,
      montoCovid: 0,
      tax: 1,
      montoTax: 0,
      totalAmount: 358.56,
      valorDia: 0.98,
      dias: 365,
      montoConversion: 340_105,
    });
    expect(planOf(plans, 414)).toMatchObject({ mejorCobertura: true, covidUpgradeAvailable: false });
  });

  it('annual worldwide (destination 7), 1 adult: 336.15 − 10 % (33.615 → 33.62, half up) = 302.53', async () => {
    const plans = await listing(
      ctx,
      searchParams({ modality: 2, destination: 7, passengers: '1:1', ...annualDates(40) }),
    );
    // 33 615 ¢ flat; 10 % = 3 361.5 ¢ → 3 362; net 30 253 ¢; 302.53 × 948.53 = 286 958.7809 → 286 959
    expect(plans.map((p) => [p.id, p.valorPlan, p.montoDescuento, p.totalAmount, p.montoConversion])).toStrictEqual([
      [414, 336.15, 33.62, 302.53, 286_959],
    ]);
  });

  it('the annual price does not depend on the departure day', async () => {
    const early = await listing(
      ctx,
      searchParams({ modality: 2, destination: 1, passengers: '1:1', ...annualDates(1) }),
    );
    const late = await listing(
      ctx,
      searchParams({ modality: 2, destination: 1, passengers: '1:1', ...annualDates(200) }),
    );
    // 1 × 19 920 ¢ = 199.20 either way
    expect(early.map((p) => p.valorPlan)).toStrictEqual([199.2]);
    expect(late.map(numbersOf)).toStrictEqual(early.map(numbersOf));
  });

  it('annual with a passenger of band 2: Anual (414) is for band 1 only, so no plan fits', async () => {
    expect(
      await listing(ctx, searchParams({ modality: 2, destination: 1, passengers: '1:1,2:1', ...annualDates() })),
    ).toStrictEqual([]);
  });

  it('Anual (414) is never offered on a single trip, even to South America', async () => {
    const plans = await listing(ctx, searchParams({ destination: 1, passengers: '1:1' }));
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 418]);
  });

  it('long stay (modality 3), 61 days, 1 adult: Esencial, Plus and Premium; 15 % of 152.50 rounds half up', async () => {
    const plans = await listing(ctx, searchParams({ modality: 3, passengers: '1:1', ...tripDates(61) }));
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412]);
    // 250 × 61 = 15 250 ¢ = 152.50; 15 % = 2 287.5 ¢ → 2 288 = 22.88; net 129.62;
    // 12 962 / 61 = 212.49 ¢ → 2.12/day; 129.62 × 948.53 = 122 948.4586 → 122 948
    expect(numbersOf(planOf(plans, 410))).toStrictEqual({
      valorPlan: 152.5,
      discount: 15,
      montoDescuento: 22.88,
      montoNeto: 129.62,
      montoCovid: 0,
      tax: 1,
      montoTax: 0,
      totalAmount: 129.62,
      valorDia: 2.12,
      dias: 61,
      montoConversion: 122_948,
    });
    expect(plans.filter((p) => p.mejorCobertura).map((p) => p.id)).toStrictEqual([412]);
  });

  it('groups thousands in both currencies: 9 seniors worldwide for 180 days on Premium', async () => {
    const plans = await listing(ctx, searchParams({ destination: 7, passengers: '2:9', ...tripDates(180) }));
    // 9 × 1674 ¢ × 180 = 2 711 880 ¢ = 27 118.80; 20 % = 5 423.76; net 21 695.04; 2 169 504 / 180 = 12 052.8 ¢
    // → 120.53/day; 21 695.04 × 948.53 = 20 578 396.2912 → 20 578 396
    expect(planOf(plans, 412)).toMatchObject({
      valorPlan: 27_118.8,
      montoDescuento: 5_423.76,
      totalAmount: 21_695.04,
      valorDia: 120.53,
      montoConversion: 20_578_396,
      formatted: {
        totalAmount: 'USD 21.695,04',
        before: 'USD 27.118,80',
        perDay: 'USD 120,53',
        montoConversion: '$20.578.396',
      },
    });
  });

  it('a one-day trip (departure = return) lasts 1 day', async () => {
    const today = inDays(0);
    const plans = await listing(ctx, searchParams({ departureDate: today, returnDate: today, passengers: '1:1' }));
    // 250 × 1 = 2.50; 15 % = 0.375 → 0.38 (half up); net 2.12
    expect(planOf(plans, 410)).toMatchObject({ dias: 1, valorPlan: 2.5, montoDescuento: 0.38, totalAmount: 2.12 });
  });

  it('reloading the same search gives the same plans and prices', async () => {
    const first = await searchPlans(ctx, searchParams());
    const second = await searchPlans(ctx, searchParams());
    expect(second.status).toBe(200);
    expect(second.json()).toStrictEqual(first.json());
  });
});

describeOnEachDatabase('plan search: covid upgrade', (ctx) => {
  it('adds fee × passengers × days to the plans offering it, marked isCovidupgrade', async () => {
    const plans = await listing(ctx, searchParams({ upgradeCovid: 'true' }));
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 418]);
    // 410: 90 ¢ × 3 × 10 = 27.00; 85.00 + 27.00 = 112.00; 11.20/day; 112 × 948.53 = 106 235.36 → 106 235
    expect(planOf(plans, 410)).toMatchObject({
      isCovidupgrade: true,
      montoCovid: 27,
      montoNeto: 85,
      totalAmount: 112,
      valorDia: 11.2,
      montoConversion: 106_235,
      formatted: { totalAmount: 'USD 112,00', before: 'USD 100,00', perDay: 'USD 11,20', montoConversion: '$106.235' },
    });
    // 411: 110 ¢ × 3 × 10 = 33.00; 129.20 + 33.00 = 162.20; 162.20 × 948.53 = 153 851.566 → 153 852
    expect(planOf(plans, 411)).toMatchObject({
      isCovidupgrade: true,
      montoCovid: 33,
      totalAmount: 162.2,
      valorDia: 16.22,
      montoConversion: 153_852,
    });
    // 412: 130 ¢ × 3 × 10 = 39.00; 198.40 + 39.00 = 237.40; 237.40 × 948.53 = 225 181.022 → 225 181
    expect(planOf(plans, 412)).toMatchObject({
      isCovidupgrade: true,
      montoCovid: 39,
      totalAmount: 237.4,
      valorDia: 23.74,
      montoConversion: 225_181,
    });
  });

  it('Protección Especial (418) does not offer it: same price as without, isCovidupgrade false', async () => {
    const withUpgrade = planOf(await listing(ctx, searchParams({ upgradeCovid: 'true' })), 418);
    expect(withUpgrade).toMatchObject({ isCovidupgrade: false, covidUpgradeAvailable: false, montoCovid: 0 });
    expect(numbersOf(withUpgrade)).toStrictEqual(referencePrices[418]);
  });

  it('Anual (414) does not offer it: same price as without', async () => {
    const params = searchParams({ modality: 2, destination: 1, passengers: '1:2', ...annualDates() });
    const without = planOf(await listing(ctx, params), 414);
    const withUpgrade = planOf(await listing(ctx, { ...params, upgradeCovid: 'true' }), 414);
    expect(withUpgrade).toMatchObject({ isCovidupgrade: false, montoCovid: 0, totalAmount: 358.56 });
    expect(withUpgrade).toStrictEqual(without);
  });

  it('upgradeCovid=false (or absent) charges no covid fee anywhere, but says where it is available', async () => {
    for (const params of [searchParams({ upgradeCovid: 'false' }), searchParams()]) {
      const plans = await listing(ctx, params);
      expect(plans.map((p) => [p.id, p.isCovidupgrade, p.montoCovid, p.covidUpgradeAvailable])).toStrictEqual([
        [410, false, 0, true],
        [411, false, 0, true],
        [412, false, 0, true],
        [418, false, 0, false],
      ]);
      expect(plans.map(numbersOf)).toStrictEqual([410, 411, 412, 418].map((id) => referencePrices[id]));
    }
  });

  it('Senior (413) charges its own fee: 150 ¢ × 2 passengers × 5 days = 15.00', async () => {
    const plans = await listing(ctx, searchParams({ passengers: '2:1,3:1', upgradeCovid: 'true', ...tripDates(5) }));
    // 101.25 + 15.00 = 116.25
    expect(planOf(plans, 413)).toMatchObject({ isCovidupgrade: true, montoCovid: 15, totalAmount: 116.25 });
  });
});

describeOnEachDatabase('plan search: a taxed plan offering the covid upgrade', (ctx) => {
  beforeAll(async () => {
    // Not in the seed: give Protección Especial (taxed) a covid fee of 1.00 a day to see tax apply to it.
    await ctx.database.db
      .update(addOns)
      .set({ planPrices: sql`${addOns.planPrices} || '{"418": 100}'::jsonb` })
      .where(and(eq(addOns.companyId, 1), eq(addOns.code, 'covid')));
  });

  it('taxes the covid fee too: montoTax = 19 % of (net + covid)', async () => {
    const special = planOf(await listing(ctx, searchParams({ upgradeCovid: 'true' })), 418);
    // covid 100 ¢ × 3 × 10 = 30.00; tax 19 % × (192.00 + 30.00) = 42.18; total 192.00 + 30.00 + 42.18 = 264.18;
    // 26.418 → 26.42/day; 264.18 × 948.53 = 250 582.6554 → 250 583
    expect(numbersOf(special)).toStrictEqual({
      valorPlan: 192,
      discount: 0,
      montoDescuento: 0,
      montoNeto: 192,
      montoCovid: 30,
      tax: 1.19,
      montoTax: 42.18,
      totalAmount: 264.18,
      valorDia: 26.42,
      dias: 10,
      montoConversion: 250_583,
    });
    expect(special.isCovidupgrade).toBe(true);
  });
});

describeOnEachDatabase('plan search: discount codes', (ctx) => {
  beforeAll(async () => {
    // Validity relative to today (Chile), both ends inclusive.
    await insertDiscountCode(ctx, { code: 'PRUEBA20', percentBp: 2000, validFrom: inDays(-30), validTo: inDays(30) });
    await insertDiscountCode(ctx, { code: 'VENCIDO10', percentBp: 1000, validFrom: inDays(-30), validTo: inDays(-1) });
    await insertDiscountCode(ctx, { code: 'FUTURO10', percentBp: 1000, validFrom: inDays(1), validTo: inDays(60) });
    await insertDiscountCode(ctx, { code: 'ULTIMODIA5', percentBp: 500, validFrom: inDays(-10), validTo: inDays(0) });
    await insertDiscountCode(ctx, { code: 'PRIMERDIA5', percentBp: 500, validFrom: inDays(0), validTo: inDays(10) });
    await insertDiscountCode(ctx, { code: 'TODO90', percentBp: 9000, validFrom: inDays(-1), validTo: inDays(1) });
  });

  const withoutCodeOutcome = (plans: ListingPlan[]) => plans.map(({ discountCode: _, ...rest }) => rest);

  it('a valid code adds its percent to the promotion on every plan, discountCode.status applied', async () => {
    const plans = await listing(ctx, searchParams({ discountCode: 'PRUEBA20' }));
    expect(plans.map((p) => [p.id, p.discount])).toStrictEqual([
      [410, 35], // 15 % + 20 %
      [411, 35],
      [412, 40], // 20 % + 20 %
      [418, 20], // 0 % + 20 %
    ]);
    for (const plan of plans) {
      expect(plan.discountCode).toStrictEqual({
        code: 'PRUEBA20',
        status: 'applied',
        message: 'Código de descuento aplicado: 20 % adicional',
      });
    }
  });

  it('prices a valid code by hand: Esencial 100.00 − 35 % = 65.00, $61.654', async () => {
    const esencial = planOf(await listing(ctx, searchParams({ discountCode: 'PRUEBA20' })), 410);
    // 35 % × 100.00 = 35.00; net 65.00; 6.50/day; 65 × 948.53 = 61 654.45 → 61 654
    expect(numbersOf(esencial)).toStrictEqual({
      ...referencePrices[410],
      discount: 35,
      montoDescuento: 35,
      montoNeto: 65,
      totalAmount: 65,
      valorDia: 6.5,
      montoConversion: 61_654,
    });
    expect(esencial.formatted).toStrictEqual({
      totalAmount: 'USD 65,00',
      before: 'USD 100,00',
      perDay: 'USD 6,50',
      montoConversion: '$61.654',
    });
  });

  it('a valid code on the taxed plan is taken off before tax: 418 = (192.00 − 20 %) × 1.19', async () => {
    const special = planOf(await listing(ctx, searchParams({ discountCode: 'PRUEBA20' })), 418);
    // 20 % × 192.00 = 38.40; net 153.60; 19 % × 153.60 = 29.184 → 29.18; total 182.78; 18.278 → 18.28/day;
    // 182.78 × 948.53 = 173 372.3134 → 173 372
    expect(numbersOf(special)).toStrictEqual({
      ...referencePrices[418],
      discount: 20,
      montoDescuento: 38.4,
      montoNeto: 153.6,
      montoTax: 29.18,
      totalAmount: 182.78,
      valorDia: 18.28,
      montoConversion: 173_372,
    });
  });

  it('a code typed in lower case with spaces is applied (and answered upper-cased)', async () => {
    const plans = await listing(ctx, searchParams({ discountCode: ' prueba20 ' }));
    expect(planOf(plans, 410)).toMatchObject({ discount: 35, totalAmount: 65 });
    expect(planOf(plans, 410).discountCode).toMatchObject({ code: 'PRUEBA20', status: 'applied' });
  });

  /** What every code that does not apply today answers, whether it never existed, expired or starts later. */
  const notApplied = (code: string) => ({
    code,
    status: 'unknown',
    message: 'El código de descuento no es válido; te mostramos los precios sin él.',
  });

  it('an unknown code → status unknown with a Spanish message, prices as without a code (not an error)', async () => {
    const answer = await searchPlans(ctx, searchParams({ discountCode: 'NOEXISTE' }));
    expect(answer.status).toBe(200);
    const plans = answer.json<ListingPlan[]>();
    for (const plan of plans) expect(plan.discountCode).toStrictEqual(notApplied('NOEXISTE'));
    expect(withoutCodeOutcome(plans)).toStrictEqual(withoutCodeOutcome(await listing(ctx)));
    expect(planOf(plans, 410).totalAmount).toBe(85);
  });

  it('a code not valid yet (FUTURO10) answers exactly as an unknown one: a campaign to come is not told', async () => {
    const plans = await listing(ctx, searchParams({ discountCode: 'FUTURO10' }));
    for (const plan of plans) expect(plan.discountCode).toStrictEqual(notApplied('FUTURO10'));
    expect(withoutCodeOutcome(plans)).toStrictEqual(withoutCodeOutcome(await listing(ctx)));
    const unknown = await listing(ctx, searchParams({ discountCode: 'NOEXISTE' }));
    expect(plans.map((plan) => ({ ...plan, discountCode: { ...plan.discountCode, code: null } }))).toStrictEqual(
      unknown.map((plan) => ({ ...plan, discountCode: { ...plan.discountCode, code: null } })),
    );
  });

  it.each([
    ['VENCIDO10', 'expired yesterday'],
    // The seed's winter 2025 code, long over.
    ['INVIERNO2025', 'expired long ago'],
  ])('an expired code (%s, %s) is refused in words: «vencido», prices as without a code', async (code) => {
    const plans = await listing(ctx, searchParams({ discountCode: code }));
    for (const plan of plans)
      expect(plan.discountCode).toStrictEqual({
        code,
        status: 'refused',
        message: 'El código de descuento está vencido; te mostramos los precios sin él.',
      });
    expect(withoutCodeOutcome(plans)).toStrictEqual(withoutCodeOutcome(await listing(ctx)));
  });

  it.each(['ULTIMODIA5', 'PRIMERDIA5'])(
    'a code on the first or last day of its validity (%s) applies',
    async (code) => {
      const esencial = planOf(await listing(ctx, searchParams({ discountCode: code })), 410);
      // 15 % + 5 % = 20 % of 100.00; total 80.00
      expect(esencial).toMatchObject({ discount: 20, montoDescuento: 20, totalAmount: 80 });
      expect(esencial.discountCode.status).toBe('applied');
    },
  );

  it('promotion + code never take off more than 100 %: Premium 20 % + 90 % costs 0', async () => {
    const premium = planOf(await listing(ctx, searchParams({ discountCode: 'TODO90' })), 412);
    expect(premium).toMatchObject({
      discount: 100,
      montoDescuento: 248,
      montoNeto: 0,
      totalAmount: 0,
      valorDia: 0,
      montoConversion: 0,
      formatted: { totalAmount: 'USD 0,00', before: 'USD 248,00', perDay: 'USD 0,00', montoConversion: '$0' },
    });
  });

  it('an empty discountCode is no code at all: status none', async () => {
    const plans = await listing(ctx, searchParams({ discountCode: '' }));
    expect(planOf(plans, 410).discountCode).toStrictEqual(noCode);
    expect(plans.map(numbersOf)).toStrictEqual([410, 411, 412, 418].map((id) => referencePrices[id]));
  });
});

describeOnEachDatabase('plan search: invalid requests', (ctx) => {
  const url = '/api/1/plans';

  it.each(['origin', 'destination', 'modality', 'departureDate', 'returnDate', 'passengers'] as const)(
    "without %s → 400 The parameter '<name>' must be defined.",
    async (name) => {
      const params = searchParams();
      delete params[name];
      const answer = await searchPlans(ctx, params);
      const detail = parameterMustBeDefined(name);
      expect(detail).toBe(`The parameter '${name}' must be defined.`);
      expect(answer.status).toBe(400);
      expect(answer.json()).toStrictEqual({
        status: 400,
        detail,
        instance: url,
        errors: [{ field: name, code: 'required', message: detail }],
        requestId: anyRequestId,
      });
    },
  );

  it.each([
    ['a departure in the past', 'departureDate', () => ({ departureDate: inDays(-1), returnDate: inDays(5) })],
    ['a return before the departure', 'returnDate', () => ({ departureDate: inDays(10), returnDate: inDays(9) })],
    ['a date that does not exist (February 30)', 'departureDate', () => ({ departureDate: '2027-02-30' })],
    ['a date in another format', 'departureDate', () => ({ departureDate: '22-11-2026' })],
    ['a departure more than 365 days ahead', 'departureDate', () => ({ ...tripDates(5, 366) })],
    [
      'an annual trip returning other than departure + 364',
      'returnDate',
      () => ({ modality: 2, destination: 1, passengers: '1:1' }),
    ],
    ['a single trip over 180 days', 'returnDate', () => ({ ...tripDates(181) })],
  ])('%s → 400 Invalid input parameters naming %s', async (_what, field, change) => {
    const errors = expectBadRequest(
      await searchPlans(ctx, searchParams(change())),
      errorMessages.invalidInputParameters,
      url,
    );
    expect(errors.map((e) => e.field)).toContain(field);
  });

  it.each([
    ['abc', 'not type:quantity pairs'],
    ['1:0', 'nobody travelling'],
    ['1:5,2:5', '10 passengers (over 9)'],
    ['1:1,1:2', 'a repeated passenger type'],
    ['9:1', 'an unknown passenger type'],
  ])('passengers=%s (%s) → 400 Invalid input parameters naming passengers', async (passengers) => {
    const errors = expectBadRequest(
      await searchPlans(ctx, searchParams({ passengers })),
      errorMessages.invalidInputParameters,
      url,
    );
    expect(errors.map((e) => e.field)).toContain('passengers');
  });

  it.each([
    ['origin', { origin: 2 }],
    ['origin', { origin: 'chile' }],
    ['modality', { modality: 9 }],
    ['destination', { destination: 99 }],
    ['destination', { modality: 2, destination: 3, passengers: '1:1' }],
    ['upgradeCovid', { upgradeCovid: 'yes' }],
  ])('a bad %s → 400 Invalid input parameters naming it', async (field, change) => {
    const params = searchParams(change as SearchParams);
    if (params.modality === 2) Object.assign(params, annualDates());
    const errors = expectBadRequest(await searchPlans(ctx, params), errorMessages.invalidInputParameters, url);
    expect(errors.map((e) => e.field)).toContain(field);
  });

  it.each(['999', '0', 'abc'])('an unknown company (%s) → 404 Company not found', async (companyId) => {
    const answer = await searchPlans(ctx, searchParams(), companyId);
    expectError(answer, 404, errorMessages.companyNotFound, `/api/${companyId}/plans`);
  });
});

describeOnEachDatabase('plans of a quotation', (ctx) => {
  let id: string;

  beforeAll(async () => {
    await insertDiscountCode(ctx, { code: 'PRUEBA20', percentBp: 2000, validFrom: inDays(-30), validTo: inDays(30) });
    id = await createQuotation(ctx);
  });

  const comparator = async (quotationId: string) => {
    const answer = await get(ctx.app, `/api/1/plans-comparador?quotationId=${quotationId}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<ComparatorPlan[]>();
  };

  const preview = async (quotationId: string) => {
    const answer = await get(ctx.app, `/api/1/plans-quotation/${quotationId}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<PreviewPlan[]>();
  };

  it("plans-comparador prices the quotation's trip with the listing's numbers", async () => {
    const plans = await comparator(id);
    const listed = await listing(ctx);
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 418]);
    expect(
      plans.map((p) => ({
        id: p.id,
        amount: p.amount,
        valorDCTO: p.valorDCTO,
        valorCONDCTO: p.valorCONDCTO,
        tax: p.tax,
        montoTAX: p.montoTAX,
        totalAmount: p.totalAmount,
        valorDia: p.valorDia,
        dias: p.dias,
        montoConversion: p.montoConversion,
        tipoCambio: p.tipoCambio,
        mejorPlan: p.mejorPlan,
        mejorCobertura: p.mejorCobertura,
        montoTotalFormateado: p.montoTotalFormateado,
        montoAntesFormateado: p.montoAntesFormateado,
        valorDiaFormateado: p.valorDiaFormateado,
        montoConversionFormateado: p.montoConversionFormateado,
        discountCode: p.discountCode,
      })),
    ).toStrictEqual(
      listed.map((p) => ({
        id: p.id,
        amount: p.valorPlan,
        valorDCTO: p.montoDescuento,
        valorCONDCTO: p.montoNeto,
        tax: p.tax,
        montoTAX: p.montoTax,
        totalAmount: p.totalAmount,
        valorDia: p.valorDia,
        dias: p.dias,
        montoConversion: p.montoConversion,
        tipoCambio: p.valorTipoCambio,
        mejorPlan: p.mejorPlan,
        mejorCobertura: p.mejorCobertura,
        montoTotalFormateado: p.formatted.totalAmount,
        montoAntesFormateado: p.formatted.before,
        valorDiaFormateado: p.formatted.perDay,
        montoConversionFormateado: p.formatted.montoConversion,
        discountCode: p.discountCode,
      })),
    );
    // And by hand, Esencial: 100.00 − 15.00 = 85.00, $80.625
    expect(planOf(plans, 410)).toMatchObject({
      amount: 100,
      valorDCTO: 15,
      valorCONDCTO: 85,
      totalAmount: 85,
      valorDia: 8.5,
      montoConversion: 80_625,
      montoTotalFormateado: 'USD 85,00',
      montoConversionFormateado: '$80.625',
    });
  });

  it('plans-comparador and plans-quotation carry the instalment and the price per traveller per day', async () => {
    const expected = {
      passengerCount: 3,
      instalments: { count: 6, amountClp: 13_438, formatted: '$13.438' },
      perPassengerPerDay: { amountUsd: 2.83, formatted: 'USD 2,83', averaged: true },
    };
    expect(planOf(await comparator(id), 410)).toMatchObject(expected);
    expect(planOf(await preview(id), 410)).toMatchObject(expected);
  });

  it('plans-comparador describes the currencies and lists the benefits as prestaciones of the plan', async () => {
    const plans = await comparator(id);
    const esencial = planOf(plans, 410);
    expect(esencial.monedaOrigen).toStrictEqual({
      code: 'USD',
      id: 2,
      decimals: 2,
      separator: 1,
      symbol: 'USD ',
      culture: 'es-CL',
    });
    expect(esencial.monedaConvertida).toStrictEqual({
      code: 'CLP',
      id: 1,
      decimals: 0,
      separator: 1,
      symbol: '$',
      culture: 'es-CL',
    });
    expect(esencial.prestaciones).toStrictEqual(
      seedBenefits(410).map((b) => ({ idPlan: 410, detallePrestacion: b.label, limite: b.value })),
    );
    expect(plans.map((p) => [p.id, p.existeDescuentoAplicado])).toStrictEqual([
      [410, true],
      [411, true],
      [412, true],
      [418, false], // no promotion, no code
    ]);
  });

  it('reloading plans-comparador gives the same prices', async () => {
    expect(await comparator(id)).toStrictEqual(await comparator(id));
  });

  it('a quotation created with a code and the covid upgrade is priced with both in plans-comparador', async () => {
    const withBoth = await createQuotation(ctx, { discountCode: 'prueba20', upgradeCovid: true });
    const plans = await comparator(withBoth);
    // Esencial: 35 % of 100.00 = 35.00; net 65.00; covid 90 ¢ × 3 × 10 = 27.00; total 92.00; 9.20/day;
    // 92 × 948.53 = 87 264.76 → 87 265
    expect(planOf(plans, 410)).toMatchObject({
      amount: 100,
      valorDCTO: 35,
      valorCONDCTO: 65,
      totalAmount: 92,
      valorDia: 9.2,
      montoConversion: 87_265,
      existeDescuentoAplicado: true,
      discountCode: { code: 'PRUEBA20', status: 'applied', message: 'Código de descuento aplicado: 20 % adicional' },
    });
    // 418 gets the code (20 % of 192.00 = 38.40, net 153.60, tax 29.18) but no covid: 182.78
    expect(planOf(plans, 418)).toMatchObject({ valorDCTO: 38.4, montoTAX: 29.18, totalAmount: 182.78 });
    // The same trip searched with the same code and upgrade prices the same.
    const listed = await listing(ctx, searchParams({ discountCode: 'PRUEBA20', upgradeCovid: 'true' }));
    expect(plans.map((p) => [p.id, p.totalAmount, p.montoConversion])).toStrictEqual(
      listed.map((p) => [p.id, p.totalAmount, p.montoConversion]),
    );
  });

  it('a quotation with an unknown code is priced as without it, status unknown', async () => {
    const unknownCode = await createQuotation(ctx, { discountCode: 'NOEXISTE' });
    const plans = await comparator(unknownCode);
    expect(planOf(plans, 410)).toMatchObject({
      totalAmount: 85,
      discountCode: { code: 'NOEXISTE', status: 'unknown' },
    });
  });

  it('after a PUT, plans-comparador prices the new trip', async () => {
    const changing = await createQuotation(ctx);
    expect(planOf(await comparator(changing), 410).totalAmount).toBe(85);
    const put = await putQuotation(
      ctx,
      changing,
      quotationBody({ passangerTypes: [{ passengerTypeId: 2, quantity: 2 }] }),
    );
    expect(put.status).toBe(200);
    const plans = await comparator(changing);
    expect(plans.map((p) => p.id)).toStrictEqual([410, 411, 412, 413, 418]);
    // Esencial for 2 seniors: 2 × 500 × 10 = 100.00; −15 % = 85.00 (same total, other passengers);
    // Senior: 2 × 900 × 10 = 180.00; −10 % = 162.00
    expect(planOf(plans, 410).amount).toBe(100);
    expect(planOf(plans, 413)).toMatchObject({ amount: 180, valorDCTO: 18, totalAmount: 162 });
  });

  it('plans-comparador: a malformed quotationId → 400 Invalid quotationId supplied', async () => {
    const answer = await get(ctx.app, '/api/1/plans-comparador?quotationId=abc');
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({
      detail: errorMessages.invalidPlanQuotationId,
      instance: '/api/1/plans-comparador',
    });
  });

  it("plans-comparador: no quotationId → 400 The parameter 'quotationId' must be defined.", async () => {
    const answer = await get(ctx.app, '/api/1/plans-comparador');
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ detail: parameterMustBeDefined('quotationId') });
  });

  it('plans-comparador: an unknown quotation → 404 Resource not found', async () => {
    expectError(
      await get(ctx.app, `/api/1/plans-comparador?quotationId=${unknownId}`),
      404,
      errorMessages.resourceNotFound,
      '/api/1/plans-comparador',
    );
  });

  it('GET /plans/{planId}?quotationId answers a list of that one plan, as the listing shows it', async () => {
    const answer = await get(ctx.app, `/api/1/plans/411?quotationId=${id}`);
    expect(answer.status).toBe(200);
    const plans = answer.json<ListingPlan[]>();
    expect(plans).toHaveLength(1);
    expect(plans).toStrictEqual([planOf(await listing(ctx), 411)]);
    expect(numbersOf(planOf(plans, 411))).toStrictEqual(referencePrices[411]);
  });

  it('GET /plans/{planId}: a plan not sold for the trip (413 Senior for adults, 414 Anual, 999) → 404', async () => {
    for (const planId of [413, 414, 999]) {
      const url = `/api/1/plans/${planId}`;
      expectError(await get(ctx.app, `${url}?quotationId=${id}`), 404, errorMessages.resourceNotFound, url);
    }
  });

  it('GET /plans/{planId}: a malformed, missing or unknown quotationId → 400, 400, 404', async () => {
    const url = '/api/1/plans/410';
    const malformed = await get(ctx.app, `${url}?quotationId=123`);
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ detail: errorMessages.invalidPlanQuotationId });
    const missing = await get(ctx.app, url);
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ detail: parameterMustBeDefined('quotationId') });
    expectError(await get(ctx.app, `${url}?quotationId=${unknownId}`), 404, errorMessages.resourceNotFound, url);
  });

  it('plans-quotation: every plan selected except 418, with the USD → CLP currency descriptors', async () => {
    const plans = await preview(id);
    expect(plans.map((p) => [p.id, p.selected])).toStrictEqual([
      [410, true],
      [411, true],
      [412, true],
      [418, false],
    ]);
    for (const plan of plans) {
      expect(plan).toMatchObject({
        siglaMonedaOrigen: 'USD',
        siglaMonedaConvertida: 'CLP',
        simboloMonedaOrigen: 'USD ',
        simboloMonedaConvertida: '$',
        cultureMonedaOrigen: 'es-CL',
        cultureMonedaConvertida: 'es-CL',
        nDecimalesMonedaOrigen: 2,
        nDecimalesMonedaConvertida: 0,
        puntoSeparadorMonedaOrigen: 1,
        puntoSeparadorMonedaConvertida: 1,
        tipoCambio: 948.53,
      });
    }
  });

  it("plans-quotation prices the quotation's trip with the listing's numbers", async () => {
    const plans = await preview(id);
    const listed = await listing(ctx);
    expect(
      plans.map((p) => [
        p.id,
        p.amount,
        p.valorDCTO,
        p.valorCONDCTO,
        p.tax,
        p.totalAmount,
        p.valorDia,
        p.montoConversion,
      ]),
    ).toStrictEqual(
      listed.map((p) => [
        p.id,
        p.valorPlan,
        p.montoDescuento,
        p.montoNeto,
        p.tax,
        p.totalAmount,
        p.valorDia,
        p.montoConversion,
      ]),
    );
    expect(planOf(plans, 418)).toMatchObject({ amount: 192, tax: 1.19, totalAmount: 228.48, montoConversion: 216_720 });
    expect(plans.filter((p) => p.mejorCobertura).map((p) => p.id)).toStrictEqual([412]);
    expect(plans.filter((p) => p.mejorPlan).map((p) => p.id)).toStrictEqual([411]);
  });

  it("plans-quotation marks the Senior plan with arrowColor '+' for a seniors' quotation", async () => {
    const seniors = await createQuotation(ctx, { passangerTypes: [{ passengerTypeId: 2, quantity: 1 }] });
    const plans = await preview(seniors);
    expect(plans.map((p) => [p.id, p.selected])).toStrictEqual([
      [410, true],
      [411, true],
      [412, true],
      [413, true],
      [418, false],
    ]);
    expect(planOf(plans, 413).arrowColor).toBe('+');
  });

  it('plans-quotation: a malformed id → 400 Invalid quotationId supplied; an unknown one → 404', async () => {
    const malformed = await get(ctx.app, '/api/1/plans-quotation/abc');
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ detail: errorMessages.invalidPlanQuotationId });
    const url = `/api/1/plans-quotation/${unknownId}`;
    expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
  });

  it.each(['999', 'abc'])(
    'every quotation plan call under an unknown company (%s) → 404 Company not found',
    async (company) => {
      for (const [path, query] of [
        [`/api/${company}/plans-comparador`, `?quotationId=${id}`],
        [`/api/${company}/plans/410`, `?quotationId=${id}`],
        [`/api/${company}/plans-quotation/${id}`, ''],
      ] as const) {
        expectError(await get(ctx.app, `${path}${query}`), 404, errorMessages.companyNotFound, path);
      }
    },
  );
});

/** Senior (413) is sold from 75 on: the 0–74 band rules it out, and only it, whenever adults travel. */
const seniorOnlyRulesOutAdults = {
  passengerTypeId: 1,
  label: 'Pasajero de 0 a 74 años',
  ageFrom: 0,
  ageTo: 74,
  plans: 1,
  planNames: ['Travesía Senior'],
};

describeOnEachDatabase('plans an age band rules out (plans-unavailable)', (ctx) => {
  const unavailable = async (quotationId: string) => {
    const answer = await get(ctx.app, `/api/1/plans-unavailable/${quotationId}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ passengerTypes: unknown[] }>();
  };

  it('2 adults + 1 senior on a single trip: Senior (413) is not for 0–74, nothing is ruled out for 75–84', async () => {
    const id = await createQuotation(ctx);
    expect(await unavailable(id)).toStrictEqual({
      passengerTypes: [seniorOnlyRulesOutAdults],
    });
  });

  it('a senior of 75–84 with one of 85+: the four general plans are not for 85+, one plan is left', async () => {
    const id = await createQuotation(ctx, {
      passangerTypes: [
        { passengerTypeId: 2, quantity: 1 },
        { passengerTypeId: 3, quantity: 1 },
      ],
    });
    expect(await unavailable(id)).toStrictEqual({
      passengerTypes: [
        {
          passengerTypeId: 3,
          label: 'Pasajero de 85 años o más',
          ageFrom: 85,
          ageTo: 120,
          plans: 4,
          planNames: ['Travesía Esencial', 'Travesía Plus', 'Travesía Premium', 'Travesía Protección Especial'],
        },
      ],
    });
    const listed = await get(ctx.app, `/api/1/plans-comparador?quotationId=${id}`);
    expect(listed.json<ComparatorPlan[]>().map((plan) => plan.id)).toStrictEqual([413]);
  });

  it('annual with a senior of 75–84: Anual (414), the only annual plan, is not for 75–84', async () => {
    const id = await createQuotation(ctx, {
      modality: 2,
      destination: 1,
      ...annualDates(),
      passangerTypes: [{ passengerTypeId: 2, quantity: 1 }],
    });
    expect(await unavailable(id)).toStrictEqual({
      passengerTypes: [
        {
          passengerTypeId: 2,
          label: 'Pasajero de 75 a 84 años',
          ageFrom: 75,
          ageTo: 84,
          plans: 1,
          planNames: ['Travesía Anual'],
        },
      ],
    });
  });

  it('only adults: no band rules out a plan (plans not sold for the modality do not count)', async () => {
    const id = await createQuotation(ctx, { passangerTypes: [{ passengerTypeId: 1, quantity: 2 }] });
    // Senior (413) is single-trip but not for 0–74: it counts; Anual (414) is annual only: it does not.
    expect(await unavailable(id)).toStrictEqual({
      passengerTypes: [seniorOnlyRulesOutAdults],
    });
  });

  it('an unknown quotation → 404; an id that is not a UUID → 400 Invalid quotationId supplied', async () => {
    const url = `/api/1/plans-unavailable/${unknownId}`;
    expectError(await get(ctx.app, url), 404, errorMessages.resourceNotFound, url);
    const malformed = await get(ctx.app, '/api/1/plans-unavailable/abc');
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ detail: errorMessages.invalidPlanQuotationId });
  });
});
