import { buyerKeys, buyerOf } from '@travesia/domain/buyer';
import { consentVersion, dataProcessingConsentRequired } from '@travesia/domain/consents';
import { todayInChile, tripDays } from '@travesia/domain/dates';
import type { Rule } from '@travesia/domain/field-errors';
import { errorMessages } from '@travesia/domain/messages';
import { formatClp, formatUsd } from '@travesia/domain/money';
import { paymentTypeLabel } from '@travesia/domain/payment-types';
import { instalmentClp, interestFreeInstalments } from '@travesia/domain/pricing';
import { alreadyPaid } from '@travesia/domain/rules';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError, resourceNotFound } from '#app/errors.ts';
import {
  type ConfirmResult,
  emptyResult,
  type GatewayReturn,
  type GatewayStatus,
  identifyReturn,
  type PaymentGateway,
} from '#app/integrations/payments/gateway.ts';
import { sandboxGatewayId } from '#app/integrations/payments/sandbox.ts';
import { webpayTimeoutMs } from '#app/integrations/payments/webpay.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { accessTokenMatches } from '#app/lib/security/access-token.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { findInvoiceDetails } from '#app/modules/invoices/service.ts';
import { currentLegalVersions } from '#app/modules/legal/service.ts';
import { destinationCountryOf, listTravellers } from '#app/modules/passengers/service.ts';
import {
  type AddOnChoiceProblem,
  addOnsTotal,
  type ChosenAddOnLine,
  listAddOns,
  offersFor,
  priceChoices,
  pricingWords,
} from '#app/modules/plans/add-ons.ts';
import {
  holdDiscountUse,
  type PricedPlan,
  paymentRefusalOf,
  planSummary,
  priceTripPlans,
  recordDiscountUse,
  releaseDiscountUse,
  reserveDiscountUse,
  type UseToReserve,
} from '#app/modules/plans/service.ts';
import { changedAfterStartDetail, confirmingMessage } from '#app/modules/quotations/purchase-lock.ts';
import {
  getQuotation,
  getQuotationOfAnyCompany,
  quotationVersion,
  recordDateChange,
  tripOfQuotation,
} from '#app/modules/quotations/service.ts';
import { addOnsKeyOf } from './add-ons.ts';
import * as repository from './repository.ts';
import { requestSaleRefund } from './sale-refunds.ts';
import { type DestinationCountry, type PurchasedAddOn, type PurchaseSnapshot, wasPaid } from './tables.ts';

export type Gateways = Map<string, PaymentGateway>;

export type { DestinationCountry, PurchasedAddOn, PurchaseSnapshot, SaleStatus } from './tables.ts';
export { saleStatuses, wasPaid, wasWithdrawn } from './tables.ts';

/** A sale by id (any status), for the modules that issue and send its documents. */
export const findSale = repository.findSaleOfQuotationBySaleId;

/** Sales by id, one query for all of them (a certificate search lists up to a hundred). */
export const findSales = repository.findSalesByIds;

/** The quotation's one sale, if a payment was ever started. */
export const findSaleOfQuotation = repository.findSaleOfQuotation;

/** The attempt that paid a sale, for «Mi compra» and its receipt (gateway, card type, instalments, authorization). */
export const findPaidAttempt = repository.findAuthorizedPaymentOfSale;

/**
 * Takes the purchase lock of the sale's quotation, then the sale's row lock (the order every writer of a purchase
 * follows), inside the caller's transaction; answers the locked sale, or undefined for an unknown one.
 */
export const lockSaleOfPurchase = repository.lockSaleOfPurchase;

/**
 * The steps of a purchase that belong to other modules, run by this module at its moments inside its own
 * transactions: the purchase workflow (workflows/purchase.ts) supplies them, so payments never imports the modules
 * that act on a paid sale (certificates).
 */
export type PurchaseSteps = {
  /** The sale was just marked paid (purchase and sale locks held, same transaction): issue what it bought. */
  salePaid: (tx: Database, sale: repository.SaleRow) => Promise<void>;
  /** A date change was applied to a paid sale and its quotation (same transaction): its documents follow. */
  dateChangeApplied: (tx: Database, sale: repository.SaleRow, change: DateChangeRow) => Promise<void>;
  /** The certificates of a sale, as the payment result lists them. */
  certificatesOf: (db: Database, saleId: number) => Promise<{ number: string; firstName: string; lastName: string }[]>;
};

export type PaymentDeps = {
  db: Database;
  gateways: Gateways;
  log: FastifyBaseLogger;
  /** Called after a sale becomes paid (the e-mail worker is nudged). */
  onPaid: (saleId: number) => void;
  /** The purchase workflow's steps (workflows/purchase.ts), run at this module's moments. */
  workflow: PurchaseSteps;
};

/**
 * The sale becomes paid with what its paying attempt bought, and the workflow's step issues what it bought, in the caller's
 * transaction (purchase lock and sale lock held): both or neither.
 */
export async function markSalePaid(
  tx: Database,
  sale: repository.SaleRow,
  bought: Parameters<typeof repository.markSalePaid>[2],
  workflow: Pick<PurchaseSteps, 'salePaid'>,
) {
  await repository.markSalePaid(tx, sale, bought);
  await recordDiscountUse(tx, sale);
  await workflow.salePaid(tx, sale);
}

const invalid = (errors: FieldError[]) => new ApiError(400, errorMessages.invalidInputs, errors);

