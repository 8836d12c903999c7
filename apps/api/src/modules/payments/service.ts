import { todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError, resourceNotFound } from '#app/errors.ts';
import {
  type ConfirmResult,
  classifyReturn,
  emptyResult,
  type GatewayReturn,
  identifyReturn,
  type PaymentGateway,
} from '#app/integrations/payments/gateway.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import {
  issueCertificates,
  listCertificates,
  queueAutomaticCertificateEmail,
} from '#app/modules/certificates/service.ts';
import { findInvoiceDetails } from '#app/modules/invoices/service.ts';
import { listTravellers } from '#app/modules/passengers/service.ts';
import { priceTripPlans } from '#app/modules/plans/service.ts';
import { getQuotationOfAnyCompany, quotationUpdatedAt, tripOfQuotation } from '#app/modules/quotations/service.ts';
import * as repository from './repository.ts';

export type Gateways = Map<string, PaymentGateway>;

export type PaymentDeps = {
  db: Database;
  gateways: Gateways;
  log: FastifyBaseLogger;
  /** Called after a sale becomes paid (the e-mail worker is nudged). */
  onPaid: (saleId: number) => void;
};

const invalid = (errors: FieldError[]) => new ApiError(400, errorMessages.invalidInputs, errors);

/**
 * POST /payments: prices the quotation's chosen plan on the server, records the sale (one per quotation) and a
 * payment attempt, and asks the gateway where to send the payer. The browser never says how much.
 */
export async function startPayment(
  deps: PaymentDeps,
  input: { quotationId: string; gatewayId: string; returnUrl: (gatewayId: string) => string },
): Promise<{ redirectUrl: string; idVenta: number; idTransaction: number }> {
  const { db } = deps;
  const quotation = await getQuotationOfAnyCompany(db, input.quotationId);
  const companyId = quotation.company;
  const [travellers, invoice, companyGateways, existingSale] = await Promise.all([
    listTravellers(db, quotation.id),
    findInvoiceDetails(db, quotation.id),
    catalog.listPaymentGateways(db, companyId),
    repository.findSaleOfQuotation(db, quotation.id),
  ]);
  if (existingSale?.status === 'paid') throw invalid([{ field: 'quotationId', message: 'Esta compra ya fue pagada' }]);
  const problems: FieldError[] = [];
  if (quotation.planId === null) problems.push({ field: 'quotationId', message: 'Elige un plan antes de pagar' });
  // The travellers saved must be exactly the quoted ones by age band (the trip may have changed since).
  const quoted = quotation.passangerTypes.map((p) => `${p.passengerTypeId}:${p.quantity}`).sort();
  const countsOfTravellers = new Map<number, number>();
  for (const person of travellers) {
    countsOfTravellers.set(person.passengerTypeId, (countsOfTravellers.get(person.passengerTypeId) ?? 0) + 1);
  }
  const saved = [...countsOfTravellers].map(([type, quantity]) => `${type}:${quantity}`).sort();
  if (travellers.length === 0) {
    problems.push({ field: 'quotationId', message: 'Completa los datos de los pasajeros antes de pagar' });
  } else if (quoted.join() !== saved.join()) {
    problems.push({
      field: 'quotationId',
      message: 'Los pasajeros ingresados no coinciden con la cotización; revisa sus datos antes de pagar',
    });
  }
  if (!invoice) problems.push({ field: 'quotationId', message: 'Completa los datos de facturación antes de pagar' });
  const gateway = deps.gateways.get(input.gatewayId);
  if (!gateway || !companyGateways.some((g) => g.id === input.gatewayId)) {
    problems.push({ field: 'gatewayId', message: 'Medio de pago no disponible' });
  }
  if (problems.length > 0 || !gateway || quotation.planId === null) throw invalid(problems);

  const trip = await tripOfQuotation(db, companyId, quotation.id);
  const pricing = await priceTripPlans(db, companyId, trip, errorMessages.invalidInputs);
  const plan = pricing.plans.find((candidate) => candidate.product.id === quotation.planId);
  if (!plan)
    throw invalid([{ field: 'quotationId', message: 'El plan elegido ya no está disponible para este viaje' }]);

  const sale = await repository.upsertPendingSale(db, {
    companyId,
    quotationId: quotation.id,
    productId: plan.product.id,
    amountUsdCents: plan.price.totalCents,
    amountClp: plan.price.totalClp,
  });
  if (sale.status === 'paid') throw invalid([{ field: 'quotationId', message: 'Esta compra ya fue pagada' }]);
  // Only the newest attempt can pay: an older gateway page left open can no longer be confirmed.
  await repository.supersedePendingPayments(db, sale.id);
  // Webpay: buy_order ≤ 26 characters (TRV{sale}-{attempt}), session_id ≤ 61.
  const payment = await repository.insertPayment(db, {
    saleId: sale.id,
    gateway: gateway.id,
    sessionId: quotation.id,
    amountClp: sale.amountClp,
  });
  try {
    const started = await gateway.start({
      buyOrder: payment.buyOrder,
      sessionId: payment.sessionId,
      amountClp: payment.amountClp,
      returnUrl: input.returnUrl(gateway.id),
    });
    await repository.setPaymentExternalId(db, payment.id, started.externalId);
    await repository.markQuotationPaymentStarted(db, quotation.id);
    deps.log.info({ saleId: sale.id, paymentId: payment.id, gateway: gateway.id }, 'payment started');
    return { redirectUrl: started.redirectUrl, idVenta: sale.id, idTransaction: payment.id };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await repository.failPaymentStart(db, payment.id, `No se pudo iniciar el pago: ${reason}`);
    deps.log.error({ paymentId: payment.id, gateway: gateway.id, error: loggableError(error) }, 'gateway start failed');
    throw new ApiError(502, errorMessages.unexpected);
  }
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

  if (await repository.claimPayment(db, payment.id, claimLifetimeSeconds)) {
    await resolveClaim(deps, gateway, payment, params);
  } else {
    // Another request holds the claim: wait for its answer rather than asking the gateway again.
    for (let waited = 0; waited < 30_000; waited += 100) {
      const current = await repository.findPayment(db, payment.id);
      if (current && terminal.has(current.status)) break;
      await sleep(100);
    }
  }
  const final = await repository.findPayment(db, payment.id);
  if (!final) throw resourceNotFound();
  return final;
}

