import { unselectedPreviewPlanId } from '@travesia/domain/ids';
import { currencies, formatClp, formatUsd } from '@travesia/domain/money';
import { instalmentClp, interestFreeInstalments, perPassengerPerDayCents } from '@travesia/domain/pricing';
import type { AddOnOffer } from './add-ons.ts';
import type { ComparatorPlan, ListingPlan, PlanAddOn, PreviewPlan } from './schemas.ts';
import type { DiscountOutcome, PricedPlan, TripPricing } from './service.ts';

const usd = (cents: number) => cents / 100;

/** Where the storefront finds a plan's general conditions (plan-files.ts serves them); null when it has none. */
export const conditionsPath = (conditionsKey: string | null) =>
  conditionsKey === null ? null : `/api/${conditionsKey}`;

/** The fields issue 25 added to the plan card and the comparator (spec §7 names kept, fields only added). */
const planTexts = (product: PricedPlan['product']) => ({
  paraQuien: product.audience,
  porQueIva: product.taxReason,
  condicionesGenerales: conditionsPath(product.conditionsKey),
});
const taxMultiplier = (bp: number) => 1 + bp / 10_000;
const publicDiscount = (discount: DiscountOutcome) => ({
  code: discount.code,
  status: discount.status,
  message: discount.message,
});

function descriptor(currency: (typeof currencies)[keyof typeof currencies], id: number) {
  return {
    code: currency.code,
    id,
    decimals: currency.decimals,
    separator: currency.dotThousands ? 1 : 0,
    symbol: currency.symbol,
    culture: currency.culture,
  };
}

/** What the buyer pays by instalment and per traveller per day: computed from the priced plan, never by clients. */
function pricedExtras(plan: PricedPlan) {
  const { price } = plan;
  const perDay = usd(perPassengerPerDayCents(price, plan.passengerCount));
  const instalment = instalmentClp(price.totalClp, interestFreeInstalments);
  return {
    passengerCount: plan.passengerCount,
    instalments: { count: interestFreeInstalments, amountClp: instalment, formatted: formatClp(instalment) },
    perPassengerPerDay: { amountUsd: perDay, formatted: formatUsd(perDay), averaged: plan.perPassengerType.length > 1 },
  };
}

/** One traveller of a band priced alone, in both currencies as the store shows them (plans and add-ons alike). */
function perPassengerPrice(one: {
  passengerTypeId: number;
  quantity: number;
  price: { totalCents: number; totalClp: number };
}) {
  return {
    passengerTypeId: one.passengerTypeId,
    quantity: one.quantity,
    amountClp: one.price.totalClp,
    formatted: formatClp(one.price.totalClp),
    amountUsd: usd(one.price.totalCents),
    formattedUsd: formatUsd(usd(one.price.totalCents)),
  };
}

/**
 * The add-ons offered with the plan (issue 27 §1, add-ons.ts `offersFor`): each priced for one traveller of every band
 * that may buy it, the lowest of those, and the travelling bands it leaves out.
 */
function offeredAddOns(plan: PricedPlan, offers: readonly AddOnOffer[]): { adicionales: PlanAddOn[] } {
  const quantityOf = (passengerTypeId: number) =>
    plan.perPassengerType.find((one) => one.passengerTypeId === passengerTypeId)?.quantity ?? 0;
  return {
    adicionales: offers.map(({ addOn, bands }) => {
      const perPassenger = bands.flatMap(({ passengerTypeId, price }) =>
        price ? [perPassengerPrice({ passengerTypeId, quantity: quantityOf(passengerTypeId), price })] : [],
      );
      const lowest = perPassenger.reduce((low, one) => (one.amountUsd < low.amountUsd ? one : low));
      return {
        id: addOn.id,
        code: addOn.code,
        name: addOn.name,
        description: addOn.description,
        perPassenger,
        from: {
          amountClp: lowest.amountClp,
          formatted: lowest.formatted,
          amountUsd: lowest.amountUsd,
          formattedUsd: lowest.formattedUsd,
        },
        unavailableFor: bands.filter((band) => !band.eligibility.eligible).map((band) => band.passengerTypeId),
      };
    }),
  };
}