const startRefusals = {
  changed: {
    code: 'quotation_changed',
    message: 'La cotización cambió mientras iniciábamos el pago; revisa el detalle e intenta nuevamente',
  },
  paid: alreadyPaid,
  confirming: { code: 'payment_confirming', message: confirmingMessage },
} as const satisfies Record<string, Rule>;

type StartInput = {
  quotationId: string;
  gatewayId: string;
  consents?: { dataProcessing: boolean; marketing: boolean } | undefined;
  returnUrl: (gatewayId: string) => string;
};

/**
 * POST /payments: prices the quotation's chosen plan on the server, records the sale (one per quotation) and a
 * payment attempt, and asks the gateway where to send the payer. The browser never says how much.
 */
export async function startPayment(
  deps: PaymentDeps,
  input: StartInput,
): Promise<{ redirectUrl: string; idVenta: number; idTransaction: number; accessToken: string }> {
  const { db } = deps;
  // The version first: whatever is read after it, a change made meanwhile moves it and the attempt will not open.
  const pricedVersion = await quotationVersion(db, input.quotationId);
  const { quotation, gateway, travellers } = await payableQuotation(deps, input);
  const { plan, pricing, purchase, version, discountUse } = await pricedPurchase(
    db,
    quotation,
    travellers,
    input,
    pricedVersion,
  );
  // Everything above was read without a lock; the attempt opens only if none of it changed meanwhile.
  const opened = await repository.openAttempt(db, {
    quotationId: quotation.id,
    pricedVersion: version,
    sale: {
      companyId: quotation.company,
      productId: plan.product.id,
      // The plan and every traveller's add-ons (priced with it in pricedPurchase): what the gateway charges.
      amountUsdCents: purchase.price.totalUsdCents,
      amountClp: purchase.price.totalClp,
      clpPerUsd: pricing.clpPerUsd,
    },
    gateway: gateway.id,
    purchase,
    // The code's use is taken under its row lock in the attempt's transaction, or the attempt does not open.
    reserveDiscount: (tx) => reserveDiscountUse(tx, discountUse),
  });
  if ('refused' in opened) {
    const rule = opened.refused === 'discount' ? opened.rule : startRefusals[opened.refused];
    throw invalid([{ field: 'quotationId', ...rule }]);
  }
  const { sale, payment } = opened;
  const started = await askGatewayToStart(deps, gateway, payment, input.returnUrl);
  deps.log.info({ saleId: sale.id, paymentId: payment.id, gateway: gateway.id }, 'payment started');
  return {
    redirectUrl: started.redirectUrl,
    idVenta: sale.id,
    idTransaction: payment.id,
    accessToken: payment.accessToken,
  };
}

/**
 * The start's first step: the quotation can be paid now (not paid yet, a plan chosen, exactly the quoted
 * travellers, billing data, consent, a gateway the company offers), or a 400 with every problem found.
 */
async function payableQuotation(deps: PaymentDeps, input: StartInput) {
  const { db } = deps;
  const quotation = await getQuotationOfAnyCompany(db, input.quotationId);
  const [travellers, invoice, companyGateways, existingSale] = await Promise.all([
    listTravellers(db, quotation.id),
    findInvoiceDetails(db, quotation.id),
    catalog.listPaymentGateways(db, quotation.company),
    repository.findSaleOfQuotation(db, quotation.id),
  ]);
  if (wasPaid(existingSale?.status)) throw invalid([{ field: 'quotationId', ...alreadyPaid }]);
  const problems: FieldError[] = [];
  if (quotation.planId === null) {
    problems.push({ field: 'quotationId', code: 'plan_required', message: 'Elige un plan antes de pagar' });
  }
  problems.push(...travellerProblems(quotation, travellers));
  if (!invoice) {
    problems.push({
      field: 'quotationId',
      code: 'billing_missing',
      message: 'Completa los datos de facturación antes de pagar',
    });
  }
  if (input.consents?.dataProcessing !== true) {
    problems.push({ field: 'consents.dataProcessing', ...dataProcessingConsentRequired });
  }
  const gateway = deps.gateways.get(input.gatewayId);
  if (!gateway || !companyGateways.some((g) => g.id === input.gatewayId)) {
    problems.push({ field: 'gatewayId', code: 'not_available', message: 'Medio de pago no disponible' });
  }
  if (problems.length > 0 || !gateway || quotation.planId === null) throw invalid(problems);
  return { quotation: { ...quotation, planId: quotation.planId }, gateway, travellers };
}

type QuotationToPay = Awaited<ReturnType<typeof getQuotationOfAnyCompany>>;
type TravellerToPay = Awaited<ReturnType<typeof listTravellers>>[number];

/** The travellers saved must be exactly the quoted ones by age band (the trip may have changed since). */
function travellerProblems(quotation: QuotationToPay, travellers: TravellerToPay[]): FieldError[] {
  const quoted = quotation.passangerTypes.map((p) => `${p.passengerTypeId}:${p.quantity}`).sort();
  const countsOfTravellers = new Map<number, number>();
  for (const person of travellers) {
    countsOfTravellers.set(person.passengerTypeId, (countsOfTravellers.get(person.passengerTypeId) ?? 0) + 1);
  }
  const saved = [...countsOfTravellers].map(([type, quantity]) => `${type}:${quantity}`).sort();
  if (travellers.length === 0) {
    return [
      {
        field: 'quotationId',
        code: 'passengers_missing',
        message: 'Completa los datos de los pasajeros antes de pagar',
      },
    ];
  }
  if (quoted.join() !== saved.join()) {
    return [
      {
        field: 'quotationId',
        code: 'passengers_mismatch',
        message: 'Los pasajeros ingresados no coinciden con la cotización; revisa sus datos antes de pagar',
      },
    ];
  }
  return [];
}

