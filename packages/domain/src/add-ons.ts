import { convertUsdToClp } from './exchange.ts';
import { assertCount, centsToDecimal, mulDivRound } from './pricing.ts';

/**
 * Add-ons («adicionales», issue 27 §1): options a traveller buys on top of the plan (sports, pre-existing conditions,
 * pregnancy, cancellation for any reason, electronics and baggage). Each is priced for ONE traveller and ONE trip:
 *
 * - `daily`: a fixed USD amount per traveller per day of the trip.   net = centsPerDay × days
 * - `percent`: a percent of what the plan costs that traveller after its discount (the net, before tax).
 *                                                                       net = planNetCents × bp / 10 000
 * - Tax, when the plan charges it (enableTax): tax = net × plan's tax rate, like the plan itself and the covid
 *   upgrade (pricing.ts step 4). total = net + tax.
 * - CLP: the traveller's add-on total at the stored rate, whole pesos, half up (pricing.ts step 6).
 *
 * Same rules as the plan prices: integer USD cents and basis points, every rounding half up and done once per step, so
 * net + tax = total always; the purchase charges the plan's total plus each add-on line's total, in USD and in CLP.
 */
export type AddOnPricing = { kind: 'daily'; centsPerDay: number } | { kind: 'percent'; planPercentBp: number };

/**
 * The covid upgrade's add-on (issue 27 §1): every company has one with this code, priced per plan. It is chosen for
 * the whole trip by the search's and quotation's `upgradeCovid` and priced inside priceTrip (pricing.ts step 3), never
 * chosen traveller by traveller: the per-traveller choice leaves it out (apps/api plans/add-ons.ts offeredPerTraveller).
 */
export const covidAddOnCode = 'covid';

/**
 * An add-on's price as the catalogue (`add_ons`) stores it: a 'daily' add-on has a price per day for every plan,
 * prices per plan (`{ "<productId>": cents }`, a plan's entry overriding the price per day), or both.
 */
export type AddOnCatalogPrice = {
  pricing: 'daily' | 'percent';
  priceCentsPerDay: number | null;
  planPercentBp: number | null;
  planPrices: Readonly<Record<string, number>>;
};

/**
 * A daily add-on's USD cents per traveller per day with plan `productId`: the plan's own price when it has one, else
 * the price per day; null when it is not priced for that plan (no entry and no price per day) or is a percent add-on.
 */
export function addOnDailyCentsFor(addOn: AddOnCatalogPrice, productId: number): number | null {
  if (addOn.pricing !== 'daily') return null;
  return Object.hasOwn(addOn.planPrices, String(productId))
    ? (addOn.planPrices[String(productId)] ?? null)
    : addOn.priceCentsPerDay;
}

/** What priceAddOn takes for a traveller of plan `productId`; null when the add-on has no price for that plan. */
export function addOnPricingFor(addOn: AddOnCatalogPrice, productId: number): AddOnPricing | null {
  if (addOn.pricing === 'percent') {
    return addOn.planPercentBp === null ? null : { kind: 'percent', planPercentBp: addOn.planPercentBp };
  }
  const centsPerDay = addOnDailyCentsFor(addOn, productId);
  return centsPerDay === null ? null : { kind: 'daily', centsPerDay };
}

export type AddOnPriceInput = {
  pricing: AddOnPricing;
  /** The trip's days, as the plan is priced (pricing.ts `days`). */
  days: number;
  /** What the plan costs this traveller after the discount and before tax (pricePerPassengerType(...).netCents). */
  planNetCents: number;
  /** The plan's tax rate in bp when it charges tax; null otherwise. */
  taxBp: number | null;
  /** CLP per USD as a decimal string, e.g. '948.5300'. */
  clpPerUsd: string;
};

export type AddOnPrice = { netCents: number; taxCents: number; totalCents: number; totalClp: number };

/** The price of one add-on for one traveller on one trip. */
export function priceAddOn(input: AddOnPriceInput): AddOnPrice {
  assertCount('days', input.days, 1);
  assertCount('planNetCents', input.planNetCents);
  const taxBp = input.taxBp ?? 0;
  assertCount('taxBp', taxBp);
  let netCents: number;
  if (input.pricing.kind === 'daily') {
    assertCount('centsPerDay', input.pricing.centsPerDay);
    netCents = input.pricing.centsPerDay * input.days;
  } else {
    assertCount('planPercentBp', input.pricing.planPercentBp);
    netCents = mulDivRound(input.planNetCents, input.pricing.planPercentBp, 10_000);
  }
  const taxCents = mulDivRound(netCents, taxBp, 10_000);
  const totalCents = netCents + taxCents;
  return { netCents, taxCents, totalCents, totalClp: convertUsdToClp(centsToDecimal(totalCents), input.clpPerUsd) };
}

/** Who an add-on may be sold to; an empty list means every one (all age bands, modalities, regions or plans). */
export type AddOnEligibility = {
  active: boolean;
  passengerTypeIds: readonly number[];
  modalityIds: readonly number[];
  destinationIds: readonly number[];
  productIds: readonly number[];
};

/** One traveller on one trip: the age band (passenger type), and the trip's modality, region and plan. */
export type AddOnBuyer = { passengerTypeId: number; modalityId: number; destinationId: number; productId: number };

export type AddOnIneligibility = 'inactive' | 'age' | 'modality' | 'region' | 'plan';

/** Why an add-on cannot be bought, in the buyer's words (Spanish, «tú»). */
export const addOnIneligibilityReasons: Record<AddOnIneligibility, string> = {
  inactive: 'Este adicional ya no está a la venta.',
  age: 'Este adicional no está disponible para la edad de este viajero.',
  modality: 'Este adicional no está disponible para la modalidad de tu viaje.',
  region: 'Este adicional no está disponible para el destino de tu viaje.',
  plan: 'Este adicional no está disponible con el plan que elegiste.',
};

export type AddOnEligibilityResult = { eligible: true } | { eligible: false; code: AddOnIneligibility; reason: string };

const allows = (list: readonly number[], id: number) => list.length === 0 || list.includes(id);

/** Whether a traveller may buy an add-on; when not, the first reason (inactive, age, modality, region, plan). */
export function checkAddOnEligibility(addOn: AddOnEligibility, buyer: AddOnBuyer): AddOnEligibilityResult {
  let code: AddOnIneligibility | null = null;
  if (!addOn.active) code = 'inactive';
  else if (!allows(addOn.passengerTypeIds, buyer.passengerTypeId)) code = 'age';
  else if (!allows(addOn.modalityIds, buyer.modalityId)) code = 'modality';
  else if (!allows(addOn.destinationIds, buyer.destinationId)) code = 'region';
  else if (!allows(addOn.productIds, buyer.productId)) code = 'plan';
  return code === null ? { eligible: true } : { eligible: false, code, reason: addOnIneligibilityReasons[code] };
}

/**
 * Whether an add-on can still be added to a paid purchase on `today` (Chile's calendar day, YYYY-MM-DD): only one
 * marked buyable after purchase, and only before the departure day.
 */
export function buyableAfterPurchaseOn(
  addOn: { buyableAfterPurchase: boolean },
  today: string,
  departureDate: string,
): boolean {
  return addOn.buyableAfterPurchase && today < departureDate;
}
