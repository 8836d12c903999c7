import { type Buyer, buyerKeys } from '@travesia/domain/buyer';
import { todayInChile } from '@travesia/domain/dates';
import { convertUsdToClp } from '@travesia/domain/exchange';
import type { Rule } from '@travesia/domain/field-errors';
import { DocumentType } from '@travesia/domain/ids';
import { formatUsd } from '@travesia/domain/money';
import { centsToDecimal } from '@travesia/domain/pricing';
import { isValidRut } from '@travesia/domain/rut';
import type { Database } from '#app/db/client.ts';
import * as repository from './discount-repository.ts';

/**
 * Discount codes at pricing and at payment (issue 25 item 3; docs/pricing.md). A code is typed by the visitor in
 * the quoter; every price the store shows says, per plan, whether it applied and, if not, why in words. Its uses are
 * counted from the payment start (reserved under the code's row lock) to the paid sale, so no number of buyers
 * paying at once can pass its limits, and nobody is charged a price other than the one they were shown.
 */

export type DiscountCodeRow = repository.DiscountCodeRow;

/** Why a code that exists does not apply. `unknown` (no such code, or not valid yet) says nothing more. */
export const discountRefusals = ['expired', 'inactive', 'exhausted', 'buyer_limit', 'not_for_plan'] as const;
export type DiscountRefusal = (typeof discountRefusals)[number];

export type DiscountOutcome = {
  code: string | null;
  /** none: no code typed; applied; unknown: no such code (or not valid yet); refused: exists, and says why not. */
  status: 'none' | 'applied' | 'unknown' | 'refused';
  message: string | null;
  reason: DiscountRefusal | null;
  percentBp: number;
  amountUsdCents: number;
};

export const discountMessages = {
  appliedPercent: (bp: number) => `Código de descuento aplicado: ${String(bp / 100).replace('.', ',')} % adicional`,
  appliedAmount: (cents: number) => `Código de descuento aplicado: ${formatUsd(cents / 100)} de descuento`,
  unknown: 'El código de descuento no es válido; te mostramos los precios sin él.',
  expired: 'El código de descuento está vencido; te mostramos los precios sin él.',
  inactive: 'El código de descuento ya no está vigente; te mostramos los precios sin él.',
  exhausted: 'El código ya alcanzó su límite de usos; te mostramos los precios sin él.',
  buyer_limit: 'Ya usaste este código de descuento las veces que permite; te mostramos los precios sin él.',
  not_for_plan: 'El código de descuento no aplica a este plan.',
} as const;

/**
 * What a payment start answers when the code the buyer may have seen applied no longer applies: nothing was
 * charged, and the quotation's page now shows the price without it.
 */
const notChargedTail = 'No se hizo ningún cargo: vuelve a tu cotización para ver el precio sin el código.';
export const paymentRefusals = {
  expired: `El código de descuento venció. ${notChargedTail}`,
  inactive: `El código de descuento ya no está vigente. ${notChargedTail}`,
  exhausted: `El código de descuento ya alcanzó su límite de usos. ${notChargedTail}`,
  buyer_limit: `Ya usaste este código de descuento las veces que permite. ${notChargedTail}`,
  changed: `El código de descuento cambió mientras pagabas. ${notChargedTail}`,
} as const;

const refusalRule = (message: string): Rule => ({ code: 'discount_code_refused', message });

/** How long a payment start holds a use for an attempt that never comes back (a closed tab). */
export const reservationMinutes = 20;

/** Who asks, when known: the quotation (its own use never counts against it) and its buyer's keys. */
export type DiscountContext = {
  quotationId?: string | undefined;
  buyer?: { email?: string | null; document?: string | null } | undefined;
};

export type DiscountResolution = {
  typed: string | null;
  row: DiscountCodeRow | undefined;
  /** Why it applies to no plan at all; undefined when it applies (to the plans it names). */
  refusal: Exclude<DiscountRefusal, 'not_for_plan'> | 'unknown' | undefined;
};

export const normalisedCode = (code: string | null | undefined) => code?.trim().toUpperCase() || null;

/** The buyer keys a quotation's contact fields give (the quote step's e-mail and RUT), before travellers exist. */
export function contactKeys(contact: { email?: string | null; rut?: string | null }): DiscountContext['buyer'] {
  const email = contact.email?.trim().toLowerCase() || null;
  const rut = contact.rut?.trim();
  // As buyerOf: the quote step's RUT names the buyer only when it is a valid one.
  const document =
    rut && isValidRut(rut)
      ? buyerKeys({ email: '', documentType: DocumentType.rut, documentNumber: rut }).document
      : null;
  return email || document ? { email, document } : undefined;
}

