import { errorMessages } from '@travesia/domain/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import type { PaymentGateway } from '#app/integrations/payments/gateway.ts';
import * as repository from './repository.ts';
import { type SaleRefundReason, saleRefundReasons } from './tables.ts';

export { type SaleRefundReason, saleRefundReasons };
export type StuckSaleRefundFilter = repository.StuckSaleRefundFilter;

/**
 * Money given back of a sale's honoured payment (a withdrawal, a cheaper date change): requested once per
 * idempotency key inside the caller's transaction, then refunded by the payment sweeper through the gateway that
 * took the payment, retried with back-off for as long as it takes (never given up: the row stays pending and its
 * last error says why).
 */
export type SaleRefund = repository.SaleRefundRow;

/** What is done, in the same transaction, when a refund of this reason goes through (the sale becomes withdrawn…). */
export type SaleRefundCompletions = Partial<
  Record<SaleRefundReason, (tx: Database, refund: SaleRefund) => Promise<void>>
>;

/** How long one attempt holds its refund: longer than a gateway call (Webpay's timeout), so no other run takes it. */
export const refundClaimSeconds = 120;
/** Back-off after failed attempt n: 30 s, 1 min, 2 min, 4 min… up to an hour between attempts. */
export const refundRetryDelaySeconds = (attempt: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempt - 1));

export class NothingToRefundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NothingToRefundError';
  }
}

/** The key of the n-th row (n ≥ 2) of a refund drawn from several payments; the first row has the refund's own key. */
export const refundPartKey = (idempotencyKey: string, part: number) =>
  part <= 1 ? idempotencyKey : `${idempotencyKey}:part:${part}`;

/** Whether a refund row is (a part of) the refund requested under `idempotencyKey`. */
export const isPartOf = (refund: Pick<SaleRefund, 'idempotencyKey'>, idempotencyKey: string) =>
  refund.idempotencyKey === idempotencyKey || refund.idempotencyKey.startsWith(`${idempotencyKey}:part:`);

/**
 * Requests a refund of `amountClp` of a sale, drawn across its honoured payments newest first (a dearer date change's
 * difference before the purchase), each within what it can still give back: its authorized amount minus its refunds,
 * pending or done. One row per payment drawn from (the gateway refunds each payment on its own transaction), the first
 * under `idempotencyKey`, the next ones under `{key}:part:{n}`. Idempotent by the key: the same key answers the rows
 * already requested (`created: false`) and requests nothing new. The payments' row locks are taken first, so two
 * requests of one sale draw one after the other and never give back more than a payment holds. Call it inside the
 * transaction that causes it, so the refund exists exactly when that commits. More than the sale has left: refused
 * (NothingToRefundError), nothing written. `amountClp: 'rest'` asks back everything the sale has left (a withdrawal).
 */
export async function requestSaleRefund(
  tx: Database,
  request: { saleId: number; reason: SaleRefundReason; amountClp: number | 'rest'; idempotencyKey: string },
): Promise<{ refunds: SaleRefund[]; created: boolean }> {
  if (request.amountClp !== 'rest' && (!Number.isInteger(request.amountClp) || request.amountClp <= 0)) {
    throw new NothingToRefundError('A refund is a whole number of pesos above zero');
  }
  const paid = await repository.lockAuthorizedPaymentsOfSale(tx, request.saleId);
  if (paid.length === 0) throw new NothingToRefundError(`Sale ${request.saleId} has no paid payment to refund`);
  const existing = (await repository.findSaleRefunds(tx, request.saleId)).filter((refund) =>
    isPartOf(refund, request.idempotencyKey),
  );
  if (existing.length > 0) return { refunds: existing, created: false };
  const asked = await repository.refundedOrPendingByPayment(tx, request.saleId);
  const leftOf = (payment: (typeof paid)[number]) => payment.amountClp - (asked.get(payment.id) ?? 0);
  const amountClp =
    request.amountClp === 'rest'
      ? paid.reduce((sum, payment) => sum + Math.max(0, leftOf(payment)), 0)
      : request.amountClp;
  if (amountClp <= 0) throw new NothingToRefundError(`Sale ${request.saleId} has nothing left to refund`);
  const draws: { paymentId: number; amountClp: number }[] = [];
  let due = amountClp;
  for (const payment of paid) {
    if (due === 0) break;
    const left = leftOf(payment);
    if (left <= 0) continue;
    const amountClp = Math.min(left, due);
    draws.push({ paymentId: payment.id, amountClp });
    due -= amountClp;
  }
  if (due > 0) {
    throw new NothingToRefundError(
      `Only ${amountClp - due} CLP of sale ${request.saleId} are left to refund, ${amountClp} asked`,
    );
  }
  const refunds: SaleRefund[] = [];
  for (const [index, draw] of draws.entries()) {
    const { refund } = await repository.insertSaleRefund(tx, {
      saleId: request.saleId,
      reason: request.reason,
      idempotencyKey: refundPartKey(request.idempotencyKey, index + 1),
      ...draw,
    });
    refunds.push(refund);
  }
  return { refunds, created: true };
}

