import { describe, expect, it } from 'vitest';
import {
  type AddOnCatalogPrice,
  type AddOnEligibility,
  addOnDailyCentsFor,
  addOnIneligibilityReasons,
  addOnPricingFor,
  buyableAfterPurchaseOn,
  checkAddOnEligibility,
  covidAddOnCode,
  priceAddOn,
} from './add-ons.ts';
import { pricePerPassengerType } from './pricing.ts';

const rate = '948.5300';

describe('priceAddOn', () => {
  it.each([
    // kind, days, planNetCents, taxBp, net, tax, total, CLP
    // USD 4.50 a day × 10 days = 45.00; 45 × 948.53 = 42 683.85 → 42 684
    [{ kind: 'daily', centsPerDay: 450 } as const, 10, 11_900, null, 4500, 0, 4500, 42_684],
    // with 19 % tax: 8.55 → total 53.55; 53.55 × 948.53 = 50 793.78 → 50 794
    [{ kind: 'daily', centsPerDay: 450 } as const, 10, 11_900, 1900, 4500, 855, 5355, 50_794],
    // 35 % of 119.00 = 41.65; 41.65 × 948.53 = 39 506.27 → 39 506
    [{ kind: 'percent', planPercentBp: 3500 } as const, 10, 11_900, null, 4165, 0, 4165, 39_506],
    // 12.5 % of 0.05 = 0.00625 → 0.01 (half up); tax 19 % of 0.01 = 0.0019 → 0.00
    [{ kind: 'percent', planPercentBp: 1250 } as const, 3, 5, 1900, 1, 0, 1, 9],
    // 12.5 % of 0.04 = 0.005 → 0.01 (exactly half rounds up)
    [{ kind: 'percent', planPercentBp: 1250 } as const, 3, 4, null, 1, 0, 1, 9],
    // a free add-on costs nothing in both currencies
    [{ kind: 'daily', centsPerDay: 0 } as const, 30, 9000, 1900, 0, 0, 0, 0],
  ])(
    'prices %o for %i days on a plan net of %i cents (tax %s bp)',
    (pricing, days, planNetCents, taxBp, net, tax, total, clp) => {
      expect(priceAddOn({ pricing, days, planNetCents, taxBp, clpPerUsd: rate })).toEqual({
        netCents: net,
        taxCents: tax,
        totalCents: total,
        totalClp: clp,
      });
    },
  );

  it('takes its percent of what the plan costs that one traveller after the discount', () => {
    // two adults at USD 3.50 a day and a senior at 7.00, 10 days, 15 % promotion: the senior's plan net is 59.50
    const perType = pricePerPassengerType({
      ...{ days: 10, rating: 'daily', promotionBp: 1500, discountCodeBp: 0, covidFeeCentsPerDay: null, taxBp: null },
      passengers: [1, 2].map((id) => ({ passengerTypeId: id, quantity: 3 - id, rateCents: 350 * id })),
      clpPerUsd: rate,
    });
    const senior = perType.find((entry) => entry.passengerTypeId === 2);
    expect(senior?.price.netCents).toBe(5950);
    const price = priceAddOn({
      pricing: { kind: 'percent', planPercentBp: 1000 },
      days: 10,
      planNetCents: senior?.price.netCents ?? -1,
      taxBp: null,
      clpPerUsd: rate,
    });
    // 10 % of 59.50 = 5.95
    expect(price.totalCents).toBe(595);
  });

  it('always adds up: net + tax = total, for every day count and rate', () => {
    for (let days = 1; days <= 60; days += 7) {
      for (const centsPerDay of [0, 1, 99, 150, 333, 1200]) {
        for (const taxBp of [null, 1900, 1050]) {
          const price = priceAddOn({
            pricing: { kind: 'daily', centsPerDay },
            days,
            planNetCents: 0,
            taxBp,
            clpPerUsd: rate,
          });
          expect(price.netCents + price.taxCents).toBe(price.totalCents);
          expect(price.netCents).toBe(centsPerDay * days);
        }
      }
    }
  });

  it('refuses a trip of no days or negative amounts instead of pricing them', () => {
    const base = { days: 5, planNetCents: 1000, taxBp: null, clpPerUsd: rate };
    expect(() => priceAddOn({ ...base, days: 0, pricing: { kind: 'daily', centsPerDay: 100 } })).toThrow(RangeError);
    expect(() => priceAddOn({ ...base, pricing: { kind: 'daily', centsPerDay: -1 } })).toThrow(RangeError);
    expect(() => priceAddOn({ ...base, pricing: { kind: 'percent', planPercentBp: 1.5 } })).toThrow(RangeError);
    expect(() => priceAddOn({ ...base, planNetCents: -5, pricing: { kind: 'percent', planPercentBp: 100 } })).toThrow(
      RangeError,
    );
  });
});

