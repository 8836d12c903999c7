import { tripDays } from '@travesia/domain/dates';
import { convertUsdToClp } from '@travesia/domain/exchange';
import { formatClp, formatUsd } from '@travesia/domain/money';
import {
  type PlanPrice,
  type PricingInput,
  pricePerPassengerType,
  priceTrip,
  rateForTripLength,
} from '@travesia/domain/pricing';
import type { Database } from '#app/db/client.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import {
  type DiscountOutcome,
  type DiscountResolution,
  discountForPlan,
  resolveDiscountCode,
} from './discount-codes.ts';
import { type PlanDetails, productColumnsOf } from './plan-details.ts';
import * as repository from './repository.ts';
import { checkTrip, type Trip } from './trip.ts';

export type { DiscountOutcome } from './discount-codes.ts';
// The discount codes' steps other modules run at their moments (quotations, payments); see discount-codes.ts.
export {
  contactKeys,
  holdDiscountUse,
  paymentRefusalOf,
  recordDiscountUse,
  releaseDiscountUse,
  reserveDiscountUse,
  type UseToReserve,
} from './discount-codes.ts';
export type { Trip } from './trip.ts';

/** Which passenger types each of the company's products may carry (GET …/passanger-type-product). */
export async function listPassengerTypeProducts(db: Database, companyId: number) {
  return readCache(db).get(`passenger-type-products:${companyId}`, async () =>
    repository.listPassengerTypeProducts(db, await repository.listProductIdsOfCompany(db, companyId)),
  );
}

/** The passenger types each of the company's products may carry (the cached list of the whole company). */
export async function listAllowedPassengerTypes(db: Database, companyId: number) {
  const rows = await listPassengerTypeProducts(db, companyId);
  return rows.map((row) => ({ productId: row.idProducto, passengerTypeId: row.idPassangerType }));
}

export type PricedPlan = {
  product: repository.ProductRow;
  price: PlanPrice;
  benefits: { id: number; label: string; value: string; isPriority: boolean }[];
  covidApplied: boolean;
  /** What the discount code did to this plan (codes may be limited to some plans). */
  discount: DiscountOutcome;
  isBestCoverage: boolean;
  passengerCount: number;
  /** One traveller of each travelling passenger type, priced alone (for «price per traveller»). */
  perPassengerType: { passengerTypeId: number; quantity: number; price: PlanPrice }[];
};

/** The plans sold for the trip's modality and destination that a travelling passenger type (age band) rules out. */
export type UnavailableForPassengerType = { passengerTypeId: number; planNames: string[] };

export type TripPricing = {
  plans: PricedPlan[];
  /** The code's outcome for the trip as a whole (applied when it applies to some plan); each plan has its own. */
  discount: DiscountOutcome;
  clpPerUsd: string;
  days: number;
  unavailable: UnavailableForPassengerType[];
};

/**
 * A plan's prices as a draft would make them (the publishing model's preview and impact table): they replace the
 * stored rates, discount and covid fee of that one plan in this pricing, and nothing else.
 */
export type PriceOverride = {
  productId: number;
  promotionBp: number;
  covidFeeCentsPerDay: number | null;
  rates: { destinationId: number; passengerTypeId: number; minDays: number; rateCents: number }[];
  /** A draft of the plan itself (kind `plans`): its texts, colours, benefits, bands, regions, modalities, IVA, retired. */
  details?: PlanDetails;
};

/** The stored plan with a draft of its details over it (the preview of the kind `plans`); null: the draft retires it. */
function withDetails(product: repository.ProductRow, details: PlanDetails, modalityId: number) {
  if (details.retired || !details.modalityIds.includes(modalityId)) return null;
  return { ...product, ...productColumnsOf(details) };
}

/**
 * Every plan that fits the trip, priced (spec §5 plan search). A plan fits when it is sold for the modality, has
 * a rate for the destination and every passenger type travelling, and accepts those types
 * (passanger-type-product). Prices come from packages/domain/src/pricing.ts.
 */