async function refusalOf(
  db: Database,
  row: DiscountCodeRow | undefined,
  context: DiscountContext,
  today: string,
): Promise<DiscountResolution['refusal']> {
  // Not valid yet reads as unknown: a campaign that has not started is not told to whoever guesses its code.
  if (!row || today < row.validFrom) return 'unknown';
  if (!row.active) return 'inactive';
  if (today > row.validTo) return 'expired';
  const buyer = context.buyer && (context.buyer.email || context.buyer.document) ? context.buyer : undefined;
  if (row.maxUses === null && (row.maxUsesPerBuyer === null || !buyer)) return undefined;
  const counts = await repository.countUses(db, row.companyId, row.code, {
    excludeQuotationId: context.quotationId,
    buyer,
  });
  if (row.maxUses !== null && counts.total >= row.maxUses) return 'exhausted';
  if (row.maxUsesPerBuyer !== null && buyer && counts.buyer >= row.maxUsesPerBuyer) return 'buyer_limit';
  return undefined;
}

/**
 * The code as a paid use was priced with: its percent or amount, on the plan bought. A later edit of the code (a new
 * percent, other plans) must not reprice a purchase already paid (a date change would charge or refund the
 * difference); a use recorded before its terms were kept reads the code as it is.
 */
function termsPaidWith(row: DiscountCodeRow, use: repository.DiscountCodeUseRow): DiscountCodeRow {
  if (use.percentBp === null || use.amountUsdCents === null) return row;
  const amount = use.amountUsdCents > 0;
  return {
    ...row,
    kind: amount ? 'amount' : 'percent',
    percentBp: amount ? 0 : use.percentBp,
    amountUsdCents: amount ? use.amountUsdCents : null,
    productIds: [use.productId],
  };
}

/**
 * The typed code looked up once per pricing. A quotation whose sale already paid with this code keeps it, with the
 * terms it paid with (a date change reprices the same purchase): its validity and limits were checked when it was
 * bought.
 */
export async function resolveDiscountCode(
  db: Database,
  companyId: number,
  code: string | null,
  context: DiscountContext = {},
  today = todayInChile(),
): Promise<DiscountResolution> {
  const typed = normalisedCode(code);
  if (!typed) return { typed: null, row: undefined, refusal: undefined };
  const row = await repository.findCode(db, companyId, typed);
  if (row && context.quotationId) {
    const use = await repository.findUseOfQuotation(db, context.quotationId);
    if (use?.status === 'used' && use.code === typed)
      return { typed, row: termsPaidWith(row, use), refusal: undefined };
  }
  return { typed, row, refusal: await refusalOf(db, row, context, today) };
}

const noDiscount = { reason: null, percentBp: 0, amountUsdCents: 0 } as const;

/** What the code does to one plan's price, and what the store says about it. */
export function discountForPlan(resolution: DiscountResolution, productId: number | null): DiscountOutcome {
  const { typed, row, refusal } = resolution;
  if (!typed) return { code: null, status: 'none', message: null, ...noDiscount };
  if (!row || refusal === 'unknown')
    return { code: typed, status: 'unknown', message: discountMessages.unknown, ...noDiscount };
  const reason: DiscountRefusal | undefined =
    refusal ??
    (productId !== null && row.productIds !== null && !row.productIds.includes(productId) ? 'not_for_plan' : undefined);
  if (reason) return { code: typed, status: 'refused', message: discountMessages[reason], ...noDiscount, reason };
  const amount = row.kind === 'amount';
  return {
    code: typed,
    status: 'applied',
    message: amount
      ? discountMessages.appliedAmount(row.amountUsdCents ?? 0)
      : discountMessages.appliedPercent(row.percentBp),
    reason: null,
    percentBp: amount ? 0 : row.percentBp,
    amountUsdCents: amount ? (row.amountUsdCents ?? 0) : 0,
  };
}

/** A payment start's refusal for a plan whose code no longer applies for a reason the buyer may not have seen. */
export function paymentRefusalOf(outcome: DiscountOutcome): Rule | null {
  if (outcome.status !== 'refused' || outcome.reason === null || outcome.reason === 'not_for_plan') return null;
  return refusalRule(paymentRefusals[outcome.reason]);
}