describe('checkAddOnEligibility', () => {
  const everyone: AddOnEligibility = {
    active: true,
    passengerTypeIds: [],
    modalityIds: [],
    destinationIds: [],
    productIds: [],
  };
  const buyer = { passengerTypeId: 2, modalityId: 1, destinationId: 3, productId: 411 };

  it('lets anyone buy an add-on whose lists are empty', () => {
    expect(checkAddOnEligibility(everyone, buyer)).toEqual({ eligible: true });
  });

  it.each([
    [{ active: false }, 'inactive'],
    [{ passengerTypeIds: [1] }, 'age'],
    [{ modalityIds: [2, 3] }, 'modality'],
    [{ destinationIds: [1, 2] }, 'region'],
    [{ productIds: [410] }, 'plan'],
  ] as const)('refuses %o with the reason «%s»', (restriction, code) => {
    expect(checkAddOnEligibility({ ...everyone, ...restriction }, buyer)).toEqual({
      eligible: false,
      code,
      reason: addOnIneligibilityReasons[code],
    });
  });

  it('accepts a buyer named in every list', () => {
    const listed = { active: true, passengerTypeIds: [1, 2], modalityIds: [1], destinationIds: [3], productIds: [411] };
    expect(checkAddOnEligibility(listed, buyer)).toEqual({ eligible: true });
  });

  it('explains each refusal in Spanish', () => {
    expect(checkAddOnEligibility({ ...everyone, passengerTypeIds: [1] }, buyer)).toMatchObject({
      reason: 'Este adicional no está disponible para la edad de este viajero.',
    });
  });
});

describe('buyableAfterPurchaseOn', () => {
  it('allows a late purchase only for add-ons marked so and only before the departure day', () => {
    expect(buyableAfterPurchaseOn({ buyableAfterPurchase: true }, '2026-12-01', '2026-12-10')).toBe(true);
    expect(buyableAfterPurchaseOn({ buyableAfterPurchase: true }, '2026-12-09', '2026-12-10')).toBe(true);
    expect(buyableAfterPurchaseOn({ buyableAfterPurchase: true }, '2026-12-10', '2026-12-10')).toBe(false);
    expect(buyableAfterPurchaseOn({ buyableAfterPurchase: false }, '2026-12-01', '2026-12-10')).toBe(false);
  });
});

describe('prices per plan (addOnDailyCentsFor, addOnPricingFor)', () => {
  // The demo company's covid upgrade: 90 to 150 cents a day on four plans, no price per day for the others.
  const covid: AddOnCatalogPrice = {
    pricing: 'daily',
    priceCentsPerDay: null,
    planPercentBp: null,
    planPrices: { 410: 90, 411: 110, 412: 130, 413: 150 },
  };
  const withFallback: AddOnCatalogPrice = { ...covid, priceCentsPerDay: 250, planPrices: { 410: 200, 418: 0 } };
  const percent: AddOnCatalogPrice = {
    pricing: 'percent',
    priceCentsPerDay: null,
    planPercentBp: 3000,
    planPrices: {},
  };

  it.each([
    // add-on, plan, cents per day
    [covid, 410, 90],
    [covid, 413, 150],
    // a plan with no entry and no price per day: not priced
    [covid, 418, null],
    [covid, 414, null],
    // an entry overrides the price per day, a zero entry too (free with that plan)
    [withFallback, 410, 200],
    [withFallback, 418, 0],
    // no entry: the price per day
    [withFallback, 411, 250],
    // a percent add-on has no daily price
    [percent, 410, null],
  ] as const)('%o with plan %i: %s cents a day', (addOn, productId, cents) => {
    expect(addOnDailyCentsFor(addOn, productId)).toBe(cents);
    const expected = addOn === percent ? { kind: 'percent', planPercentBp: 3000 } : null;
    expect(addOnPricingFor(addOn, productId)).toEqual(
      cents === null ? expected : { kind: 'daily', centsPerDay: cents },
    );
  });

  it('no plan prices and no price per day: priced for no plan', () => {
    expect(addOnDailyCentsFor({ ...covid, planPrices: {} }, 410)).toBeNull();
    expect(addOnPricingFor({ ...covid, planPrices: {} }, 410)).toBeNull();
  });

  it("prices a traveller with the plan's own price: 150 ¢ × 5 days with 19 % tax", () => {
    const pricing = addOnPricingFor(covid, 413);
    if (!pricing) throw new Error('priced');
    expect(priceAddOn({ pricing, days: 5, planNetCents: 10_125, taxBp: 1900, clpPerUsd: rate })).toEqual({
      netCents: 750,
      taxCents: 143,
      totalCents: 893,
      // 8.93 × 948.53 = 8 470.37 → 8 470
      totalClp: 8470,
    });
  });

  it("the covid upgrade's code", () => {
    expect(covidAddOnCode).toBe('covid');
  });
});
