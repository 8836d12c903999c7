import { buyableAfterPurchaseOn } from '@travesia/domain/add-ons';
import { todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import { formatClp } from '@travesia/domain/money';
import { ApiError, type FieldError } from '#app/errors.ts';
import { addOnsKeyOf } from '#app/modules/payments/add-ons.ts';
import {
  destinationCountryOfSnapshot,
  type PaymentDeps,
  type PurchasedAddOn,
  type PurchaseSnapshot,
  recordDateChangeRequest,
  startDateChangePayment,
} from '#app/modules/payments/service.ts';
import {
  type AddOnRow,
  eligibilityOf,
  eligiblePricing,
  listAddOns,
  priceAddOnFor,
  pricingWords,
} from '#app/modules/plans/add-ons.ts';
import { boughtPlanPriced, changeableSale, changeRefusal } from './date-change.ts';

/**
 * Add-ons bought from «Mi compra» after the purchase (issue 27 §1): until the departure day, the buyer adds to a
 * traveller an add-on marked «buyable after purchase» that the traveller may buy (age band, the trip's modality and
 * region, the plan) and has not bought. Priced like at checkout (the plan's price for one traveller of that band
 * today, the trip's days, today's rate), paid through the gateway as a change of the purchase (the date change's own
 * path: sale_date_changes of kind `add_ons`, a payment of the difference); when the gateway approves, the snapshot
 * gains the lines and the certificates are issued again. A withdrawal refunds them with everything else paid.
 */

export type AddOnPurchaseInput = { travellers: { seq: number; adicionales: number[] }[] };

export const addOnPurchaseMessages = {
  notBuyable: 'Este adicional no se puede agregar después de la compra.',
  alreadyBought: 'Este pasajero ya tiene este adicional.',
  unknownTraveller: 'Ese pasajero no es de esta compra.',
  repeatedTraveller: 'Ese pasajero ya está en la lista: elige todos sus adicionales una sola vez.',
  nothingChosen: 'Elige al menos un adicional.',
  planUnavailable: 'Tu plan ya no se vende para estas fechas: no podemos agregar adicionales. Escríbenos y lo vemos.',
} as const;

type BoughtTraveller = PurchaseSnapshot['travellers'][number];

/** Who each offer may go to, priced: the add-ons each traveller of the sale can still add, or why none. */
async function offersOfSale(deps: Pick<PaymentDeps, 'db'>, saleId: number) {
  const { sale, bought } = await changeableSale(saleId, deps);
  const today = todayInChile();
  const [addOnList, priced] = await Promise.all([
    listAddOns(deps.db, sale.companyId),
    boughtPlanPriced(deps, sale.companyId, bought, bought.trip, sale.quotationId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 400) return null;
      throw error;
    }),
  ]);
  const offerFor = (traveller: BoughtTraveller, addOn: AddOnRow) => {
    if (!priced || traveller.passengerTypeId === undefined) return null;
    if (!buyableAfterPurchaseOn(addOn, today, bought.trip.departureDate)) return null;
    if ((traveller.addOns ?? []).some((line) => line.id === addOn.id)) return null;
    const eligibility = eligibilityOf(addOn, bought.trip, bought.plan.id, traveller.passengerTypeId);
    if (!eligibility.eligible) return null;
    return {
      addOn,
      pricing: eligiblePricing(addOn, bought.plan.id),
      price: priceAddOnFor(addOn, priced.plan, traveller.passengerTypeId, priced.clpPerUsd),
    };
  };
  const travellers = bought.travellers.map((traveller) => ({
    traveller,
    offers: addOnList.flatMap((addOn) => {
      const offer = offerFor(traveller, addOn);
      return offer ? [offer] : [];
    }),
  }));
  return { sale, bought, travellers, planSold: priced !== null };
}

/** GET /purchases/mine/add-ons: what the buyer can still add to each traveller, priced, or why not. */
export async function addOnsToBuy(deps: Pick<PaymentDeps, 'db'>, saleId: number) {
  const { travellers, planSold, bought } = await offersOfSale(deps, saleId);
  const planId = bought.plan.id;
  return {
    reason: planSold ? null : addOnPurchaseMessages.planUnavailable,
    travellers: travellers.map(({ traveller, offers }) => ({
      seq: traveller.seq,
      name: `${traveller.firstName} ${traveller.lastName}`,
      bought: (traveller.addOns ?? []).map((line) => line.name),
      offers: offers.map(({ addOn, price }) => ({
        id: addOn.id,
        name: addOn.name,
        description: addOn.description,
        precio: pricingWords(addOn, planId),
        benefits: addOn.benefits.map((benefit) => ({ label: benefit.label, value: benefit.value })),
        price: { amountClp: price.totalClp, formatted: formatClp(price.totalClp) },
      })),
    })),
  };
}