/** The refunds of a sale, oldest first (what «Mi compra» shows of them). */
export const listSaleRefunds = repository.findSaleRefunds;

export type SaleRefundDeps = {
  db: Database;
  gateways: Map<string, PaymentGateway>;
  log: FastifyBaseLogger;
  completions?: SaleRefundCompletions;
  /** Called after a refund went through and its completion committed (the e-mail worker is nudged). */
  onRefunded?: (refund: SaleRefund) => void;
};

/**
 * Makes one attempt at every refund due now (at most `limit`), each claimed by one statement so no two processes
 * call the gateway for the same refund at once; answers how many went through. A gateway that refuses or does not
 * answer leaves the refund pending, due again after the back-off.
 */
export async function processDueSaleRefunds(deps: SaleRefundDeps, limit = 20): Promise<number> {
  let refunded = 0;
  for (let taken = 0; taken < limit; taken += 1) {
    const refund = await repository.claimDueSaleRefund(deps.db, refundClaimSeconds);
    if (!refund) break;
    if (await attemptSaleRefund(deps, refund)) refunded += 1;
  }
  return refunded;
}

/** The other refunds of `refund`'s payment, among `rows` (a sale's refunds). */
const otherRefundsOfPayment = (rows: SaleRefund[], refund: SaleRefund) =>
  rows.filter((other) => other.paymentId === refund.paymentId && other.id !== refund.id);

/**
 * What our records say the gateway gave back of a payment, from its other refunds: those refunded, except the ones an
 * operator made by bank transfer (they never went through the gateway).
 */
const recordedAtGatewayClp = (others: SaleRefund[]) =>
  others
    .filter((other) => other.status === 'refunded' && other.method !== 'manual')
    .reduce((sum, other) => sum + other.amountClp, 0);

/**
 * A retried refund may have gone through already: an earlier attempt's process can die after the gateway gave the
 * money back but before this row said so. Before calling the refund again, ask the gateway what it has given back
 * of the payment: if that covers the refunds recorded plus this one, this one was done, and is recorded without a
 * second call. Only when this is the payment's one refund still pending (two unrecorded ones could not be told
 * apart) and the gateway says a figure; otherwise (or unreachable) the refund call decides, and the gateway refuses
 * more than the balance.
 */
async function alreadyGivenBack(
  deps: SaleRefundDeps,
  refund: SaleRefund,
  gateway: PaymentGateway,
  externalId: string,
): Promise<{ status: 'refunded'; detail: string } | undefined> {
  if (refund.attempts <= 1) return undefined;
  const others = otherRefundsOfPayment(await repository.findSaleRefunds(deps.db, refund.saleId), refund);
  if (others.some((other) => other.status === 'pending')) return undefined;
  const status = await gateway.status(externalId).catch(() => undefined);
  if (typeof status?.refundedClp !== 'number') return undefined;
  if (status.refundedClp < recordedAtGatewayClp(others) + refund.amountClp) return undefined;
  return { status: 'refunded', detail: `Ya reembolsado en la pasarela (${status.detail})` };
}

