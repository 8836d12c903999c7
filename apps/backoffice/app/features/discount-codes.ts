import type { Role } from '#app/lib/contract.ts';

/**
 * «Códigos de descuento» (issue 25 item 3): the shapes of GET /api/backoffice/discount-codes and what the screen says
 * of them. Amounts and percents travel as the text the operator typed; the API turns them into cents.
 */

export type DiscountCodeState = 'activo' | 'programado' | 'vencido' | 'agotado' | 'desactivado';

export type DiscountCode = {
  code: string;
  kind: 'percent' | 'amount';
  percent: string | null;
  amountUsd: string | null;
  label: string;
  validFrom: string;
  validTo: string;
  maxUses: number | null;
  maxUsesPerBuyer: number | null;
  productIds: number[] | null;
  active: boolean;
  note: string;
  version: number;
  updatedAt: string;
  state: DiscountCodeState;
  usage: {
    paidSales: number;
    reserved: number;
    formatted: { discountUsd: string; discountClp: string; revenueUsd: string; revenueClp: string };
  };
};

export type DiscountCodeList = { today: string; plans: { id: number; label: string }[]; codes: DiscountCode[] };

/** Who edits (the rest of the screen's roles, finance, read). */
export const discountCodeRoles: readonly Role[] = ['admin', 'pricing', 'finance'];
export const discountCodeEditors: readonly Role[] = ['admin', 'pricing'];

export const stateLabels: Record<DiscountCodeState, string> = {
  activo: 'Activo',
  programado: 'Programado',
  vencido: 'Vencido',
  agotado: 'Agotado',
  desactivado: 'Desactivado',
};

/** The form's fields, as the API names them (the action posts them as they are, blanks as «sin límite»). */
export const discountFields = [
  'code',
  'kind',
  'percent',
  'amountUsd',
  'validFrom',
  'validTo',
  'maxUses',
  'maxUsesPerBuyer',
  'productIds',
  'note',
  'active',
] as const;
export type DiscountField = (typeof discountFields)[number];

/** 2026-11-28 → 28-11-2026, as Chile writes dates. */
export const chileDate = (isoDate: string) => isoDate.split('-').reverse().join('-');

/** «Todos los planes» or their names, in the list's order. */
export function plansText(code: Pick<DiscountCode, 'productIds'>, plans: DiscountCodeList['plans']): string {
  if (code.productIds === null) return 'Todos los planes';
  return plans
    .filter((plan) => code.productIds?.includes(plan.id))
    .map((plan) => plan.label)
    .join(', ');
}

/** «10 usos (2 por comprador)», «Sin límite». */
export function limitsText(code: Pick<DiscountCode, 'maxUses' | 'maxUsesPerBuyer'>): string {
  const total = code.maxUses === null ? 'Sin límite total' : `${code.maxUses} ${code.maxUses === 1 ? 'uso' : 'usos'}`;
  const perBuyer = code.maxUsesPerBuyer === null ? '' : ` (${code.maxUsesPerBuyer} por comprador)`;
  return `${total}${perBuyer}`;
}
