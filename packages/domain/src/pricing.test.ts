import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  instalmentClp,
  interestFreeInstalments,
  type PricingInput,
  perPassengerPerDayCents,
  pricePerPassengerType,
  priceTrip,
  rateForTripLength,
} from './pricing.ts';

const europeTenDays: PricingInput = {
  days: 10,
  rating: 'daily',
  // two adults (band 0–74) at USD 3.50 a day, one senior (75–84) at USD 7.00 a day
  passengers: [
    { passengerTypeId: 1, quantity: 2, rateCents: 350 },
    { passengerTypeId: 2, quantity: 1, rateCents: 700 },
  ],
  promotionBp: 1500,
  discountCodeBp: 0,
  covidFeeCentsPerDay: null,
  taxBp: null,
  clpPerUsd: '948.5300',
};

describe('priceTrip', () => {
  it('sums each band at its daily rate and applies the standing promotion', () => {
    // valorPlan = 2 × 3.50 × 10 + 1 × 7.00 × 10 = 140.00; 15 % off = 21.00; net 119.00
    // per day 11.90; CLP 119 × 948.53 = 112 875.07 → 112 875
    expect(priceTrip(europeTenDays)).toEqual({
      days: 10,
      planValueCents: 14_000,
      discountBp: 1500,
      discountCents: 2100,
      codeDiscountCents: 0,
      netCents: 11_900,
      covidCents: 0,
      taxBp: 0,
      taxCents: 0,
      totalCents: 11_900,
      perDayCents: 1190,
      totalClp: 112_875,
    });
  });

  it('adds a discount code to the promotion, then the covid upgrade and tax on the discounted price', () => {
    const price = priceTrip({ ...europeTenDays, discountCodeBp: 1000, covidFeeCentsPerDay: 100, taxBp: 1900 });
    // discount 25 % of 140.00 = 35.00 → net 105.00; covid 3 passengers × 10 days × 1.00 = 30.00
    // tax 19 % of 135.00 = 25.65; total 160.65; per day 16.065 → 16.07
    // CLP 160.65 × 948.53 = 152 381.3445 → 152 381
    expect(price.discountCents).toBe(3500);
    expect(price.netCents).toBe(10_500);
    expect(price.covidCents).toBe(3000);
    expect(price.taxCents).toBe(2565);
    expect(price.totalCents).toBe(16_065);
    expect(price.perDayCents).toBe(1607);
    expect(price.totalClp).toBe(152_381);
  });

  it('rounds each step half up in cents', () => {
    // 3.33 with 15 % off: 0.4995 → 0.50; net 2.83; tax 19 % of 2.83 = 0.5377 → 0.54
    const price = priceTrip({
      ...europeTenDays,
      days: 1,
      passengers: [{ passengerTypeId: 1, quantity: 1, rateCents: 333 }],
      taxBp: 1900,
    });
    expect(price.discountCents).toBe(50);
    expect(price.netCents).toBe(283);
    expect(price.taxCents).toBe(54);
    expect(price.totalCents).toBe(337);
  });

  it('prices the annual modality at a flat price per passenger, whatever the days', () => {
    // 2 × 250.00 = 500.00; per day 500 / 365 = 1.3698… → 1.37; CLP 500 × 948.53 = 474 265
    const price = priceTrip({
      ...europeTenDays,
      days: 365,
      rating: 'flat',
      passengers: [{ passengerTypeId: 1, quantity: 2, rateCents: 25_000 }],
      promotionBp: 0,
    });
    expect(price.planValueCents).toBe(50_000);
    expect(price.totalCents).toBe(50_000);
    expect(price.perDayCents).toBe(137);
    expect(price.totalClp).toBe(474_265);
  });

  it('rounds the CLP amount half up to whole pesos', () => {
    const oneCent = { ...europeTenDays, days: 1, promotionBp: 0 };
    // 0.50 USD at 1 CLP/USD = 0.5 → 1 peso; 0.49 → 0
    expect(
      priceTrip({ ...oneCent, passengers: [{ passengerTypeId: 1, quantity: 1, rateCents: 50 }], clpPerUsd: '1' })
        .totalClp,
    ).toBe(1);
    expect(
      priceTrip({ ...oneCent, passengers: [{ passengerTypeId: 1, quantity: 1, rateCents: 49 }], clpPerUsd: '1' })
        .totalClp,
    ).toBe(0);
  });

  it('never discounts more than the whole price', () => {
    const price = priceTrip({ ...europeTenDays, promotionBp: 6000, discountCodeBp: 6000 });
    expect(price.discountBp).toBe(10_000);
    expect(price.netCents).toBe(0);
  });

  it('takes a fixed-amount code off after the percents, before covid and tax', () => {
    // 140.00 − 15 % (21.00) − USD 10.00 = 109.00; covid 30.00; tax 19 % of 139.00 = 26.41; total 165.41
    const price = priceTrip({ ...europeTenDays, discountCodeCents: 1000, covidFeeCentsPerDay: 100, taxBp: 1900 });
    expect(price.discountCents).toBe(3100);
    expect(price.codeDiscountCents).toBe(1000);
    expect(price.discountBp).toBe(2214); // 31.00 of 140.00, the effective percent
    expect(price.netCents).toBe(10_900);
    expect(price.taxCents).toBe(2641);
    expect(price.totalCents).toBe(16_541);
  });

  it('never lets a fixed amount take the net below zero (the code gives only what is left)', () => {
    const price = priceTrip({ ...europeTenDays, discountCodeCents: 50_000 });
    expect(price.netCents).toBe(0);
    expect(price.totalCents).toBe(0);
    expect(price.discountCents).toBe(14_000);
    expect(price.codeDiscountCents).toBe(14_000 - 2100);
    expect(price.discountBp).toBe(10_000);
  });

  it("counts a percent code's share apart from the promotion", () => {
    expect(priceTrip({ ...europeTenDays, discountCodeBp: 1000 }).codeDiscountCents).toBe(1400);
  });

  it('ignores passengers types with zero travellers', () => {
    const price = priceTrip({
      ...europeTenDays,
      passengers: [...europeTenDays.passengers, { passengerTypeId: 3, quantity: 0, rateCents: 9999 }],
    });
    expect(price.planValueCents).toBe(14_000);
  });

  it.each([
    ['days', { days: 0 }],
    ['promotionBp', { promotionBp: -1 }],
    ['quantity', { passengers: [{ passengerTypeId: 1, quantity: 1.5, rateCents: 100 }] }],
    ['rateCents', { passengers: [{ passengerTypeId: 1, quantity: 1, rateCents: -5 }] }],
  ])('rejects a bad %s', (_name, override) => {
    expect(() => priceTrip({ ...europeTenDays, ...override })).toThrow(RangeError);
  });
});