/** The start's second step: the chosen plan priced on the server and the purchase as it will be frozen (snapshot). */
async function pricedPurchase(
  db: Database,
  quotation: QuotationToPay & { planId: number },
  travellers: TravellerToPay[],
  input: StartInput,
  pricedVersion: number | undefined,
) {
  const companyId = quotation.company;
  const buyer = buyerOf(
    quotation,
    travellers.map((person) => ({
      seq: person.seq,
      email: person.email,
      documentType: person.document.type,
      documentNumber: person.document.id,
    })),
  );
  const quoted = await tripOfQuotation(db, companyId, quotation.id);
  // Now the buyer is known in full: a code's per-buyer limit counts their e-mail and their document.
  const trip = { ...quoted, discountContext: { quotationId: quotation.id, buyer: buyer && buyerKeys(buyer) } };
  const [pricing, legalVersions] = await Promise.all([
    priceTripPlans(db, companyId, trip, errorMessages.invalidInputs),
    // The versions of the legal texts in force as the buyer accepts them: the consent names what was accepted.
    currentLegalVersions(db, companyId),
  ]);
  const plan = pricing.plans.find((candidate) => candidate.product.id === quotation.planId);
  if (!plan || pricedVersion === undefined)
    throw invalid([
      {
        field: 'quotationId',
        code: 'plan_unavailable',
        message: 'El plan elegido ya no está disponible para este viaje',
      },
    ]);
  // A code the buyer may have seen applied that no longer applies: told now, before anything is charged.
  const discountRefusal = paymentRefusalOf(plan.discount);
  if (discountRefusal) throw invalid([{ field: 'quotationId', ...discountRefusal }]);
  const addOns = await chosenAddOns(db, companyId, trip, plan, pricing.clpPerUsd, travellers);
  const [summary, labels, destinationCountry] = await Promise.all([
    planSummary(db, plan.product.id),
    catalog.tripLabels(db, companyId, trip.destinationId, trip.modalityId),
    destinationCountryOf(db, quotation.id),
  ]);
  const purchase: PurchaseSnapshot = {
    plan: { id: plan.product.id, ...summary },
    trip: {
      originId: trip.originId,
      destinationId: trip.destinationId,
      destination: labels.destination,
      modalityId: trip.modalityId,
      modality: labels.modality,
      departureDate: trip.departureDate,
      returnDate: trip.returnDate,
      days: tripDays(trip.departureDate, trip.returnDate),
      passengers: trip.passengers,
      discountCode: trip.discountCode,
      upgradeCovid: trip.upgradeCovid,
      destinationCountry,
    },
    price: {
      totalUsdCents: plan.price.totalCents + addOns.total.totalUsdCents,
      totalClp: plan.price.totalClp + addOns.total.totalClp,
      clpPerUsd: pricing.clpPerUsd,
      plan: { totalUsdCents: plan.price.totalCents, totalClp: plan.price.totalClp },
      addOns: addOns.total,
    },
    travellers: travellers.map((person) => ({
      seq: person.seq,
      firstName: person.firstName,
      lastName: person.lastName,
      documentType: person.document.type,
      documentNumber: person.document.id,
      birthDate: person.birthDate,
      email: person.email,
      passengerTypeId: person.passengerTypeId,
      addOns: addOns.lines.filter((line) => line.seq === person.seq).map(purchasedAddOn),
    })),
    consents: {
      version: consentVersion,
      legalPages: legalVersions,
      recordedAt: new Date().toISOString(),
      dataProcessing: true,
      marketing: input.consents?.marketing === true,
    },
  };
  const discountUse: UseToReserve = {
    companyId,
    quotationId: quotation.id,
    productId: plan.product.id,
    outcome: plan.discount,
    buyer,
    price: plan.price,
    clpPerUsd: pricing.clpPerUsd,
  };
  return { plan, pricing, purchase, version: pricedVersion, discountUse };
}

/**
 * Every traveller's chosen add-ons priced with the plan being paid (issue 27 §1), or a 400 naming each one that can no
 * longer be bought (the plan, the trip or the add-on changed since the purchase step): nothing is charged then.
 */
async function chosenAddOns(
  db: Database,
  companyId: number,
  trip: { modalityId: number; destinationId: number },
  plan: PricedPlan,
  clpPerUsd: string,
  travellers: TravellerToPay[],
) {
  const choices = travellers.map((person) => ({
    seq: person.seq,
    passengerTypeId: person.passengerTypeId,
    addOnIds: person.addOnIds,
  }));
  if (choices.every((choice) => choice.addOnIds.length === 0)) {
    return { lines: [], total: { totalUsdCents: 0, totalClp: 0 } };
  }
  const { lines, problems } = priceChoices(await listAddOns(db, companyId), plan, trip, clpPerUsd, choices);
  if (problems.length > 0) {
    throw invalid(
      problems.map((problem) => ({
        field: 'quotationId',
        code: 'add_on_unavailable' as const,
        message: addOnNoLongerSold(problem),
      })),
    );
  }
  return { lines, total: addOnsTotal(lines) };
}

const addOnNoLongerSold = (problem: AddOnChoiceProblem) =>
  `${problem.name ?? 'Un adicional'} (pasajero ${problem.seq}) ya no se puede contratar: ${problem.reason} Revisa los adicionales de los pasajeros antes de pagar.`;