/** A plan of the listing; `offers`: its add-ons (add-ons.ts `offersFor`). */
export function toListingPlan(plan: PricedPlan, pricing: TripPricing, offers: readonly AddOnOffer[]): ListingPlan {
  const { product, price } = plan;
  return {
    id: product.id,
    label: product.label,
    bestOption:
      product.bestOptionLabel && product.bestOptionColor
        ? { label: product.bestOptionLabel, color: product.bestOptionColor, arrowColor: product.arrowColor ?? '' }
        : null,
    image: { original: product.image, small: product.imageSmall },
    enableTax: product.enableTax,
    isCovidupgrade: plan.covidApplied,
    covidUpgradeAvailable: product.covidFeeCentsPerDay !== null,
    valorPlan: usd(price.planValueCents),
    valorTipoCambio: Number(pricing.clpPerUsd),
    montoConversion: price.totalClp,
    discount: price.discountBp / 100,
    montoDescuento: usd(price.discountCents),
    montoNeto: usd(price.netCents),
    montoCovid: usd(price.covidCents),
    tax: taxMultiplier(price.taxBp),
    montoTax: usd(price.taxCents),
    totalAmount: usd(price.totalCents),
    valorDia: usd(price.perDayCents),
    dias: price.days,
    mejorPlan: product.isBestSeller,
    mejorCobertura: plan.isBestCoverage,
    coberturaMedica: product.medicalLimitUsd,
    ...planTexts(product),
    benefits: plan.benefits,
    discountCode: publicDiscount(plan.discount),
    formatted: {
      totalAmount: formatUsd(usd(price.totalCents)),
      before: formatUsd(usd(price.planValueCents)),
      perDay: formatUsd(usd(price.perDayCents)),
      montoConversion: formatClp(price.totalClp),
    },
    ...pricedExtras(plan),
    ...offeredAddOns(plan, offers),
    perPassenger: plan.perPassengerType.map(perPassengerPrice),
  };
}

/** A plan of the comparator; `offers`: its add-ons (add-ons.ts `offersFor`). */
export function toComparatorPlan(
  plan: PricedPlan,
  pricing: TripPricing,
  offers: readonly AddOnOffer[],
): ComparatorPlan {
  const { product, price } = plan;
  return {
    id: product.id,
    label: product.label,
    color: product.color,
    arrowColor: product.arrowColor,
    mejorPlan: product.isBestSeller,
    mejorCobertura: plan.isBestCoverage,
    original: product.image,
    colorTitulo: product.titleColor,
    valorDia: usd(price.perDayCents),
    tipoCambio: Number(pricing.clpPerUsd),
    amount: usd(price.planValueCents),
    valorDCTO: usd(price.discountCents),
    valorCONDCTO: usd(price.netCents),
    tax: taxMultiplier(price.taxBp),
    montoTAX: usd(price.taxCents),
    totalAmount: usd(price.totalCents),
    montoConversion: price.totalClp,
    montoTotalFormateado: formatUsd(usd(price.totalCents)),
    montoAntesFormateado: formatUsd(usd(price.planValueCents)),
    valorDiaFormateado: formatUsd(usd(price.perDayCents)),
    montoConversionFormateado: formatClp(price.totalClp),
    existeDescuentoAplicado: price.discountCents > 0,
    monedaConvertida: descriptor(currencies.CLP, 1),
    monedaOrigen: descriptor(currencies.USD, 2),
    prestaciones: plan.benefits.map((b) => ({ idPlan: product.id, detallePrestacion: b.label, limite: b.value })),
    benefits: plan.benefits,
    bestOptionLabel: product.bestOptionLabel,
    ...planTexts(product),
    dias: price.days,
    discountCode: publicDiscount(plan.discount),
    ...pricedExtras(plan),
    ...offeredAddOns(plan, offers),
  };
}

export function toPreviewPlan(plan: PricedPlan, pricing: TripPricing): PreviewPlan {
  const { product, price } = plan;
  return {
    id: product.id,
    label: product.label,
    amount: usd(price.planValueCents),
    totalAmount: usd(price.totalCents),
    tax: taxMultiplier(price.taxBp),
    valorDia: usd(price.perDayCents),
    valorDCTO: usd(price.discountCents),
    valorCONDCTO: usd(price.netCents),
    montoConversion: price.totalClp,
    mejorPlan: product.isBestSeller,
    mejorCobertura: plan.isBestCoverage,
    arrowColor: product.arrowColor,
    original: product.image,
    colorTitulo: product.titleColor,
    selected: product.id !== unselectedPreviewPlanId,
    prestaciones: plan.benefits.map((b) => ({ detallePrestacion: b.label, limite: b.value })),
    tipoCambio: Number(pricing.clpPerUsd),
    siglaMonedaOrigen: currencies.USD.code,
    siglaMonedaConvertida: currencies.CLP.code,
    simboloMonedaOrigen: currencies.USD.symbol,
    simboloMonedaConvertida: currencies.CLP.symbol,
    cultureMonedaOrigen: currencies.USD.culture,
    cultureMonedaConvertida: currencies.CLP.culture,
    puntoSeparadorMonedaOrigen: currencies.USD.dotThousands ? 1 : 0,
    puntoSeparadorMonedaConvertida: currencies.CLP.dotThousands ? 1 : 0,
    nDecimalesMonedaOrigen: currencies.USD.decimals,
    nDecimalesMonedaConvertida: currencies.CLP.decimals,
    ...pricedExtras(plan),
  };
}
