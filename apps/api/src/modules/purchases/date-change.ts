import { priceAddOn } from '@travesia/domain/add-ons';
import { todayInChile, tripDays } from '@travesia/domain/dates';
import type { FieldError } from '@travesia/domain/field-errors';
import { errorMessages } from '@travesia/domain/messages';
import { ApiError } from '#app/errors.ts';
import { listCountriesOfDestination } from '#app/modules/catalog/service.ts';
import { addOnsKeyOf } from '#app/modules/payments/add-ons.ts';
import {
  isPartOf,
  listSaleRefunds,
  NothingToRefundError,
  type SaleRefund,
} from '#app/modules/payments/sale-refunds.ts';
import {
  type DestinationCountry,
  dateChangeRefundKey,
  destinationCountryOfSnapshot,
  findSale,
  listDateChanges,
  type PaymentDeps,
  type PurchaseSnapshot,
  recordDateChangeRequest,
  startDateChangePayment,
} from '#app/modules/payments/service.ts';
import { priceTripPlans, type Trip } from '#app/modules/plans/service.ts';

/**
 * A date change from «Mi compra» (issue #12): before the departure date (Chile time) the buyer of a paid sale picks
 * new dates, and may move the destination country inside the same region; the server reprices the same plan,
 * destination, modality and travellers with the quoter's own code (plans' priceTripPlans, which checks the dates by
 * the modality's rules), and the difference is paid through the gateway, refunded, or nothing. The destination is a
 * region (Europa, Norteamérica…) and the rates depend on it, so it stays; the country inside it (the checkout's
 * countryDestination, «País de destino» on the certificates) does not change the price.
 */

/** What the buyer asks: new dates, and optionally another country of the sale's destination region. */
export type DateChangeInput = { departureDate: string; returnDate: string; countryDestination?: number | undefined };
export type DateChangeAction = 'pay' | 'refund' | 'none';

export const dateChangeMessages = {
  tripStarted: 'Tu viaje ya comenzó: las fechas solo se pueden cambiar antes de la fecha de salida.',
  sameDates: 'Elige fechas distintas de las de tu compra.',
  notChangeable: 'Esta compra ya no se puede modificar.',
  changed: 'Tu compra cambió mientras confirmábamos; revisa el nuevo detalle e intenta nuevamente.',
  confirming: 'Hay un pago de esta compra en confirmación; espera su resultado e intenta nuevamente.',
  planUnavailable: 'Tu plan no está disponible para esas fechas.',
  countryOutsideRegion: 'El país de destino no pertenece a la región de tu compra.',
  notRefundable: 'No pudimos calcular la devolución de este cambio. Contáctanos y lo revisamos contigo.',
} as const;

export const conflict = (field: string, code: FieldError['code'], message: string) =>
  new ApiError(409, message, [{ field, code, message }]);

/**
 * The 409 for a change of a paid purchase that recordDateChangeRequest refused under the purchase lock; `changedField`
 * names what the buyer asked to change (the dates, or the sale for add-ons bought afterwards).
 */
export function changeRefusal(
  refused: 'changed' | 'confirming' | 'not_paid' | 'trip_started',
  changedField: 'departureDate' | 'idVenta',
) {
  switch (refused) {
    case 'trip_started':
      return conflict(changedField, 'trip_started', dateChangeMessages.tripStarted);
    case 'not_paid':
      return conflict('idVenta', 'not_changeable', dateChangeMessages.notChangeable);
    case 'confirming':
      return conflict('idVenta', 'payment_confirming', dateChangeMessages.confirming);
    default:
      return conflict(changedField, 'quotation_changed', dateChangeMessages.changed);
  }
}