/** An add-on line as the paid snapshot keeps it (what the certificate prints and «Mi compra» shows). */
const purchasedAddOn = (line: ChosenAddOnLine): PurchasedAddOn => ({
  id: line.addOn.id,
  code: line.addOn.code,
  name: line.addOn.name,
  description: line.addOn.description,
  benefits: line.addOn.benefits.map((benefit) => ({ label: benefit.label, value: benefit.value })),
  pricing: line.pricing,
  netCents: line.price.netCents,
  taxCents: line.price.taxCents,
  totalUsdCents: line.price.totalCents,
  totalClp: line.price.totalClp,
});

/**
 * GET …/quotations/{quotationId}/add-ons (issue 27 §1): what the purchase step offers each traveller with the chosen
 * plan (per age band: its price, or why not), the add-ons chosen so far priced, and the purchase's total: the plan
 * plus them, exactly as `startPayment` will charge it (same functions, same rate). Nothing written.
 */
export async function addOnsOfQuotation(db: Database, companyId: number, quotationId: string) {
  const quotation = await getQuotation(db, companyId, quotationId);
  const planMissing = () =>
    invalid([{ field: 'quotationId', code: 'plan_required', message: 'Elige un plan antes de ver los adicionales' }]);
  if (quotation.planId === null) throw planMissing();
  const trip = await tripOfQuotation(db, companyId, quotationId);
  const [pricing, addOnList, travellers] = await Promise.all([
    priceTripPlans(db, companyId, trip, errorMessages.invalidInputs),
    listAddOns(db, companyId),
    listTravellers(db, quotationId),
  ]);
  const plan = pricing.plans.find((candidate) => candidate.product.id === quotation.planId);
  if (!plan) {
    throw invalid([
      {
        field: 'quotationId',
        code: 'plan_unavailable',
        message: 'El plan elegido ya no está disponible para este viaje',
      },
    ]);
  }
  const { clpPerUsd } = pricing;
  const offers = offersFor(addOnList, plan, trip, clpPerUsd);
  const choices = travellers.map((person) => ({
    seq: person.seq,
    passengerTypeId: person.passengerTypeId,
    addOnIds: person.addOnIds,
  }));
  const { lines, problems } = priceChoices(addOnList, plan, trip, clpPerUsd, choices);
  const addOns = addOnsTotal(lines);
  const totalClp = plan.price.totalClp + addOns.totalClp;
  const totalUsdCents = plan.price.totalCents + addOns.totalUsdCents;
  const instalment = instalmentClp(totalClp, interestFreeInstalments);
  const usd = (cents: number) => cents / 100;
  return {
    planId: plan.product.id,
    days: plan.price.days,
    addOns: offers.map(({ addOn, bands }) => ({
      id: addOn.id,
      code: addOn.code,
      name: addOn.name,
      description: addOn.description,
      benefits: addOn.benefits.map((benefit) => ({ label: benefit.label, value: benefit.value })),
      precio: pricingWords(addOn, plan.product.id),
      buyableAfterPurchase: addOn.buyableAfterPurchase,
      bands: bands.map((band) => ({
        passengerTypeId: band.passengerTypeId,
        available: band.eligibility.eligible,
        reason: band.eligibility.eligible ? null : band.eligibility.reason,
        price: band.price
          ? {
              amountClp: band.price.totalClp,
              amountUsd: usd(band.price.totalCents),
              formatted: formatClp(band.price.totalClp),
              formattedUsd: formatUsd(usd(band.price.totalCents)),
            }
          : null,
      })),
    })),
    travellers: choices.map((choice) => ({
      seq: choice.seq,
      passengerTypeId: choice.passengerTypeId,
      addOns: lines
        .filter((line) => line.seq === choice.seq)
        .map((line) => ({
          id: line.addOn.id,
          name: line.addOn.name,
          amountClp: line.price.totalClp,
          formatted: formatClp(line.price.totalClp),
        })),
    })),
    problems: problems.map((problem) => ({
      seq: problem.seq,
      addOnId: problem.addOnId,
      message: addOnNoLongerSold(problem),
    })),
    totals: {
      planClp: plan.price.totalClp,
      addOnsClp: addOns.totalClp,
      totalClp,
      totalUsd: usd(totalUsdCents),
      instalments: { count: interestFreeInstalments, amountClp: instalment, formatted: formatClp(instalment) },
      formatted: {
        plan: formatClp(plan.price.totalClp),
        addOns: formatClp(addOns.totalClp),
        total: formatClp(totalClp),
        totalUsd: formatUsd(usd(totalUsdCents)),
      },
    },
  };
}

/**
 * The start's last step: the gateway says where to send the payer. A gateway failure fails the attempt (502); an
 * attempt voided meanwhile because the trip changed is refused: never send the payer to pay for it.
 */
async function askGatewayToStart(
  deps: PaymentDeps,
  gateway: PaymentGateway,
  payment: repository.PaymentRow,
  returnUrl: (gatewayId: string) => string,
) {
  let started: { redirectUrl: string; externalId: string };
  try {
    started = await gateway.start({
      buyOrder: payment.buyOrder,
      sessionId: payment.sessionId,
      amountClp: payment.amountClp,
      returnUrl: returnUrl(gateway.id),
    });
    await repository.setPaymentExternalId(deps.db, payment.id, started.externalId);
  } catch (error) {
    // The payer reads this detail (payment-result): words of ours, never the error's message (it may quote SQL).
    await repository.failPaymentStart(deps.db, payment.id, 'No se pudo iniciar el pago con la pasarela');
    await releaseDiscountUse(deps.db, payment.sessionId);
    deps.log.error({ paymentId: payment.id, gateway: gateway.id, error: loggableError(error) }, 'gateway start failed');
    throw new ApiError(502, errorMessages.unexpected);
  }
  // (An attempt superseded by a newer one of the same trip, a double click, still answers: the browser follows the
  // last.)
  if ((await repository.findPayment(deps.db, payment.id))?.detail === changedAfterStartDetail) {
    throw invalid([{ field: 'quotationId', ...startRefusals.changed }]);
  }
  return started;
}