async function attemptSaleRefund(deps: SaleRefundDeps, refund: SaleRefund): Promise<boolean> {
  const about = { saleRefundId: refund.id, saleId: refund.saleId, reason: refund.reason, attempt: refund.attempts };
  const payment = await repository.findPayment(deps.db, refund.paymentId);
  const gateway = payment ? deps.gateways.get(payment.gateway) : undefined;
  const answer =
    !payment?.externalId || !gateway
      ? { status: 'failed' as const, detail: `Sin pasarela para reembolsar (${payment?.gateway ?? 'sin pago'})` }
      : ((await alreadyGivenBack(deps, refund, gateway, payment.externalId)) ??
        (await gateway.refund(payment.externalId, refund.amountClp).catch((error: unknown) => ({
          status: 'failed' as const,
          detail: `Error: ${error instanceof Error ? error.name : '?'}`,
        }))));
  if (answer.status !== 'refunded') {
    await repository.markSaleRefundFailed(deps.db, refund.id, answer.detail, refundRetryDelaySeconds(refund.attempts));
    deps.log.warn({ ...about, detail: answer.detail }, 'sale refund failed: will try again');
    return false;
  }
  const done = await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    // The purchase's locks first, in the order every writer of a purchase takes them (payments/service.ts
    // lockSaleOfPurchase): the completions write rows that reference the sale (a nota de crédito, the withdrawn
    // status), and a date change holding the sale while this held the refund row deadlocked on PostgreSQL.
    await repository.lockSaleOfPurchase(tx, refund.saleId);
    const row = await repository.markSaleRefunded(tx, refund.id, answer.detail);
    if (row) await deps.completions?.[row.reason]?.(tx, row);
    return row;
  });
  if (!done) {
    // The gateway gave the money back but the row was no longer pending (recorded meanwhile by another way): the
    // buyer may have been refunded twice. Someone must look at it.
    deps.log.error(
      about,
      'sale refund went through at the gateway but its row was not pending: check for a double refund',
    );
    return false;
  }
  deps.log.info(about, 'sale refunded');
  deps.onRefunded?.(done);
  return true;
}

/** How long a transfer reference may be (a bank's operation number, a short note). */
export const transferReferenceMaxLength = 100;
/** How many attempts make a pending refund one to look at, unless the operator says otherwise. */
export const stuckAfterAttempts = 5;

export const refundInProgress = 'El reembolso está en proceso, intenta de nuevo.';
export const refundNotHeld =
  'Retén el reembolso antes de transferir: la retención comprueba que la pasarela no lo haya devuelto y detiene los reintentos.';
export const gatewayUnavailable = 'La pasarela de pago no respondió; no se cambió nada. Intenta de nuevo más tarde.';

/**
 * The refunds the gateway has not made and an operator may have to (Webpay refuses partial refunds of debit
 * payments, so those stay pending for ever): pending with more than `minAttempts` attempts or a last error, held
 * ones included (`heldAt` says which).
 */
export async function listStuckSaleRefunds(db: Database, filter: repository.StuckSaleRefundFilter) {
  const rows = await repository.listStuckSaleRefunds(db, filter);
  return rows.map(({ refund, gateway, buyOrder }) => ({ ...saleRefundView(refund), gateway, buyOrder }));
}

/** A sale refund as the operator sees it (admin API, CLI). */
export function saleRefundView(refund: SaleRefund) {
  return {
    id: refund.id,
    saleId: refund.saleId,
    paymentId: refund.paymentId,
    reason: refund.reason,
    amountClp: refund.amountClp,
    status: refund.status,
    attempts: refund.attempts,
    lastError: refund.lastError,
    nextAttemptAt: refund.nextAttemptAt.toISOString(),
    createdAt: refund.createdAt.toISOString(),
    refundedAt: refund.refundedAt?.toISOString() ?? null,
    method: refund.method,
    transferReference: refund.transferReference,
    markedBy: refund.markedBy,
    heldAt: refund.heldAt?.toISOString() ?? null,
    heldBy: refund.heldBy,
  };
}

const busy = () =>
  new ApiError(409, refundInProgress, [{ field: 'id', code: 'refund_in_progress', message: refundInProgress }]);

export const refundChanged =
  'Otro operador (o un reintento de la pasarela) ya cambió este reembolso; recarga la página.';
export const refundNotHoldable = 'Este reembolso ya no está pendiente: solo se retiene uno pendiente.';
export const refundNotReleasable = 'Este reembolso no está retenido: solo se libera uno retenido.';
export const refundAlreadyDone = 'Este reembolso ya está reembolsado: no hay transferencia que registrar.';
export const referenceTaken = 'Esa referencia de transferencia ya está registrada en otro reembolso.';

const stale = () => new ApiError(409, refundChanged, [{ field: 'version', code: 'stale', message: refundChanged }]);
const wrongState = (message: string) =>
  new ApiError(409, message, [{ field: 'id', code: 'invalid_transition', message }]);

/**
 * What the console adds to an operator's step (screen «Reembolsos de ventas»): the version of the refund the operator
 * saw — a row changed since, or changed by another step at the same time (its lock is waited for, then the version
 * read), is a 409 `stale` and nothing is done, so of two operators at once exactly one acts — and the audit row,
 * written in the step's transaction with the refund before and after. A step on a refund in another state than it
 * acts on (releasing one not held…) is a 409 `invalid_transition`, where the admin API and the CLI answer it as it is.
 */
