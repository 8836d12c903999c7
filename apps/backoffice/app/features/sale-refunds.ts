/**
 * Screen 3, «Reembolsos de ventas»: the shapes of GET /api/backoffice/sale-refunds and what the screen says of them
 * (states, reasons, ages), with the filter's Spanish names in the URL (the «Hoy» figures link to
 * `?estado=pendiente` and `?estado=retenida`).
 */

export type SaleRefundState = 'pending' | 'failing' | 'held' | 'transferred' | 'refunded';

export type SaleRefund = {
  id: number;
  saleId: number;
  paymentId: number;
  gateway: string;
  buyOrder: string;
  reason: 'withdrawal' | 'date_change';
  amountClp: number;
  state: SaleRefundState;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  refundedAt: string | null;
  transferReference: string | null;
  markedBy: string | null;
  heldAt: string | null;
  heldBy: string | null;
  heldReason: string | null;
  version: number;
};

export type SaleRefundPage = { refunds: SaleRefund[]; nextCursor: string | null };

export const stateLabels: Record<SaleRefundState, string> = {
  pending: 'Pendiente',
  failing: 'Pendiente con error',
  held: 'Retenida para transferencia',
  transferred: 'Transferida',
  refunded: 'Devuelta por la pasarela',
};

export const reasonLabels: Record<SaleRefund['reason'], string> = {
  withdrawal: 'Retracto',
  date_change: 'Cambio de fechas',
};

/** The state filter: its name in the console's URL (`estado`), the API's, and its label. The first is the default. */
export const stateFilters = [
  { slug: 'abiertas', api: 'open', label: 'Abiertas (pendientes y retenidas)' },
  { slug: 'pendiente', api: 'waiting', label: 'Pendientes en la pasarela' },
  { slug: 'con-error', api: 'failing', label: 'Pendientes con error' },
  { slug: 'retenida', api: 'held', label: 'Retenidas para transferencia' },
  { slug: 'transferida', api: 'transferred', label: 'Transferidas' },
  { slug: 'devuelta', api: 'refunded', label: 'Devueltas por la pasarela' },
  { slug: 'todas', api: 'all', label: 'Todas' },
] as const;
export type StateFilter = (typeof stateFilters)[number];

/** The filter of `?estado=` (unknown or absent: the default, open refunds). */
export function stateFilterOf(slug: string | null): StateFilter {
  return stateFilters.find((filter) => filter.slug === slug) ?? stateFilters[0];
}

/** The console's URL of a page of the queue: the filter (left out when the default) and the cursor of the page. */
export function queuePath(filter: StateFilter, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (filter !== stateFilters[0]) params.set('estado', filter.slug);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/reembolsos-de-ventas${query ? `?${query}` : ''}`;
}

/** How long ago a refund was requested, in words: «recién», «hace 5 min», «hace 3 h», «hace 2 días». */
export function ageText(createdAt: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(createdAt).getTime()) / 60_000));
  if (Number.isNaN(minutes)) return '—';
  if (minutes < 1) return 'recién';
  if (minutes < 60) return `hace ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `hace ${hours} h`;
  return `hace ${Math.floor(hours / 24)} días`;
}

/** The steps the screen offers on a refund in `state`. */
export function stepsFor(state: SaleRefundState): ('hold' | 'transfer' | 'release')[] {
  if (state === 'pending' || state === 'failing') return ['hold'];
  if (state === 'held') return ['transfer', 'release'];
  return [];
}