/** The paid sale as it stands, or the 409 that says why its dates cannot change. */
export async function changeableSale(saleId: number, deps: Pick<PaymentDeps, 'db'>) {
  const sale = await findSale(deps.db, saleId);
  if (sale?.status !== 'paid' || !sale.purchase) {
    throw conflict('idVenta', 'not_changeable', dateChangeMessages.notChangeable);
  }
  if (todayInChile() >= sale.purchase.trip.departureDate) {
    throw conflict('departureDate', 'trip_started', dateChangeMessages.tripStarted);
  }
  return { sale, bought: sale.purchase };
}

/**
 * The country the change leads to: the sale's own when none is asked, else one of the countries of the sale's
 * destination region (the list GET /companies/{companyId}/destinations/{destinationId}/countries serves), or a 400.
 */
async function countryAsked(
  deps: Pick<PaymentDeps, 'db'>,
  sale: { companyId: number },
  bought: PurchaseSnapshot,
  current: DestinationCountry | null,
  asked: number | undefined,
): Promise<DestinationCountry | null> {
  if (asked === undefined || asked === current?.id) return current;
  const countries = await listCountriesOfDestination(deps.db, sale.companyId, bought.trip.destinationId);
  const country = countries.find((candidate) => candidate.id === asked);
  if (!country) {
    const message = dateChangeMessages.countryOutsideRegion;
    throw new ApiError(400, errorMessages.invalidInputs, [
      { field: 'countryDestination', code: 'country_outside_region', message },
    ]);
  }
  return { id: country.id, label: country.label };
}

/**
 * The bought plan priced today for these dates (the quoter's own pricing: its date rules and field errors), or a 400
 * when it is no longer sold for them; with the rate it was converted at.
 */
export async function boughtPlanPriced(
  deps: Pick<PaymentDeps, 'db'>,
  companyId: number,
  bought: PurchaseSnapshot,
  dates: { departureDate: string; returnDate: string },
  quotationId: string,
) {
  const trip: Trip = {
    originId: bought.trip.originId,
    destinationId: bought.trip.destinationId,
    modalityId: bought.trip.modalityId,
    departureDate: dates.departureDate,
    returnDate: dates.returnDate,
    passengers: bought.trip.passengers,
    discountCode: bought.trip.discountCode,
    upgradeCovid: bought.trip.upgradeCovid,
    // The same purchase: the code it paid with keeps applying (its own use never counts against it).
    discountContext: { quotationId },
  };
  const pricing = await priceTripPlans(deps.db, companyId, trip, errorMessages.invalidInputs);
  const plan = pricing.plans.find((candidate) => candidate.product.id === bought.plan.id);
  if (!plan) {
    const message = dateChangeMessages.planUnavailable;
    throw new ApiError(400, errorMessages.invalidInputs, [
      { field: 'departureDate', code: 'plan_unavailable', message },
    ]);
  }
  return { plan, clpPerUsd: pricing.clpPerUsd };
}

/** The bought plan's price for other dates, its add-ons re-priced with it. */
async function priceForDates(
  deps: Pick<PaymentDeps, 'db'>,
  companyId: number,
  bought: PurchaseSnapshot,
  dates: { departureDate: string; returnDate: string },
  quotationId: string,
): Promise<Pick<PurchaseSnapshot, 'price' | 'travellers'>> {
  const { plan, clpPerUsd } = await boughtPlanPriced(deps, companyId, bought, dates, quotationId);
  // Each add-on bought is re-priced with the rule it was sold under, for the new days and the plan's new price.
  const taxBp = plan.product.enableTax ? plan.product.taxBp : null;
  const travellers = bought.travellers.map((traveller) => ({
    ...traveller,
    ...(traveller.addOns
      ? {
          addOns: traveller.addOns.map((line) => {
            const band = plan.perPassengerType.find((one) => one.passengerTypeId === traveller.passengerTypeId);
            const price = priceAddOn({
              pricing: line.pricing,
              days: plan.price.days,
              planNetCents: band?.price.netCents ?? 0,
              taxBp,
              clpPerUsd,
            });
            const { netCents, taxCents, totalCents: totalUsdCents, totalClp } = price;
            return { ...line, netCents, taxCents, totalUsdCents, totalClp };
          }),
        }
      : {}),
  }));
  const lines = travellers.flatMap((traveller) => traveller.addOns ?? []);
  const addOns = {
    totalUsdCents: lines.reduce((sum, line) => sum + line.totalUsdCents, 0),
    totalClp: lines.reduce((sum, line) => sum + line.totalClp, 0),
  };
  return {
    price: {
      totalUsdCents: plan.price.totalCents + addOns.totalUsdCents,
      totalClp: plan.price.totalClp + addOns.totalClp,
      clpPerUsd,
      ...(bought.price.plan ? { plan: { totalUsdCents: plan.price.totalCents, totalClp: plan.price.totalClp } } : {}),
      ...(bought.price.addOns ? { addOns } : {}),
    },
    travellers,
  };
}