export type ConsoleStep = {
  version: number;
  audit: (tx: Database, before: SaleRefund, after: SaleRefund) => Promise<void>;
};

/** The refund's row lock for a console step (waiting for another holder), its version checked; 404 when none. */
async function lockAtVersion(tx: Database, refundId: number, version: number) {
  const locked = await repository.lockSaleRefund(tx, refundId, { wait: true });
  if (!locked) throw new ApiError(404, errorMessages.resourceNotFound);
  if (locked.refund.version !== version) throw stale();
  return locked;
}

/** Whether `error` (or its cause) is PostgreSQL's unique violation of the constraint named `constraint`. */
function violates(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return name === undefined || name === constraint;
  }
  return false;
}

/**
 * The operator's first step before a bank transfer (with a console `step`: its version checked, the operator's
 * `reason` kept in `held_reason`, the audit row written): asks the gateway what it has given back of the payment, then
 * takes the refund's row lock as the sweeper takes it (`FOR UPDATE SKIP LOCKED`: a row the sweeper is claiming or
 * attempting, or has attempted since the gateway was asked, is a 409 «en proceso») and decides. If that covers this refund (and the others of the payment are all recorded), the
 * gateway did refund it: recorded as a gateway refund, completed as a sweeper success (`outcome: 'refunded'`; no
 * transfer to make). Otherwise the refund is held (`held_at`, `held_by`): the sweeper never claims it again, and only
 * then may it be transferred and marked. A gateway that does not answer (or says no figure): 503, nothing changed.
 * Holding a held row again answers it as it is.
 */
export async function holdSaleRefund(
  deps: Pick<SaleRefundDeps, 'db' | 'gateways' | 'completions' | 'onRefunded'>,
  refundId: number,
  by: string,
  step?: ConsoleStep & { reason: string },
): Promise<{ refund: SaleRefund; outcome: 'held' | 'refunded' | 'unchanged' }> {
  const before = await repository.findSaleRefund(deps.db, refundId);
  if (!before) throw new ApiError(404, errorMessages.resourceNotFound);
  if (step && before.version !== step.version) throw stale();
  if (before.status === 'refunded' || before.heldAt) {
    if (step) throw wrongState(refundNotHoldable);
    return { refund: before, outcome: 'unchanged' };
  }
  if (before.claimedUntil && before.claimedUntil > new Date()) throw busy();
  // The gateway is asked outside the transaction (no row lock held across an HTTP call; the sandbox gateway reads
  // the database itself). The lock below then checks no attempt started since: the same attempts, none claimed.
  const payment = await repository.findPayment(deps.db, before.paymentId);
  const gateway = payment ? deps.gateways.get(payment.gateway) : undefined;
  const unavailable = () =>
    new ApiError(503, gatewayUnavailable, [{ field: 'id', code: 'gateway_unavailable', message: gatewayUnavailable }]);
  if (!payment?.externalId || !gateway) throw unavailable();
  const status = await gateway.status(payment.externalId).catch(() => undefined);
  if (typeof status?.refundedClp !== 'number') throw unavailable();
  const refundedClp = status.refundedClp;
  const result = await deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const locked = step
      ? await lockAtVersion(tx, refundId, step.version)
      : await repository.lockSaleRefund(tx, refundId);
    if (!locked) {
      const seen = await repository.findSaleRefund(tx, refundId);
      if (seen?.status === 'refunded') return { refund: seen, outcome: 'unchanged' as const };
      throw busy();
    }
    const { refund } = locked;
    if (refund.status === 'refunded' || refund.heldAt) return { refund, outcome: 'unchanged' as const };
    if (locked.claimed || refund.attempts !== before.attempts) throw busy();
    const others = otherRefundsOfPayment(await repository.findSaleRefunds(tx, refund.saleId), refund);
    const recorded = recordedAtGatewayClp(others);
    if (refundedClp > recorded) {
      // The gateway gave back more than our records say. This refund alone pending: it was this one. With other
      // refunds of the payment pending too, which one cannot be told: nothing is held, try again once they settle.
      if (others.some((other) => other.status === 'pending') || refundedClp < recorded + refund.amountClp) {
        throw busy();
      }
      const done = await repository.markSaleRefunded(tx, refund.id, `Ya reembolsado en la pasarela (${status.detail})`);
      if (!done) throw new Error(`Sale refund ${refundId} was locked pending and is not`);
      await deps.completions?.[done.reason]?.(tx, done);
      await step?.audit(tx, refund, done);
      return { refund: done, outcome: 'refunded' as const };
    }
    const held = await repository.holdSaleRefund(tx, refund.id, by, step?.reason);
    if (!held) throw new Error(`Sale refund ${refundId} was locked pending and is not`);
    await step?.audit(tx, refund, held);
    return { refund: held, outcome: 'held' as const };
  });
  if (result.outcome === 'refunded') deps.onRefunded?.(result.refund);
  return result;
}