/**
 * The payer's browser is back from the gateway. Idempotent: the same return twice, or fifty at once, asks the
 * gateway once and makes at most one paid sale with one set of certificates; every caller gets the same answer.
 */
export async function confirmReturn(deps: PaymentDeps, gatewayId: string, params: GatewayReturn) {
  const { db } = deps;
  const gateway = deps.gateways.get(gatewayId);
  if (!gateway) throw resourceNotFound();
  const { externalId, buyOrder } = identifyReturn(params);
  const byToken = externalId ? await repository.findPaymentByExternalId(db, gatewayId, externalId) : undefined;
  // A return naming only our buy order (a timeout) must also name the session it belongs to.
  const byOrder = !byToken && buyOrder ? await repository.findPaymentByBuyOrder(db, gatewayId, buyOrder) : undefined;
  const payment = byToken ?? (byOrder && byOrder.sessionId === params.TBK_ID_SESION ? byOrder : undefined);
  if (!payment) throw resourceNotFound();

  const claim = await repository.claimPayment(db, payment, claimLifetimeSeconds, holdDiscountUse);
  if (claim && 'claimedAt' in claim) {
    await resolveClaim(deps, gateway, payment, params, claim.claimedAt);
  } else if (!claim) {
    // Another request holds the claim: give it a moment, then answer with the state as it stands (the result page
    // says «en confirmación» and the claim holder, or the sweeper, settles it).
    for (let waited = 0; waited < duplicateReturnWaitMs; waited += 100) {
      const current = await repository.findPayment(db, payment.id);
      if (current && terminal.has(current.status)) break;
      await sleep(100);
    }
  }
  const final = await repository.findPayment(db, payment.id);
  if (!final) throw resourceNotFound();
  return final;
}

/**
 * A claim outlives the longest confirmation (two Webpay calls of webpayTimeoutMs each) with a margin; after it, a
 * claim left by a dead process is taken again by the next return or the sweeper.
 */
const claimLifetimeSeconds = Math.ceil((2 * webpayTimeoutMs) / 1000) + 10;
const duplicateReturnWaitMs = 2_000;
const terminal = new Set(['authorized', 'declined', 'aborted', 'timeout', 'error']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one holder of a claim asks the gateway to commit (or to record the abort, timeout or error the return
 * names) and records the answer. Nothing that can no longer be paid is ever committed (claimPayment refused it).
 */
async function resolveClaim(
  deps: PaymentDeps,
  gateway: PaymentGateway,
  payment: repository.PaymentRow,
  params: GatewayReturn,
  claimedAt: Date,
) {
  const result: ConfirmResult = await gateway
    .confirm(payment.externalId ?? identifyReturn(params).externalId, params)
    .catch((error: unknown) => ({
      ...emptyResult,
      status: 'error' as const,
      uncertain: true,
      detail: `Error al confirmar: ${error instanceof Error ? error.name : 'desconocido'}`,
    }));
  await recordGatewayAnswer(deps, gateway, payment, result, claimedAt);
}

/**
 * Records what the gateway answered for a claimed attempt. An unknown answer (gateway unreachable) leaves it in
 * confirmation for the sweeper. An authorization that cannot be honoured (the sale already paid by another
 * attempt, repriced, or another amount) is recorded as an error and given back to the payer (refund).
 */
async function recordGatewayAnswer(
  deps: PaymentDeps,
  gateway: PaymentGateway,
  payment: repository.PaymentRow,
  result: ConfirmResult,
  claimedAt: Date,
) {
  const { db } = deps;
  if (result.uncertain) {
    await repository.releaseClaim(db, payment.id, result.detail);
    deps.log.error(
      { paymentId: payment.id, gateway: gateway.id },
      'payment outcome unknown: will ask the gateway again',
    );
    return;
  }
  let status: repository.PaymentRow['status'] = result.status;
  let detail = result.detail;
  if (status === 'authorized' && result.amountClp !== payment.amountClp) {
    status = 'error';
    detail = `El monto autorizado (${result.amountClp}) no coincide con el de la venta (${payment.amountClp})`;
  }
  let paidSaleId: number | null = null;
  let refundDue = false;
  try {
    await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const sale = await repository.findSaleOfQuotationBySaleId(tx, payment.saleId);
      if (!sale) throw new Error('payment without sale');
      // The purchase lock, then the sale: the order every writer of the purchase follows.
      await repository.lockPurchaseOfSale(tx, sale);
      const locked = await repository.lockSale(tx, payment.saleId);
      /**
       * Records the attempt's outcome as `status` and `detail` say by then; money the gateway took for an attempt we
       * do not honour goes back. False when the claim expired and another caller took it: that caller records (and
       * pays) instead.
       */
      const recordAttempt = async () => {
        refundDue = result.status === 'authorized' && status !== 'authorized';
        const recorded = await repository.recordOutcome(tx, payment.id, claimedAt, {
          status,
          paymentTypeCode: result.paymentTypeCode,
          instalments: result.instalments,
          authorizationCode: result.authorizationCode,
          cardLastDigits: result.cardLastDigits,
          responseCode: result.responseCode,
          detail,
          ...(refundDue
            ? { refundStatus: 'pending' as const, refundAmountClp: result.amountClp ?? payment.amountClp }
            : {}),
        });
        if (!recorded) refundDue = false;
        return recorded;
      };
      if (payment.purpose === 'date_change') {
        // The difference of a date change: its change is applied (once) or, if it did not pay, cancelled.
        const change = await repository.findDateChangeOfPayment(tx, payment.id);
        const payable = status === 'authorized' && change?.status === 'awaiting_payment' && locked?.status === 'paid';
        if (status === 'authorized' && !payable) {
          status = 'error';
          detail = 'El cambio de fechas ya no estaba pendiente de pago';
        }
        if (!(await recordAttempt())) return;
        if (!change || !locked) return;
        if (payable) {
          if (await repository.settleDateChange(tx, change.id, 'applied')) {
            await applyDateChange(tx, deps.workflow, locked, change);
            paidSaleId = locked.id;
          }
        } else await repository.settleDateChange(tx, change.id, 'cancelled');
        return;
      }
      if (status === 'authorized' && (!locked || wasPaid(locked.status))) {
        status = 'error';
        detail = 'La venta ya había sido pagada con otra transacción';
      } else if (status === 'authorized' && locked && locked.amountClp !== payment.amountClp) {
        status = 'error';
        detail = 'El monto de la venta cambió después de iniciar este pago';
      }
      if (!(await recordAttempt())) return;
      if (status !== 'authorized' || !locked) {
        // The attempt did not pay: its discount code's use is free for another buyer.
        if (locked && !wasPaid(locked.status)) await releaseDiscountUse(tx, locked.quotationId);
        return;
      }
      await markSalePaid(
        tx,
        locked,
        { purchase: payment.purchase, testPayment: gateway.testMode === true, accessToken: payment.accessToken },
        deps.workflow,
      );
      paidSaleId = locked.id;
    });
  } catch (error) {
    // Left in confirmation: the sweeper asks the gateway again and records it.
    deps.log.error(
      { paymentId: payment.id, error: error instanceof Error ? error.name : 'unknown' },
      'recording a payment outcome failed',
    );
    return;
  }
  deps.log.info({ paymentId: payment.id, saleId: payment.saleId, status }, 'payment confirmed');
  if (paidSaleId !== null) deps.onPaid(paidSaleId);
  if (refundDue) {
    deps.log.warn({ paymentId: payment.id, saleId: payment.saleId }, 'authorization not honoured: refunding');
    await refundPayment(deps, gateway, payment.id);
  }
}