/**
 * Reprices the bought plan for the new dates (and country): the snapshot the sale would keep, and the difference with
 * what was paid. The country does not change the price: a change of the country alone keeps what was paid (repricing
 * it at today's rates would refund or charge the buyer for catalogue moves that have nothing to do with the change).
 */
async function reprice(deps: Pick<PaymentDeps, 'db'>, saleId: number, input: DateChangeInput) {
  const { sale, bought } = await changeableSale(saleId, deps);
  const current = await destinationCountryOfSnapshot(deps.db, sale.quotationId, bought);
  const country = await countryAsked(deps, sale, bought, current, input.countryDestination);
  const dates = { departureDate: input.departureDate, returnDate: input.returnDate };
  const datesChanged = dates.departureDate !== bought.trip.departureDate || dates.returnDate !== bought.trip.returnDate;
  if (!datesChanged && country?.id === current?.id) {
    const message = dateChangeMessages.sameDates;
    throw new ApiError(400, errorMessages.invalidInputs, [{ field: 'departureDate', code: 'same_dates', message }]);
  }
  const repriced = datesChanged
    ? await priceForDates(deps, sale.companyId, bought, dates, sale.quotationId)
    : {
        price: { ...bought.price, totalUsdCents: sale.amountUsdCents, totalClp: sale.amountClp },
        travellers: bought.travellers,
      };
  const purchase: PurchaseSnapshot = {
    ...bought,
    travellers: repriced.travellers,
    trip: {
      ...bought.trip,
      ...dates,
      days: tripDays(dates.departureDate, dates.returnDate),
      destinationCountry: country,
    },
    price: repriced.price,
  };
  const differenceClp = purchase.price.totalClp - sale.amountClp;
  const action: DateChangeAction = differenceClp > 0 ? 'pay' : differenceClp < 0 ? 'refund' : 'none';
  return { sale, purchase, differenceClp, action, previousCountry: current };
}

/** POST /purchases/mine/date-change/preview: the new price and what confirming would do, nothing written. */
export async function previewDateChange(deps: Pick<PaymentDeps, 'db'>, saleId: number, input: DateChangeInput) {
  const { sale, purchase, differenceClp, action } = await reprice(deps, saleId, input);
  return {
    departureDate: purchase.trip.departureDate,
    returnDate: purchase.trip.returnDate,
    days: purchase.trip.days,
    destinationCountry: purchase.trip.destinationCountry ?? null,
    amountClp: purchase.price.totalClp,
    amountUsd: purchase.price.totalUsdCents / 100,
    paidClp: sale.amountClp,
    differenceClp,
    differenceUsd: (purchase.price.totalUsdCents - sale.amountUsdCents) / 100,
    action,
  };
}

/**
 * POST /purchases/mine/date-change: reprices as the preview did and records the change under the purchase lock. A
 * higher price answers where to pay the difference (nothing changes until that payment is authorized); a lower or
 * equal one is applied now (new certificates e-mailed) and a lower one's difference is asked back from the gateway.
 */