describe('centsToDecimal', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [12_345, '123.45'],
    [-250, '-2.50'],
  ])('writes %i cents as %s', (cents, expected) => {
    expect(centsToDecimal(cents)).toBe(expected);
  });
});

describe('instalmentClp', () => {
  it('advertises 6 interest-free instalments (spec §9)', () => {
    expect(interestFreeInstalments).toBe(6);
  });

  it.each([
    // 80 625 / 6 = 13 437.5 → 13 438; 6 × 13 438 = 80 628 ≥ 80 625
    [80_625, 13_438],
    [60_000, 10_000],
    [60_001, 10_001],
    [5, 1],
    [0, 0],
  ])('%i pesos in 6 → %i each, rounded up', (total, instalment) => {
    expect(instalmentClp(total)).toBe(instalment);
    expect(6 * instalmentClp(total)).toBeGreaterThanOrEqual(total);
    expect(6 * instalmentClp(total) - total).toBeLessThan(6);
  });

  it('takes another count of instalments', () => {
    expect(instalmentClp(100, 3)).toBe(34);
    expect(instalmentClp(100, 1)).toBe(100);
  });

  it.each([
    [-1, 6],
    [1.5, 6],
    [100, 0],
  ])('refuses a total of %s in %s instalments', (total, count) => {
    expect(() => instalmentClp(total, count)).toThrow(RangeError);
  });
});

describe('perPassengerPerDayCents', () => {
  it('divides the total by days × travellers, half up', () => {
    // 119.00 / (10 days × 3 travellers) = 3.9666… → 3.97
    expect(perPassengerPerDayCents(priceTrip(europeTenDays), 3)).toBe(397);
    expect(perPassengerPerDayCents({ totalCents: 1000, days: 4 }, 1)).toBe(250);
  });

  it('refuses zero travellers', () => {
    expect(() => perPassengerPerDayCents({ totalCents: 1000, days: 4 }, 0)).toThrow(RangeError);
  });
});

describe('pricePerPassengerType', () => {
  it('prices one traveller of each travelling band by the same rules', () => {
    const [adult, senior, ...none] = pricePerPassengerType({
      ...europeTenDays,
      passengers: [...europeTenDays.passengers, { passengerTypeId: 3, quantity: 0, rateCents: 900 }],
    });
    expect(none).toEqual([]);
    // adult: 35.00 − 15 % = 29.75 → $28 218.77 → 28 219; senior: 70.00 − 15 % = 59.50 → 56 437.54 → 56 438
    expect(adult).toMatchObject({ passengerTypeId: 1, price: { totalCents: 2975, totalClp: 28_219 } });
    expect(senior).toMatchObject({ passengerTypeId: 2, price: { totalCents: 5950, totalClp: 56_438 } });
    // 2 × 29.75 + 59.50 is the trip's 119.00
    expect(2 * (adult?.price.totalCents ?? 0) + (senior?.price.totalCents ?? 0)).toBe(11_900);
  });
});

describe('rateForTripLength', () => {
  const bands = [
    { minDays: 16, rateCents: 300 },
    { minDays: 1, rateCents: 400 },
    { minDays: 31, rateCents: 250 },
  ];

  it('takes the longest band the trip reaches, whatever order the rates come in', () => {
    expect(rateForTripLength(bands, 1)?.rateCents).toBe(400);
    expect(rateForTripLength(bands, 15)?.rateCents).toBe(400);
    expect(rateForTripLength(bands, 16)?.rateCents).toBe(300);
    expect(rateForTripLength(bands, 30)?.rateCents).toBe(300);
    expect(rateForTripLength(bands, 31)?.rateCents).toBe(250);
    expect(rateForTripLength(bands, 365)?.rateCents).toBe(250);
  });

  it('is one price for every length with a single band from day 1, and none before the first band', () => {
    expect(rateForTripLength([{ minDays: 1, rateCents: 380 }], 90)?.rateCents).toBe(380);
    expect(rateForTripLength([{ minDays: 8, rateCents: 380 }], 7)).toBeUndefined();
    expect(rateForTripLength([], 7)).toBeUndefined();
  });
});