/**
 * POST /purchases/mine/add-ons: prices what the buyer chose (each must be on offer to that traveller now, or a 400 on
 * its field), records the change under the purchase lock and answers where to pay it. Nothing changes until the
 * gateway approves the payment.
 */
export async function buyAddOns(
  deps: PaymentDeps,
  saleId: number,
  input: AddOnPurchaseInput,
  returnUrl: (gatewayId: string) => string,
) {
  const { sale, bought, travellers } = await offersOfSale(deps, saleId);
  const errors: FieldError[] = [];
  const added = new Map<number, PurchasedAddOn[]>();
  const seen = new Set<number>();
  input.travellers.forEach((asked, index) => {
    const field = `travellers.${index}.adicionales`;
    // A traveller named twice would get (and pay for) the same add-on twice.
    if (seen.has(asked.seq)) {
      errors.push({
        field: `travellers.${index}.seq`,
        code: 'invalid_sequence',
        message: addOnPurchaseMessages.repeatedTraveller,
      });
      return;
    }
    seen.add(asked.seq);
    const found = travellers.find(({ traveller }) => traveller.seq === asked.seq);
    if (!found) {
      errors.push({
        field: `travellers.${index}.seq`,
        code: 'invalid',
        message: addOnPurchaseMessages.unknownTraveller,
      });
      return;
    }
    for (const addOnId of new Set(asked.adicionales)) {
      const offer = found.offers.find(({ addOn }) => addOn.id === addOnId);
      if (!offer) {
        const boughtAlready = (found.traveller.addOns ?? []).some((line) => line.id === addOnId);
        const message = boughtAlready ? addOnPurchaseMessages.alreadyBought : addOnPurchaseMessages.notBuyable;
        errors.push({ field, code: 'add_on_unavailable', message });
        continue;
      }
      const lines = added.get(asked.seq) ?? [];
      lines.push({
        id: offer.addOn.id,
        code: offer.addOn.code,
        name: offer.addOn.name,
        description: offer.addOn.description,
        benefits: offer.addOn.benefits.map((benefit) => ({ label: benefit.label, value: benefit.value })),
        pricing: offer.pricing,
        netCents: offer.price.netCents,
        taxCents: offer.price.taxCents,
        totalUsdCents: offer.price.totalCents,
        totalClp: offer.price.totalClp,
        boughtAfterPurchase: true,
      });
      added.set(asked.seq, lines);
    }
  });
  if (errors.length === 0 && added.size === 0) {
    errors.push({ field: 'travellers', code: 'required', message: addOnPurchaseMessages.nothingChosen });
  }
  if (errors.length > 0) throw new ApiError(400, errorMessages.invalidInputs, errors);

  const lines = [...added.values()].flat();
  const usdCents = lines.reduce((sum, line) => sum + line.totalUsdCents, 0);
  const clp = lines.reduce((sum, line) => sum + line.totalClp, 0);
  const before = bought.price.addOns ?? { totalUsdCents: 0, totalClp: 0 };
  const purchase: PurchaseSnapshot = {
    ...bought,
    travellers: bought.travellers.map((traveller) => ({
      ...traveller,
      addOns: [...(traveller.addOns ?? []), ...(added.get(traveller.seq) ?? [])],
    })),
    price: {
      ...bought.price,
      totalUsdCents: sale.amountUsdCents + usdCents,
      totalClp: sale.amountClp + clp,
      plan: bought.price.plan ?? {
        totalUsdCents: sale.amountUsdCents - before.totalUsdCents,
        totalClp: sale.amountClp - before.totalClp,
      },
      addOns: { totalUsdCents: before.totalUsdCents + usdCents, totalClp: before.totalClp + clp },
    },
  };
  const country = await destinationCountryOfSnapshot(deps.db, sale.quotationId, bought);
  const recorded = await recordDateChangeRequest(deps, {
    saleId,
    kind: 'add_ons',
    pricedFrom: {
      departureDate: bought.trip.departureDate,
      returnDate: bought.trip.returnDate,
      amountClp: sale.amountClp,
      destinationCountryId: country?.id ?? null,
      addOns: addOnsKeyOf(bought),
    },
    purchase,
  });
  if ('refused' in recorded) throw changeRefusal(recorded.refused, 'idVenta');

  const answer = { amountClp: clp, totalClp: purchase.price.totalClp };
  if (!recorded.payment) {
    // Free (a share of a plan that cost nothing): applied at once, the certificates issued again.
    deps.onPaid(saleId);
    return { ...answer, status: 'applied' as const, redirectUrl: null };
  }
  const { redirectUrl } = await startDateChangePayment(deps, recorded.payment, returnUrl);
  return { ...answer, status: 'awaiting_payment' as const, redirectUrl };
}