export async function confirmDateChange(
  deps: PaymentDeps & { nudgeRefunds: () => void },
  saleId: number,
  input: DateChangeInput,
  returnUrl: (gatewayId: string) => string,
) {
  const { sale, purchase, differenceClp, action, previousCountry } = await reprice(deps, saleId, input);
  const recorded = await recordDateChangeRequest(deps, {
    saleId,
    pricedFrom: {
      departureDate: sale.purchase?.trip.departureDate ?? '',
      returnDate: sale.purchase?.trip.returnDate ?? '',
      amountClp: sale.amountClp,
      destinationCountryId: previousCountry?.id ?? null,
      addOns: sale.purchase ? addOnsKeyOf(sale.purchase) : '',
    },
    purchase,
  }).catch((error: unknown) => {
    // The sale's payments cannot give the difference back (records that do not add up): nothing was written.
    if (error instanceof NothingToRefundError) {
      throw conflict('idVenta', 'not_changeable', dateChangeMessages.notRefundable);
    }
    throw error;
  });
  if ('refused' in recorded) throw changeRefusal(recorded.refused, 'departureDate');
  const answer = {
    action,
    status: recorded.change.status === 'applied' ? ('applied' as const) : ('awaiting_payment' as const),
    departureDate: purchase.trip.departureDate,
    returnDate: purchase.trip.returnDate,
    destinationCountry: purchase.trip.destinationCountry ?? null,
    amountClp: purchase.price.totalClp,
    differenceClp,
    redirectUrl: null as string | null,
  };
  if (recorded.payment) {
    const { redirectUrl } = await startDateChangePayment(deps, recorded.payment, returnUrl);
    return { ...answer, redirectUrl };
  }
  deps.onPaid(saleId);
  if (differenceClp < 0) deps.nudgeRefunds();
  return answer;
}

const refundTexts = {
  pending: 'reembolso en proceso',
  refunded: 'reembolsado',
  manual: 'reembolsado por transferencia',
} as const;
const refundText = (refund: { status: 'pending' | 'refunded'; method: string | null } | undefined) =>
  refund ? refundTexts[refund.method === 'manual' ? 'manual' : refund.status] : null;

/** A change's refund as one (it may be drawn from several payments): refunded once every part is, by hand if any was. */
function refundOfParts(parts: SaleRefund[]) {
  if (parts.length === 0) return undefined;
  return {
    status: parts.every((part) => part.status === 'refunded') ? ('refunded' as const) : ('pending' as const),
    method: parts.some((part) => part.method === 'manual') ? 'manual' : (parts[0]?.method ?? null),
    refused: parts.some((part) => part.status === 'pending' && part.lastError !== null),
  };
}

/**
 * The sale's date changes for «Mi compra», newest first: what changed, the difference and its refund, and whether the
 * gateway has refused (or not answered) that refund so far (a debit card is not partly refunded by Webpay).
 */
export async function dateChangeHistory(deps: Pick<PaymentDeps, 'db'>, saleId: number) {
  const [changes, refunds] = await Promise.all([listDateChanges(deps.db, saleId), listSaleRefunds(deps.db, saleId)]);
  const refundOf = (changeId: number) =>
    refundOfParts(refunds.filter((refund) => isPartOf(refund, dateChangeRefundKey(changeId))));
  // Add-ons bought afterwards ride the same records; «Mi compra» shows them with each traveller, not as date changes.
  return changes
    .filter((change) => change.status === 'applied' && change.kind === 'dates')
    .map((change) => ({
      appliedAt: (change.appliedAt ?? change.createdAt).toISOString(),
      previousDepartureDate: change.previousDepartureDate,
      previousReturnDate: change.previousReturnDate,
      departureDate: change.departureDate,
      returnDate: change.returnDate,
      previousDestinationCountry: change.previousDestinationCountry?.label ?? null,
      destinationCountry: change.destinationCountry?.label ?? null,
      differenceClp: change.differenceClp,
      ...((refund) => ({
        refund: refundText(refund),
        refundRefused: refund?.status === 'pending' && refund.refused,
      }))(refundOf(change.id)),
    }));
}