/**
 * The refund's row lock (repository.lockSaleRefund) for an operator's step; when another transaction holds it, the
 * refund as it is if it is already refunded (nothing to do), else 409 «en proceso»; 404 when there is no such refund.
 */
async function lockOrSettled(tx: Database, refundId: number) {
  const locked = await repository.lockSaleRefund(tx, refundId);
  if (locked) return locked;
  const seen = await repository.findSaleRefund(tx, refundId);
  if (!seen) throw new ApiError(404, errorMessages.resourceNotFound);
  if (seen.status === 'refunded') return { settled: seen };
  throw busy();
}

/**
 * Undoes a hold that was not followed by a transfer: the refund goes back to the sweeper's queue, due now. Under the
 * row lock (a mark recording it meanwhile: 409 «en proceso»). Not held or refunded: answered as it is (`changed: false`).
 */
export async function releaseSaleRefund(
  deps: Pick<SaleRefundDeps, 'db'>,
  refundId: number,
  step?: ConsoleStep,
): Promise<{ refund: SaleRefund; changed: boolean }> {
  return deps.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const locked = step ? await lockAtVersion(tx, refundId, step.version) : await lockOrSettled(tx, refundId);
    if ('settled' in locked) return { refund: locked.settled, changed: false };
    const released = await repository.releaseSaleRefund(tx, refundId);
    if (!released) {
      if (step) throw wrongState(refundNotReleasable);
      return { refund: locked.refund, changed: false };
    }
    await step?.audit(tx, locked.refund, released);
    return { refund: released, changed: true };
  });
}

/**
 * An operator gave the money back by bank transfer, after holding the refund (holdSaleRefund; a refund not held is a
 * 409 `refund_not_held`: the transfer must never race a gateway retry): the refund becomes refunded by hand (`method = 'manual'`, the
 * reference, who, when) and its reason is completed in the same transaction, exactly as a gateway success does
 * (withdrawal: the sale withdrawn when its last refund is back, «Reembolso completado» queued). The row is taken as
 * the sweeper takes it (`FOR UPDATE SKIP LOCKED`), so the two never both act on it: a row the sweeper holds (its
 * claim being made or its gateway call in flight) or another mark is recording is a 409 «en proceso»; once refunded,
 * the sweeper never claims it again. Idempotent: an already refunded row answers as it is (`changed: false`).
 */
export async function markSaleRefundedByHand(
  deps: Pick<SaleRefundDeps, 'db' | 'completions' | 'onRefunded'>,
  refundId: number,
  manual: { reference: string; by: string },
  step?: ConsoleStep,
): Promise<{ refund: SaleRefund; changed: boolean }> {
  const result = await deps.db
    .transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const locked = step ? await lockAtVersion(tx, refundId, step.version) : await lockOrSettled(tx, refundId);
      if ('settled' in locked) return { refund: locked.settled, changed: false };
      if (locked.refund.status === 'refunded') {
        if (step) throw wrongState(refundAlreadyDone);
        return { refund: locked.refund, changed: false };
      }
      if (locked.claimed) throw busy();
      if (!locked.refund.heldAt) {
        throw new ApiError(409, refundNotHeld, [{ field: 'id', code: 'refund_not_held', message: refundNotHeld }]);
      }
      const done = await repository.markSaleRefundedByHand(tx, refundId, manual);
      if (!done) throw new Error(`Sale refund ${refundId} was locked pending and is not`);
      await deps.completions?.[done.reason]?.(tx, done);
      await step?.audit(tx, locked.refund, done);
      return { refund: done, changed: true };
    })
    .catch((error: unknown) => {
      // The unique index on transfer_reference: one bank transfer gives back one refund (nothing was written).
      if (violates(error, 'sale_refunds_transfer_reference')) {
        throw new ApiError(409, referenceTaken, [
          { field: 'reference', code: 'reference_taken', message: referenceTaken },
        ]);
      }
      throw error;
    });
  if (result.changed) deps.onRefunded?.(result.refund);
  return result;
}

/** Moves a sale from one status to another (withdrawal: paid → withdrawing → withdrawn); false if it was not in `from`. */
export const moveSaleStatus = repository.moveSaleStatus;