/** Asks the gateway to give a not-honoured authorization back and records the answer; a failure is retried. */
async function refundPayment(deps: PaymentDeps, gateway: PaymentGateway, paymentId: number) {
  const payment = await repository.findPayment(deps.db, paymentId);
  if (!payment?.externalId || payment.refundStatus !== 'pending' || payment.refundAmountClp === null) return;
  const answer = await gateway.refund(payment.externalId, payment.refundAmountClp).catch((error: unknown) => ({
    status: 'failed' as const,
    detail: `Error: ${error instanceof Error ? error.name : '?'}`,
  }));
  await repository.recordRefund(deps.db, paymentId, answer);
  if (answer.status === 'refunded') deps.log.info({ paymentId }, 'payment refunded');
  else deps.log.error({ paymentId }, 'refund failed: will try again');
}

/**
 * Resolves payments left in confirmation (a crash, an unreachable gateway): each is claimed again and the gateway
 * is asked what it knows (status). A settled outcome is recorded as it stands; a transaction that still waits for
 * our commit is committed as its browser return asked (the gateway commits only what the payer approved). Refunds
 * that failed are tried again.
 */
export async function sweepStaleClaims(deps: PaymentDeps): Promise<number> {
  const stale = await repository.listStaleClaims(deps.db, claimLifetimeSeconds);
  let resolved = 0;
  for (const payment of stale) {
    const gateway = deps.gateways.get(payment.gateway);
    if (!gateway || !payment.externalId) continue;
    const claim = await repository.claimPayment(deps.db, payment, claimLifetimeSeconds, holdDiscountUse);
    if (!claim) continue;
    if ('claimedAt' in claim) {
      const known = await gateway.status(payment.externalId).catch(
        (): GatewayStatus => ({
          ...emptyResult,
          status: 'error',
          uncertain: true,
          open: false,
          detail: 'Sin respuesta',
        }),
      );
      if (known.open) await resolveClaim(deps, gateway, payment, { token_ws: payment.externalId }, claim.claimedAt);
      else await recordGatewayAnswer(deps, gateway, payment, known, claim.claimedAt);
    }
    const after = await repository.findPayment(deps.db, payment.id);
    if (after && terminal.has(after.status)) resolved += 1;
  }
  for (const payment of await repository.listPendingRefunds(deps.db)) {
    const gateway = deps.gateways.get(payment.gateway);
    if (gateway) await refundPayment(deps, gateway, payment.id);
  }
  return resolved;
}

const resultTexts: Record<string, string> = {
  authorized: 'Pago aprobado',
  declined: 'Pago rechazado por el emisor de la tarjeta',
  aborted: 'Pago anulado por el cliente',
  timeout: 'Se agotó el tiempo para completar el pago',
  error: 'No se pudo completar el pago',
  pending: 'Pago en curso',
  confirming: 'Pago en confirmación',
};

/**
 * GET /companies/{idTransaction}/payment-result/{idVenta}. The two random ids tell the outcome; who travels and
 * the quotation behind the sale (the key to its personal data) only with the sale's access token.
 */
