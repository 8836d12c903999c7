import { convertUsdToClp } from './exchange.ts';

/**
 * The price of a plan for a trip. The spec shows no formula; this is Travesía's model:
 *
 * 1. Each passenger costs the plan's rate for their passenger type (age band) and the destination region:
 *    a daily rate × trip days, or a flat price for the annual modality.   valorPlan = Σ quantity × unit price
 *    A daily rate may depend on the trip's length: the rate of the longest «from N days» band the trip reaches
 *    (rateForTripLength), for every day of the trip.
 * 2. Discount: the plan's standing promotion percent plus a valid discount code, both on valorPlan. A code is a
 *    percent (added to the promotion's) or a fixed amount in USD cents (taken off after the percents); the discount
 *    never exceeds valorPlan, so the net (and the total) never goes below zero.
 *    montoDescuento = min(valorPlan, valorPlan × (promotion + code %) + code amount)
 *    montoNeto = valorCONDCTO = valorPlan − montoDescuento
 * 3. Covid upgrade, when asked for and offered: surcharge per passenger per day.   covid = Σ quantity × days × fee
 * 4. Tax, when the plan has enableTax: montoTax = (montoNeto + covid) × tax rate
 * 5. totalAmount = montoNeto + covid + montoTax (USD);  valorDia = totalAmount / days
 * 6. montoConversion = totalAmount in CLP at the stored rate, whole pesos, half up.
 *
 * All USD amounts are integer cents and percentages integer basis points (1 % = 100 bp); every rounding is half up,
 * done once per step, so the parts always add up to the total.
 */
export type PricedPassengers = {
  passengerTypeId: number;
  quantity: number;
  /** Cents per day for daily-rated plans, or cents for the whole term for flat-rated ones. */
  rateCents: number;
}[];

export type PricingInput = {
  days: number;
  rating: 'daily' | 'flat';
  passengers: PricedPassengers;
  promotionBp: number;
  discountCodeBp: number;
  /** A fixed-amount discount code, in USD cents (0 or absent for none; a percent code uses discountCodeBp). */
  discountCodeCents?: number;
  /** Cents per passenger per day; null when the upgrade was not asked for or the plan does not offer it. */
  covidFeeCentsPerDay: number | null;
  /** Tax rate in bp when the plan charges tax (enableTax); null otherwise. */
  taxBp: number | null;
  /** CLP per USD as a decimal string, e.g. '948.5300'. */
  clpPerUsd: string;
};

export type PlanPrice = {
  days: number;
  planValueCents: number;
  /** The discount as a percent of planValueCents: exact for percents; with a fixed-amount code, the effective one. */
  discountBp: number;
  discountCents: number;
  /** The discount code's share of discountCents (what the code gave, beside the promotion). */
  codeDiscountCents: number;
  netCents: number;
  covidCents: number;
  taxBp: number;
  taxCents: number;
  totalCents: number;
  perDayCents: number;
  totalClp: number;
};

/** a × b / c rounded half up, for non-negative integers, without floating point. */
export function mulDivRound(a: number, b: number, c: number): number {
  const product = BigInt(a) * BigInt(b);
  const divisor = BigInt(c);
  return Number((product * 2n + divisor) / (divisor * 2n));
}

export function assertCount(name: string, value: number, min = 0) {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`${name} must be an integer ≥ ${min}: ${value}`);
}

export function priceTrip(input: PricingInput): PlanPrice {
  assertCount('days', input.days, 1);
  assertCount('promotionBp', input.promotionBp);
  assertCount('discountCodeBp', input.discountCodeBp);
  const discountCodeCents = input.discountCodeCents ?? 0;
  assertCount('discountCodeCents', discountCodeCents);
  let planValueCents = 0;
  let passengerCount = 0;
  for (const passenger of input.passengers) {
    assertCount('quantity', passenger.quantity);
    assertCount('rateCents', passenger.rateCents);
    const unit = input.rating === 'daily' ? passenger.rateCents * input.days : passenger.rateCents;
    planValueCents += passenger.quantity * unit;
    passengerCount += passenger.quantity;
  }
  const percentBp = Math.min(10_000, input.promotionBp + input.discountCodeBp);
  const discountCents = Math.min(planValueCents, mulDivRound(planValueCents, percentBp, 10_000) + discountCodeCents);
  const promotionCents = mulDivRound(planValueCents, Math.min(10_000, input.promotionBp), 10_000);
  const discountBp =
    discountCodeCents === 0 || planValueCents === 0 ? percentBp : mulDivRound(discountCents, 10_000, planValueCents);
  const netCents = planValueCents - discountCents;
  const covidCents = input.covidFeeCentsPerDay === null ? 0 : passengerCount * input.days * input.covidFeeCentsPerDay;
  const taxBp = input.taxBp ?? 0;
  const taxCents = mulDivRound(netCents + covidCents, taxBp, 10_000);
  const totalCents = netCents + covidCents + taxCents;
  return {
    days: input.days,
    planValueCents,
    discountBp,
    discountCents,
    codeDiscountCents: discountCents - Math.min(discountCents, promotionCents),
    netCents,
    covidCents,
    taxBp,
    taxCents,
    totalCents,
    perDayCents: mulDivRound(totalCents, 1, input.days),
    totalClp: convertUsdToClp(centsToDecimal(totalCents), input.clpPerUsd),
  };
}

/** 12345 → '123.45', exact. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Spec §9: up to 6 interest-free instalments are advertised. */
export const interestFreeInstalments = 6;

/**
 * One of `count` interest-free instalments of a CLP total, in whole pesos (CLP has no decimals), rounded UP: the
 * advertised instalment never understates what is paid (count × instalment ≥ total, by less than `count` pesos).
 */
export function instalmentClp(totalClp: number, count = interestFreeInstalments): number {
  assertCount('totalClp', totalClp);
  assertCount('count', count, 1);
  return Math.ceil(totalClp / count);
}

/**
 * What one traveller costs per day on average: total ÷ (days × travellers) in cents, half up. With one age band it is
 * exactly each traveller's daily price; with several it is their average.
 */
export function perPassengerPerDayCents(price: Pick<PlanPrice, 'totalCents' | 'days'>, passengerCount: number): number {
  assertCount('passengerCount', passengerCount, 1);
  return mulDivRound(price.totalCents, 1, price.days * passengerCount);
}

/**
 * The price of ONE traveller of each travelling passenger type (age band), by the same rules as the whole trip. Each
 * is rounded on its own, so quantity × these can differ from the trip's total by a few cents (and pesos): the trip's
 * total is what is paid.
 */
export function pricePerPassengerType(input: PricingInput): { passengerTypeId: number; price: PlanPrice }[] {
  return input.passengers
    .filter((passenger) => passenger.quantity > 0)
    .map((passenger) => ({
      passengerTypeId: passenger.passengerTypeId,
      price: priceTrip({ ...input, passengers: [{ ...passenger, quantity: 1 }] }),
    }));
}

/**
 * The rate a trip of `days` days takes among one plan's rates for one region and age band, each applying from its
 * `minDays`: the one with the largest `minDays` ≤ days (so a longer trip never falls back to a shorter band's rate
 * unless it is the longest band it reaches). Undefined when no band starts early enough.
 */
export function rateForTripLength<Rate extends { minDays: number }>(rates: readonly Rate[], days: number) {
  let chosen: Rate | undefined;
  for (const rate of rates) {
    if (rate.minDays <= days && (!chosen || rate.minDays > chosen.minDays)) chosen = rate;
  }
  return chosen;
}