export type UseToReserve = {
  companyId: number;
  quotationId: string;
  productId: number;
  outcome: DiscountOutcome;
  buyer: Buyer | undefined;
  price: { codeDiscountCents: number; totalCents: number; totalClp: number };
  clpPerUsd: string;
};

/**
 * Inside the payment start's transaction (purchase lock held): takes one use of the code for the quotation, under the
 * code's row lock, or answers why not in words. With no code applied, any earlier reservation of the quotation stops
 * counting. The limits are read again under the lock, so of buyers paying at once only as many as the limit allows
 * get through; the others are told before anything is charged.
 */
export async function reserveDiscountUse(
  tx: Database,
  input: UseToReserve,
  today = todayInChile(),
): Promise<Rule | null> {
  const { outcome } = input;
  if (outcome.status !== 'applied' || outcome.code === null) {
    await repository.releaseUse(tx, input.quotationId);
    return null;
  }
  const row = await repository.lockCode(tx, input.companyId, outcome.code);
  // An edit since the pricing that changes this plan's price refuses the start; one that does not (a limit raised,
  // a note) lets it through, and the limits are read again below.
  const now = row && discountForPlan({ typed: row.code, row, refusal: undefined }, input.productId);
  if (
    !row ||
    now?.status !== 'applied' ||
    now.percentBp !== outcome.percentBp ||
    now.amountUsdCents !== outcome.amountUsdCents
  )
    return refusalRule(paymentRefusals.changed);
  const keys = input.buyer ? buyerKeys(input.buyer) : undefined;
  const refusal = await refusalOf(tx, row, { quotationId: input.quotationId, buyer: keys }, today);
  if (refusal === 'unknown') return refusalRule(paymentRefusals.changed);
  if (refusal) return refusalRule(paymentRefusals[refusal]);
  await repository.reserveUse(
    tx,
    {
      companyId: input.companyId,
      code: row.code,
      quotationId: input.quotationId,
      productId: input.productId,
      buyerEmail: keys?.email ?? '',
      buyerDocument: keys?.document ?? '',
      discountUsdCents: input.price.codeDiscountCents,
      discountClp: convertUsdToClp(centsToDecimal(input.price.codeDiscountCents), input.clpPerUsd),
      revenueUsdCents: input.price.totalCents,
      revenueClp: input.price.totalClp,
      percentBp: outcome.percentBp,
      amountUsdCents: outcome.amountUsdCents,
    },
    reservationMinutes,
  );
  return null;
}

/**
 * Before the gateway is asked to commit an attempt (its claim, purchase lock held): the quotation's use must still be
 * held. A reservation that lapsed (a slow payer) is taken again if the limits still allow it; otherwise the attempt
 * is refused in words and never committed, so nothing is charged.
 */
export async function holdDiscountUse(tx: Database, quotationId: string): Promise<string | null> {
  const use = await repository.findUseOfQuotation(tx, quotationId);
  if (!use || use.status === 'used') return null;
  if (await repository.extendReservation(tx, quotationId, reservationMinutes)) return null;
  const row = await repository.lockCode(tx, use.companyId, use.code);
  if (!row) return paymentRefusals.changed;
  // Its validity was checked when the payment started; only the limits can have been reached meanwhile.
  const counts = await repository.countUses(tx, use.companyId, use.code, {
    excludeQuotationId: quotationId,
    buyer: { email: use.buyerEmail, document: use.buyerDocument },
  });
  if (row.maxUses !== null && counts.total >= row.maxUses) return paymentRefusals.exhausted;
  if (row.maxUsesPerBuyer !== null && counts.buyer >= row.maxUsesPerBuyer) return paymentRefusals.buyer_limit;
  const {
    id: _id,
    status: _status,
    reservedUntil: _until,
    createdAt: _at,
    usedAt: _used,
    saleId: _sale,
    ...kept
  } = use;
  await repository.reserveUse(tx, kept, reservationMinutes);
  return null;
}

/** The attempt holding the quotation's use failed or was voided: the use is free again. */
export const releaseDiscountUse = (db: Database, quotationId: string) => repository.releaseUse(db, quotationId);

/** In the transaction that marks the sale paid: its use counts for good, with what the sale paid. */
export function recordDiscountUse(
  tx: Database,
  sale: { id: number; quotationId: string; amountUsdCents: number; amountClp: number },
) {
  return repository.markUsed(tx, sale.quotationId, {
    saleId: sale.id,
    revenueUsdCents: sale.amountUsdCents,
    revenueClp: sale.amountClp,
  });
}