export async function paymentResult(
  db: Database,
  paymentId: number,
  saleId: number,
  token: string | undefined,
  gateways: PaymentDeps['gateways'],
  certificatesOf: PurchaseSteps['certificatesOf'],
) {
  const payment = await repository.findPayment(db, paymentId);
  if (!payment || payment.saleId !== saleId) throw resourceNotFound();
  const sale = await repository.findSaleOfQuotationBySaleId(db, saleId);
  if (!sale) throw resourceNotFound();
  // The attempt's own token (the browser that started it, e.g. to retry a declined one) or the paid sale's.
  const granted = accessTokenMatches(payment.accessToken, token) || accessTokenMatches(sale.accessToken, token);
  const certificates = granted && payment.status === 'authorized' ? await certificatesOf(db, saleId) : [];
  const terms = paymentTerms(payment);
  return {
    idTransaction: payment.id,
    idVenta: sale.id,
    resultTransaction: payment.status.toUpperCase(),
    detailResoonse: payment.detail ?? resultTexts[payment.status] ?? payment.status,
    message: resultTexts[payment.status] ?? payment.status,
    quotationId: granted ? sale.quotationId : null,
    planId: sale.productId,
    amountClp: payment.amountClp,
    amountUsd: sale.amountUsdCents / 100,
    gateway: payment.gateway,
    instalments: terms.instalments,
    instalmentAmountClp: terms.instalmentAmountClp,
    paymentTypeCode: payment.paymentTypeCode,
    paymentType: terms.paymentType,
    authorizationCode: granted ? payment.authorizationCode : null,
    cardLastDigits: granted ? payment.cardLastDigits : null,
    certificates: certificates.map((c) => ({ number: c.number, name: c.firstName, lastName: c.lastName })),
    // Of this attempt: a real attempt of a sale later paid in the sandbox was not a test payment; the attempt that
    // paid is one when the sale was paid on a test gateway (the sandbox, Webpay's integration environment); one that
    // did not pay is one when its gateway takes test payments (a declined card on Webpay's integration environment).
    testPayment:
      payment.gateway === sandboxGatewayId ||
      (payment.status === 'authorized' ? sale.testPayment : gateways.get(payment.gateway)?.testMode === true),
  };
}

/**
 * How a payment was paid, as the buyer reads it (Transbank asks commerces to show the payment type and the
 * instalments): the type in words, the instalments and what each is — the amount paid split evenly, rounded up to
 * the peso —, and the phrase «1 cuota de $X» / «N cuotas sin interés de $X». The one place for it: the payment
 * result (success page), «Mi compra» and the purchase e-mail's lines all say it from here.
 */
export function paymentTerms(payment: {
  amountClp: number;
  instalments: number | null;
  paymentTypeCode: string | null;
}) {
  const { instalments } = payment;
  const instalmentAmountClp = instalments ? instalmentClp(payment.amountClp, instalments) : null;
  const each = instalmentAmountClp === null ? '' : formatClp(instalmentAmountClp);
  return {
    paymentType: paymentTypeLabel(payment.paymentTypeCode),
    instalments,
    instalmentAmountClp,
    instalmentsText: !instalments
      ? null
      : instalments === 1
        ? `1 cuota de ${each}`
        : `${instalments} cuotas sin interés de ${each}`,
  };
}

// ─── Date changes of paid sales («Mi compra») ──────────────────────────────────────────────────────────────────────

export type DateChangeRow = repository.DateChangeRow;

/** The sale refund of a cheaper date change's difference (one per change). */
export const dateChangeRefundKey = (changeId: number) => `date-change:${changeId}`;
export const listDateChanges = repository.listDateChanges;

/**
 * The destination country a paid sale's snapshot names; sales paid before the snapshot kept it: the quotation's
 * (frozen once paid). What the certificates print as «País de destino».
 */
export async function destinationCountryOfSnapshot(
  db: Database,
  quotationId: string,
  purchase: PurchaseSnapshot,
): Promise<DestinationCountry | null> {
  return purchase.trip.destinationCountry !== undefined
    ? purchase.trip.destinationCountry
    : destinationCountryOf(db, quotationId);
}

/**
 * Applies a settled date change inside its transaction (purchase lock and sale lock held): the sale's snapshot and
 * total, the quotation's dates, and the certificates (old ones voided, new ones issued and e-mailed).
 */
async function applyDateChange(
  tx: Database,
  workflow: Pick<PurchaseSteps, 'dateChangeApplied'>,
  sale: repository.SaleRow,
  change: DateChangeRow,
) {
  await repository.applyDateChangeToSale(tx, change);
  await recordDateChange(tx, sale.quotationId, {
    departureDate: change.departureDate,
    returnDate: change.returnDate,
    ...(change.destinationCountry ? { countryDestinationId: change.destinationCountry.id } : {}),
  });
  await workflow.dateChangeApplied(tx, sale, change);
}

/** What purchases' confirm call asks: a repriced change of a paid sale's dates, from the snapshot it read. */
export type DateChangeRequest = {
  saleId: number;
  /** The snapshot's dates, country and price the change was priced from: if they moved meanwhile, it is refused. */
  pricedFrom: {
    departureDate: string;
    returnDate: string;
    amountClp: number;
    destinationCountryId: number | null;
    /** addOnsKeyOf the snapshot it read: another change's add-ons applied meanwhile are never dropped. */
    addOns: string;
  };
  purchase: PurchaseSnapshot;
  /** Add-ons bought after the purchase ride the same path: the snapshot gains them, their price is the difference. */
  kind?: 'dates' | 'add_ons';
};

