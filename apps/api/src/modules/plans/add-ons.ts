import {
  type AddOnEligibilityResult,
  type AddOnPrice,
  type AddOnPricing,
  addOnDailyCentsFor,
  addOnIneligibilityReasons,
  addOnPricingFor,
  checkAddOnEligibility,
  covidAddOnCode,
  priceAddOn,
} from '@travesia/domain/add-ons';
import { formatUsd } from '@travesia/domain/money';
import type { Database } from '#app/db/client.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import * as repository from './repository.ts';
import type { PricedPlan } from './service.ts';
import type { addOns } from './tables.ts';

/**
 * Add-ons per traveller (issue 27 §1): which of the company's add-ons a traveller of a trip may buy with a plan, and
 * what each costs that traveller. The covid upgrade is an add-on too but the spec's `upgradeCovid` flag chooses it
 * for the whole trip (priced inside the plan's price): it is never offered per traveller.
 */
export type AddOnRow = typeof addOns.$inferSelect;

/** The code of the covid upgrade's add-on, chosen by the quotation's `upgradeCovid` flag, never per traveller. */
export { covidAddOnCode };

/** The read cache's scope of the add-ons: whatever writes them clears it (the console, the covid fee's publishing). */
export const addOnsCacheScope = 'add-ons:';

/** The company's add-ons, active or not (a paid purchase may name a retired one), through the read cache. */
export function listAddOns(db: Database, companyId: number): Promise<AddOnRow[]> {
  return readCache(db).get(`${addOnsCacheScope}${companyId}`, () => repository.listAddOns(db, companyId));
}

/** The add-ons a buyer may choose per traveller: active, and not the covid upgrade. */
export const offeredPerTraveller = (addOn: AddOnRow) => addOn.active && addOn.code !== covidAddOnCode;

/**
 * How the add-on is priced with plan `productId` (a daily one may have the plan's own price, `plan_prices`); null when
 * it has no price for that plan (eligibilityOf refuses it then).
 */
export function pricingOf(addOn: AddOnRow, productId: number): AddOnPricing | null {
  return addOnPricingFor(addOn, productId);
}

/** The pricing of an add-on found eligible with plan `productId` (eligibility refuses one with no price for it). */
export function eligiblePricing(addOn: AddOnRow, productId: number): AddOnPricing {
  const pricing = pricingOf(addOn, productId);
  if (!pricing) throw new RangeError(`add-on ${addOn.code} has no price with plan ${productId}`);
  return pricing;
}

/** The trip facts an add-on's eligibility reads besides the traveller's age band. */
export type AddOnTrip = { modalityId: number; destinationId: number };

export function eligibilityOf(
  addOn: AddOnRow,
  trip: AddOnTrip,
  productId: number,
  passengerTypeId: number,
): AddOnEligibilityResult {
  const result = checkAddOnEligibility(
    {
      active: offeredPerTraveller(addOn),
      passengerTypeIds: addOn.passengerTypeIds,
      modalityIds: addOn.modalityIds,
      destinationIds: addOn.destinationIds,
      productIds: addOn.productIds,
    },
    { passengerTypeId, modalityId: trip.modalityId, destinationId: trip.destinationId, productId },
  );
  // A daily add-on priced per plan only is not sold with a plan it has no price for.
  if (result.eligible && pricingOf(addOn, productId) === null) {
    return { eligible: false, code: 'plan', reason: addOnIneligibilityReasons.plan };
  }
  return result;
}

/**
 * What one add-on costs one traveller of a band with this priced plan: per day × the trip's days, or a share of what
 * the plan costs one traveller of that band after its discount; the plan's IVA on top when it has one.
 */
export function priceAddOnFor(
  addOn: AddOnRow,
  plan: PricedPlan,
  passengerTypeId: number,
  clpPerUsd: string,
): AddOnPrice {
  const band = plan.perPassengerType.find((one) => one.passengerTypeId === passengerTypeId);
  return priceAddOn({
    pricing: eligiblePricing(addOn, plan.product.id),
    days: plan.price.days,
    planNetCents: band?.price.netCents ?? 0,
    taxBp: plan.product.enableTax ? plan.product.taxBp : null,
    clpPerUsd,
  });
}

/** One add-on as offered to each travelling band with a plan: eligible (and its price) or why not. */
export type AddOnOffer = {
  addOn: AddOnRow;
  bands: { passengerTypeId: number; eligibility: AddOnEligibilityResult; price: AddOnPrice | null }[];
};