const claimLifetimeSeconds = 120;
const terminal = new Set(['authorized', 'declined', 'aborted', 'timeout', 'error']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why a claimed attempt must not be committed, if it must not: checked before the gateway takes any money. */
async function refusalOf(db: Database, payment: repository.PaymentRow): Promise<string | null> {
  const sale = await repository.findSaleOfQuotationBySaleId(db, payment.saleId);
  if (!sale || sale.status === 'paid') return 'La venta ya había sido pagada con otra transacción';
  if (sale.amountClp !== payment.amountClp) return 'El monto de la venta cambió después de iniciar este pago';
  const changedAt = await quotationUpdatedAt(db, sale.quotationId);
  if (changedAt && changedAt > payment.createdAt) return 'La cotización cambió después de iniciar este pago';
  return null;
}

/**
 * The one holder of a claim asks the gateway and records the answer. Nothing that can no longer be paid is ever
 * committed; an unknown answer (gateway unreachable) leaves the payment in confirmation for the sweeper.
 */
async function resolveClaim(
  deps: PaymentDeps,
  gateway: PaymentGateway,
  payment: repository.PaymentRow,
  params: GatewayReturn,
) {
  const { db } = deps;
  const refusal = classifyReturn(params) === 'commit' ? await refusalOf(db, payment) : null;
  const result: ConfirmResult = refusal
    ? { ...emptyResult, status: 'error', detail: refusal }
    : await gateway
        .confirm(payment.externalId ?? identifyReturn(params).externalId, params)
        .catch((error: unknown) => ({
          ...emptyResult,
          status: 'error' as const,
          uncertain: true,
          detail: `Error al confirmar: ${error instanceof Error ? error.name : 'desconocido'}`,
        }));
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
    deps.log.error({ paymentId: payment.id }, 'authorized amount differs from the sale: not paid, needs refund');
  }
  let paidSaleId: number | null = null;
  try {
    await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      if (status === 'authorized') {
        const sale = await repository.lockSale(tx, payment.saleId);
        if (!sale || sale.status === 'paid') {
          status = 'error';
          detail = 'La venta ya había sido pagada con otra transacción';
          deps.log.error(
            { paymentId: payment.id, saleId: payment.saleId },
            'second authorization of a paid sale: needs refund',
          );
        } else if (sale.amountClp !== payment.amountClp) {
          status = 'error';
          detail = 'El monto de la venta cambió después de iniciar este pago';
          deps.log.error(
            { paymentId: payment.id, saleId: sale.id },
            'authorized attempt of a repriced sale: needs refund',
          );
        } else {
          await repository.markSalePaid(tx, sale);
          await issueCertificates(tx, sale.id, sale.quotationId, Number(todayInChile().slice(0, 4)));
          await queueAutomaticCertificateEmail(tx, sale.id);
          paidSaleId = sale.id;
        }
      }
      await repository.recordOutcome(tx, payment.id, {
        status,
        paymentTypeCode: result.paymentTypeCode,
        instalments: result.instalments,
        authorizationCode: result.authorizationCode,
        cardLastDigits: result.cardLastDigits,
        responseCode: result.responseCode,
        detail,
      });
    });
  } catch (error) {
    // Left in confirmation: the sweeper asks the gateway again (Webpay answers from its status) and records it.
    deps.log.error(
      { paymentId: payment.id, error: error instanceof Error ? error.name : 'unknown' },
      'recording a payment outcome failed',
    );
    return;
  }
  deps.log.info({ paymentId: payment.id, saleId: payment.saleId, status }, 'payment confirmed');
  if (paidSaleId !== null) deps.onPaid(paidSaleId);
}