export async function priceTripPlans(
  db: Database,
  companyId: number,
  trip: Trip,
  invalidDetail: string,
  passengersField = 'passengers',
  override?: PriceOverride,
): Promise<TripPricing> {
  await checkTrip(db, companyId, trip, invalidDetail, passengersField);
  const travelling = trip.passengers.filter((p) => p.quantity > 0);
  const days = tripDays(trip.departureDate, trip.returnDate);
  // The catalogue side of a search is read through the read cache, keyed by what checkTrip just found in the
  // catalogue (a modality, a destination it sells): warm, a search sends no SQL but a discount code's look-up.
  const cache = readCache(db);
  const productsKey = `products:${companyId}:${trip.modalityId}`;
  const candidatesOfModality = () =>
    cache.get(productsKey, () => repository.listProductsForModality(db, companyId, trip.modalityId));
  const [candidates, discount, clpPerUsd, allowed] = await Promise.all([
    candidatesOfModality(),
    resolveDiscountCode(db, companyId, trip.discountCode, trip.discountContext),
    catalog.currentRate(db, companyId),
    listAllowedPassengerTypes(db, companyId),
  ]);
  const ids = candidates.map((product) => product.id);
  const { details } = override ?? {};
  const [storedRates, benefits] = await Promise.all([
    cache.get(`${productsKey}:rates:${trip.destinationId}`, () => repository.listRates(db, ids, trip.destinationId)),
    cache.get(`${productsKey}:benefits`, () => repository.listBenefits(db, ids)),
  ]);
  // A draft's prices stand in for the stored ones of its plan; the cached rows themselves are never touched.
  const rates = override
    ? [
        ...storedRates.filter((rate) => rate.productId !== override.productId),
        ...override.rates
          .filter((rate) => rate.destinationId === trip.destinationId)
          .filter((rate) => !details || details.regionIds.includes(rate.destinationId))
          .map((rate) => ({ ...rate, productId: override.productId })),
      ]
    : storedRates;
  const draftBenefits =
    override && details
      ? details.benefits.map((b, index) => ({ ...b, id: -(index + 1), productId: override.productId }))
      : undefined;
  const planBenefits = draftBenefits
    ? [...benefits.filter((b) => b.productId !== override?.productId), ...draftBenefits]
    : benefits;
  const isAllowed = (productId: number, passengerTypeId: number) =>
    details && productId === override?.productId
      ? details.passengerTypeIds.includes(passengerTypeId)
      : allowed.some((a) => a.productId === productId && a.passengerTypeId === passengerTypeId);
  const plans: PricedPlan[] = [];
  const unavailable = new Map(travelling.map((p) => [p.passengerTypeId, [] as string[]]));
  for (const candidate of candidates) {
    const stored =
      details && override?.productId === candidate.id ? withDetails(candidate, details, trip.modalityId) : candidate;
    if (!stored) continue;
    const product =
      override?.productId === stored.id
        ? { ...stored, promotionBp: override.promotionBp, covidFeeCentsPerDay: override.covidFeeCentsPerDay }
        : stored;
    const passengers = travelling.map((p) => ({
      ...p,
      // The band of the trip's length (a flat-rated plan has one, from day 1).
      rateCents: rateForTripLength(
        rates.filter((r) => r.productId === product.id && r.passengerTypeId === p.passengerTypeId),
        days,
      )?.rateCents,
      allowed: isAllowed(product.id, p.passengerTypeId),
    }));
    const refused = passengers.filter((p) => p.rateCents === undefined || !p.allowed);
    if (refused.length > 0) {
      // A plan sold for this destination (it has a rate there) but not for this age band is one the band rules out;
      // a plan with no rate for the destination at all is not offered for the trip, whoever travels.
      const soldForDestination = rates.some((r) => r.productId === product.id);
      if (soldForDestination) {
        for (const p of refused) unavailable.get(p.passengerTypeId)?.push(product.label);
      }
      continue;
    }
    const covidApplied = trip.upgradeCovid && product.covidFeeCentsPerDay !== null;
    const planDiscount = discountForPlan(discount, product.id);
    const input: PricingInput = {
      days,
      rating: product.rating,
      passengers: passengers.map((p) => ({
        passengerTypeId: p.passengerTypeId,
        quantity: p.quantity,
        rateCents: p.rateCents ?? 0,
      })),
      promotionBp: product.promotionBp,
      discountCodeBp: planDiscount.percentBp,
      discountCodeCents: planDiscount.amountUsdCents,
      covidFeeCentsPerDay: covidApplied ? product.covidFeeCentsPerDay : null,
      taxBp: product.enableTax ? product.taxBp : null,
      clpPerUsd,
    };
    const price = priceTrip(input);
    plans.push({
      product,
      price,
      benefits: planBenefits
        .filter((b) => b.productId === product.id)
        .map((b) => ({ id: b.id, label: b.label, value: b.value, isPriority: b.isPriority })),
      covidApplied,
      discount: planDiscount,
      isBestCoverage: false,
      passengerCount: passengers.reduce((sum, p) => sum + p.quantity, 0),
      perPassengerType: pricePerPassengerType(input).map((one) => ({
        ...one,
        quantity: passengers.find((p) => p.passengerTypeId === one.passengerTypeId)?.quantity ?? 0,
      })),
    });
  }
  const bestCoverage = Math.max(0, ...plans.map((plan) => plan.product.medicalLimitUsd));
  for (const plan of plans) plan.isBestCoverage = plan.product.medicalLimitUsd === bestCoverage;
  return {
    plans,
    discount: tripDiscount(discount, plans),
    clpPerUsd,
    days,
    unavailable: [...unavailable].map(([passengerTypeId, planNames]) => ({ passengerTypeId, planNames })),
  };
}