/** The add-ons offered per traveller, for each band travelling with this priced plan (those no band may buy left out). */
export function offersFor(addOnList: AddOnRow[], plan: PricedPlan, trip: AddOnTrip, clpPerUsd: string): AddOnOffer[] {
  return addOnList
    .filter(offeredPerTraveller)
    .map((addOn) => ({
      addOn,
      bands: plan.perPassengerType.map(({ passengerTypeId }) => {
        const eligibility = eligibilityOf(addOn, trip, plan.product.id, passengerTypeId);
        return {
          passengerTypeId,
          eligibility,
          price: eligibility.eligible ? priceAddOnFor(addOn, plan, passengerTypeId, clpPerUsd) : null,
        };
      }),
    }))
    .filter((offer) => offer.bands.some((band) => band.eligibility.eligible));
}

/** A traveller's choice: the add-on ids chosen for them, with their age band and position. */
export type TravellerChoice = { seq: number; passengerTypeId: number; addOnIds: readonly number[] };

export type ChosenAddOnLine = { seq: number; addOn: AddOnRow; pricing: AddOnPricing; price: AddOnPrice };

export type AddOnChoiceProblem = { seq: number; addOnId: number; name: string | null; reason: string };

const unquotedTravellerReason = 'Los pasajeros ingresados no coinciden con la cotización.';

/**
 * Every chosen add-on priced for its traveller, or the problems: an unknown id, or one this traveller may not buy with
 * this plan on this trip (age band, modality, region, plan, no longer sold). Duplicates count once.
 */
export function priceChoices(
  addOnList: AddOnRow[],
  plan: PricedPlan,
  trip: AddOnTrip,
  clpPerUsd: string,
  choices: readonly TravellerChoice[],
): { lines: ChosenAddOnLine[]; problems: AddOnChoiceProblem[] } {
  const lines: ChosenAddOnLine[] = [];
  const problems: AddOnChoiceProblem[] = [];
  for (const choice of choices) {
    // A traveller of an age band the plan was not priced for (the quotation's passengers changed since they were
    // saved) has no plan price to take a share of: never priced (a percent add-on would cost nothing).
    const bandPriced = plan.perPassengerType.some((band) => band.passengerTypeId === choice.passengerTypeId);
    for (const addOnId of new Set(choice.addOnIds)) {
      const addOn = addOnList.find((candidate) => candidate.id === addOnId);
      const eligibility = !bandPriced
        ? ({ eligible: false, reason: unquotedTravellerReason } as const)
        : addOn
          ? eligibilityOf(addOn, trip, plan.product.id, choice.passengerTypeId)
          : ({ eligible: false, reason: 'Este adicional no existe.' } as const);
      if (!addOn || !eligibility.eligible) {
        problems.push({
          seq: choice.seq,
          addOnId,
          name: addOn?.name ?? null,
          reason: eligibility.eligible ? '' : eligibility.reason,
        });
        continue;
      }
      lines.push({
        seq: choice.seq,
        addOn,
        pricing: eligiblePricing(addOn, plan.product.id),
        price: priceAddOnFor(addOn, plan, choice.passengerTypeId, clpPerUsd),
      });
    }
  }
  return { lines, problems };
}

/** The sum of the lines (USD cents and CLP, each line already rounded once). */
export function addOnsTotal(lines: readonly ChosenAddOnLine[]) {
  return lines.reduce(
    (sum, line) => ({
      totalUsdCents: sum.totalUsdCents + line.price.totalCents,
      totalClp: sum.totalClp + line.price.totalClp,
    }),
    { totalUsdCents: 0, totalClp: 0 },
  );
}

/**
 * Words for an add-on's price rule with plan `productId`, as the store shows it: «USD 2,50 por día» (the plan's own
 * price when it has one) or «30 % del valor del plan».
 */
export function pricingWords(addOn: AddOnRow, productId: number): string {
  if (addOn.pricing === 'daily') {
    return `${formatUsd((addOnDailyCentsFor(addOn, productId) ?? 0) / 100)} por día`;
  }
  const bp = addOn.planPercentBp ?? 0;
  const percent = bp % 100 === 0 ? String(bp / 100) : (bp / 100).toFixed(2).replace('.', ',');
  return `${percent} % del valor del plan`;
}