export type DateChangeRecorded =
  | { refused: 'changed' | 'confirming' | 'not_paid' | 'trip_started' }
  | { change: DateChangeRow; payment?: repository.PaymentRow; sale: repository.SaleRow };

/**
 * Records a date change in one transaction under the purchase lock (so concurrent confirmations run one after the
 * other and only the first finds the dates it priced): a change waiting for a newer request is cancelled; a higher
 * price opens a difference payment with the paid attempt's gateway; a lower or equal one is applied at once, with a
 * sale refund of the difference requested (processDueSaleRefunds then asks the gateway).
 */
export async function recordDateChangeRequest(
  deps: Pick<PaymentDeps, 'db' | 'workflow'>,
  request: DateChangeRequest,
): Promise<DateChangeRecorded> {
  return deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const sale = await repository.findSaleOfQuotationBySaleId(tx, request.saleId);
    if (!sale) return { refused: 'not_paid' as const };
    const state = await repository.lockPurchaseOfSaleState(tx, sale);
    const locked = await repository.lockSale(tx, sale.id);
    if (locked?.status !== 'paid' || !locked.purchase) return { refused: 'not_paid' as const };
    if (state?.confirming) return { refused: 'confirming' as const };
    const trip = locked.purchase.trip;
    if (todayInChile() >= trip.departureDate) return { refused: 'trip_started' as const };
    const country = await destinationCountryOfSnapshot(tx, locked.quotationId, locked.purchase);
    if (
      trip.departureDate !== request.pricedFrom.departureDate ||
      trip.returnDate !== request.pricedFrom.returnDate ||
      locked.amountClp !== request.pricedFrom.amountClp ||
      (country?.id ?? null) !== request.pricedFrom.destinationCountryId ||
      addOnsKeyOf(locked.purchase) !== request.pricedFrom.addOns
    ) {
      return { refused: 'changed' as const };
    }
    await repository.cancelAwaitingDateChanges(tx, locked.id, 'Reemplazado por un nuevo cambio de fechas');
    const amountClp = request.purchase.price.totalClp;
    const differenceClp = amountClp - locked.amountClp;
    const values = {
      saleId: locked.id,
      kind: request.kind ?? ('dates' as const),
      previousDepartureDate: trip.departureDate,
      previousReturnDate: trip.returnDate,
      departureDate: request.purchase.trip.departureDate,
      returnDate: request.purchase.trip.returnDate,
      previousDestinationCountry: country,
      destinationCountry: request.purchase.trip.destinationCountry ?? null,
      purchase: request.purchase,
      amountClp,
      amountUsdCents: request.purchase.price.totalUsdCents,
      differenceClp,
    };
    if (differenceClp > 0) {
      const paid = await repository.findAuthorizedPaymentOfSale(tx, locked.id);
      const payment = await repository.insertDateChangePayment(tx, {
        saleId: locked.id,
        gateway: paid?.gateway ?? sandboxGatewayId,
        sessionId: locked.quotationId,
        amountClp: differenceClp,
        purchase: request.purchase,
      });
      const change = await repository.insertDateChange(tx, {
        ...values,
        status: 'awaiting_payment',
        paymentId: payment.id,
      });
      return { change, payment, sale: locked };
    }
    const change = await repository.insertDateChange(tx, { ...values, status: 'applied', appliedAt: new Date() });
    await applyDateChange(tx, deps.workflow, locked, change);
    // The difference goes back through the sale refunds (the sweeper asks the gateway, retried until it answers),
    // drawn from the newest payments first (a dearer change's difference before the purchase).
    if (differenceClp < 0) {
      await requestSaleRefund(tx, {
        saleId: locked.id,
        reason: 'date_change',
        amountClp: -differenceClp,
        idempotencyKey: dateChangeRefundKey(change.id),
      });
    }
    return { change, sale: locked };
  });
}

/**
 * Sends the payer of a date change's difference to the gateway (after recordDateChangeRequest opened the payment).
 * A gateway that cannot start leaves the change cancelled: nothing changed.
 */
export async function startDateChangePayment(
  deps: PaymentDeps,
  payment: repository.PaymentRow,
  returnUrl: (gatewayId: string) => string,
): Promise<{ redirectUrl: string }> {
  const gateway = deps.gateways.get(payment.gateway);
  try {
    if (!gateway) throw new Error('gateway not configured');
    const started = await gateway.start({
      buyOrder: payment.buyOrder,
      sessionId: payment.sessionId,
      amountClp: payment.amountClp,
      returnUrl: returnUrl(gateway.id),
    });
    await repository.setPaymentExternalId(deps.db, payment.id, started.externalId);
    return { redirectUrl: started.redirectUrl };
  } catch (error) {
    await repository.failPaymentStart(deps.db, payment.id, 'No se pudo iniciar el pago con la pasarela');
    await releaseDiscountUse(deps.db, payment.sessionId);
    const change = await repository.findDateChangeOfPayment(deps.db, payment.id);
    if (change) await repository.settleDateChange(deps.db, change.id, 'cancelled');
    deps.log.error({ paymentId: payment.id, error: loggableError(error) }, 'date change payment start failed');
    throw new ApiError(502, errorMessages.unexpected);
  }
}
export {
  correctPurchaseTraveller,
  countOpenSaleRefunds,
  countPaymentsConfirmingSince,
  findSaleForConsole,
  listDateChangesOfSale,
  listPaymentsOfSale,
  paidSalesBetween,
  type SaleSearchFilter,
  searchSales,
} from './repository.ts';