/**
 * Resolves payments left in confirmation (a crash, an unreachable gateway): each is claimed again and confirmed
 * as a normal return would be; Webpay answers a repeated commit from the transaction's status.
 */
export async function sweepStaleClaims(deps: PaymentDeps): Promise<number> {
  const stale = await repository.listStaleClaims(deps.db, claimLifetimeSeconds);
  let resolved = 0;
  for (const payment of stale) {
    const gateway = deps.gateways.get(payment.gateway);
    if (!gateway || !payment.externalId) continue;
    if (!(await repository.claimPayment(deps.db, payment.id, claimLifetimeSeconds))) continue;
    await resolveClaim(deps, gateway, payment, { token_ws: payment.externalId });
    const after = await repository.findPayment(deps.db, payment.id);
    if (after && terminal.has(after.status)) resolved += 1;
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

/** GET /companies/{idTransaction}/payment-result/{idVenta}. */
export async function paymentResult(db: Database, paymentId: number, saleId: number) {
  const payment = await repository.findPayment(db, paymentId);
  if (!payment || payment.saleId !== saleId) throw resourceNotFound();
  const sale = await repository.findSaleOfQuotationBySaleId(db, saleId);
  if (!sale) throw resourceNotFound();
  const certificates = payment.status === 'authorized' ? await listCertificates(db, saleId) : [];
  return {
    idTransaction: payment.id,
    idVenta: sale.id,
    resultTransaction: payment.status.toUpperCase(),
    detailResoonse: payment.detail ?? resultTexts[payment.status] ?? payment.status,
    message: resultTexts[payment.status] ?? payment.status,
    quotationId: sale.quotationId,
    planId: sale.productId,
    amountClp: payment.amountClp,
    amountUsd: sale.amountUsdCents / 100,
    gateway: payment.gateway,
    instalments: payment.instalments,
    paymentTypeCode: payment.paymentTypeCode,
    authorizationCode: payment.authorizationCode,
    cardLastDigits: payment.cardLastDigits,
    certificates: certificates.map((c) => ({ number: c.number, name: c.firstName, lastName: c.lastName })),
  };
}