/** The code's outcome for the whole trip: applied if it applied to any plan, else what the plans were told. */
function tripDiscount(resolution: DiscountResolution, plans: PricedPlan[]): DiscountOutcome {
  return plans.find((plan) => plan.discount.status === 'applied')?.discount ?? discountForPlan(resolution, null);
}

/** A plan's IVA in basis points (1900 = 19 %), or null when the plan carries none (its documents are exentos). */
export async function planTaxBp(db: Database, productId: number): Promise<number | null> {
  const [product] = await repository.listProductsByIds(db, [productId]);
  return product?.enableTax ? product.taxBp : null;
}

/** A plan's name and benefits with their limits, in display order. */
export async function planSummary(db: Database, productId: number) {
  const [product] = await repository.listProductsByIds(db, [productId]);
  const benefits = await repository.listBenefits(db, [productId]);
  return {
    label: product?.label ?? '',
    benefits: benefits.map((benefit) => ({ label: benefit.label, value: benefit.value })),
  };
}

export type CovidUpgradePrice = {
  offered: boolean;
  perPassengerPerDay: {
    fromUsd: string;
    toUsd: string;
    fromClp: number;
    toClp: number;
    /** The same four amounts as the store shows them (`USD 0,90`, `$854`). */
    formatted: { fromUsd: string; toUsd: string; fromClp: string; toClp: string };
  } | null;
};

/**
 * What the covid upgrade costs before a trip is quoted (issue #13: its modal states the price): the lowest and
 * highest fee per passenger and per day among the company's plans that offer it, in USD and in CLP at today's rate.
 * Plans with tax add it on top, as on the rest of their price (pricing.ts).
 */
export async function covidUpgradePrice(db: Database, companyId: number): Promise<CovidUpgradePrice> {
  const [fees, clpPerUsd] = await Promise.all([
    readCache(db).get(`covid-fees:${companyId}`, () => repository.listCovidFees(db, companyId)),
    catalog.currentRate(db, companyId),
  ]);
  if (fees.length === 0) return { offered: false, perPassengerPerDay: null };
  const from = Math.min(...fees);
  const to = Math.max(...fees);
  const usd = (cents: number) => (cents / 100).toFixed(2);
  const fromClp = convertUsdToClp(usd(from), clpPerUsd);
  const toClp = convertUsdToClp(usd(to), clpPerUsd);
  return {
    offered: true,
    perPassengerPerDay: {
      fromUsd: usd(from),
      toUsd: usd(to),
      fromClp,
      toClp,
      formatted: {
        fromUsd: formatUsd(from / 100),
        toUsd: formatUsd(to / 100),
        fromClp: formatClp(fromClp),
        toClp: formatClp(toClp),
      },
    },
  };
}
