import type { Role } from '#app/lib/contract.ts';

/**
 * The claims screen («Reembolsos», issue 24): the shapes of its API answers (apps/api/src/modules/claims/
 * console-routes.ts), the inbox's filters as the page's URL names them, and the texts of statuses and amounts.
 */

export type ClaimStatus = 'recibida' | 'en_revision' | 'faltan_documentos' | 'aprobada' | 'rechazada' | 'pagada';

export const claimStatusLabels: Record<ClaimStatus, string> = {
  recibida: 'Recibida',
  en_revision: 'En revisión',
  faltan_documentos: 'Faltan documentos',
  aprobada: 'Aprobada',
  rechazada: 'Rechazada',
  pagada: 'Pagada',
};

/** Who reads claims, who handles them (assign, status, documents, approval) and who records payments. */
export const claimReaders: readonly Role[] = ['admin', 'support', 'finance'];
export const claimHandlers: readonly Role[] = ['admin', 'support'];
export const claimPayers: readonly Role[] = ['admin', 'finance'];

export const holds = (roles: readonly Role[], allowed: readonly Role[]) => roles.some((role) => allowed.includes(role));

/** GET /claims */
export type ClaimListItem = {
  number: string;
  status: ClaimStatus;
  statusText: string;
  holderName: string;
  certificateNumber: string;
  amount: number;
  currency: 'CLP' | 'USD';
  assignedTo: string | null;
  receivedAt: string;
  waitingDays: number;
};
export type ClaimInbox = { claims: ClaimListItem[]; nextCursor: string | null };

export type ClaimEvent = {
  id: number;
  kind: 'status' | 'assign' | 'payment' | 'note' | string;
  at: string;
  by: string;
  from: string | null;
  to: string | null;
  text: string | null;
};

/** GET /claims/:number */
export type ClaimDetail = {
  number: string;
  version: number;
  status: ClaimStatus;
  statusText: string;
  nextStatuses: ClaimStatus[];
  canRecordPayment: boolean;
  receivedAt: string;
  updatedAt: string;
  waitingDays: number;
  assignedTo: { operatorId: string; label: string } | null;
  claimant: {
    name: string;
    documentType: string;
    documentNumber: string;
    email: string;
    phone: string;
    bank: string;
    accountType: string;
    accountNumber: string;
  };
  certificateNumber: string;
  incident: { date: string; description: string };
  amounts: { currency: 'CLP' | 'USD'; claimed: number; approved: number | null; paidClp: number | null };
  missingDocuments: string | null;
  rejectionReason: string | null;
  documents: {
    id: number;
    name: string;
    type: string;
    size: number;
    uploadedAt: string;
    link: { url: string; expiresAt: string };
  }[];
  history: ClaimEvent[];
  notes: ClaimEvent[];
};

/** The inbox's filters as the page's URL names them (Spanish), and as the API's query does. */
export type ClaimFilters = { estado?: string; asignado?: string; antiguedad?: string };

export const statusFilterOptions: { value: string; label: string }[] = [
  { value: '', label: 'Todos' },
  { value: 'esperando', label: 'Esperando a la aseguradora' },
  ...Object.entries(claimStatusLabels).map(([value, label]) => ({ value, label })),
];
export const assignedFilterOptions = [
  { value: '', label: 'Todos' },
  { value: 'yo', label: 'Asignados a mí' },
  { value: 'sin-asignar', label: 'Sin asignar' },
];
export const ageFilterOptions = [
  { value: '', label: 'Cualquiera' },
  { value: '3', label: 'Más de 3 días' },
  { value: '7', label: 'Más de 7 días' },
  { value: '14', label: 'Más de 14 días' },
  { value: '30', label: 'Más de 30 días' },
];

const known = (options: { value: string }[], value: string | null) =>
  value && options.some((option) => option.value === value) ? value : undefined;

export function claimFiltersOf(params: URLSearchParams): ClaimFilters {
  const filters: ClaimFilters = {};
  const estado = known(statusFilterOptions, params.get('estado'));
  const asignado = known(assignedFilterOptions, params.get('asignado'));
  const antiguedad = known(ageFilterOptions, params.get('antiguedad'));
  if (estado) filters.estado = estado;
  if (asignado) filters.asignado = asignado;
  if (antiguedad) filters.antiguedad = antiguedad;
  return filters;
}

/** The page's own query (links to the next page, back to the first). */
export function claimPageQuery(filters: ClaimFilters, cursor?: string | null): string {
  const params = new URLSearchParams(filters as Record<string, string>);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API's query for these filters. */
export function claimApiQuery(filters: ClaimFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (filters.estado) params.set('status', filters.estado === 'esperando' ? 'waiting' : filters.estado);
  if (filters.asignado) params.set('assigned', filters.asignado === 'yo' ? 'me' : 'unassigned');
  if (filters.antiguedad) params.set('olderThanDays', filters.antiguedad);
  if (cursor && /^\d{1,12}$/.test(cursor)) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

const grouped = new Intl.NumberFormat('es-CL', { useGrouping: 'always', maximumFractionDigits: 0 });
const cents = new Intl.NumberFormat('es-CL', {
  useGrouping: 'always',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** An amount as the holder's e-mails write it: `$150.000` in pesos, `USD 1.234,50` in dollars. */
export function formatClaimAmount(amount: number | null | undefined, currency: 'CLP' | 'USD' = 'CLP'): string {
  if (amount === null || amount === undefined) return '—';
  return currency === 'CLP' ? `$${grouped.format(amount)}` : `USD ${cents.format(amount)}`;
}

/**
 * An amount typed in pesos, as a person writes it (`150.000`, `$ 150000`): whole pesos only; `undefined` when it is
 * not one (a decimal comma, letters).
 */
export function parsePesos(text: string): number | undefined {
  const cleaned = text.replace(/[$\s]/g, '').replace(/\.(?=\d{3}(\D|$))/g, '');
  if (!/^\d{1,9}$/.test(cleaned)) return undefined;
  const value = Number(cleaned);
  return value > 0 ? value : undefined;
}

/** An amount in the claim's currency: pesos as above, dollars with up to 2 decimals (`1234,50` or `1234.50`). */
export function parseClaimAmount(text: string, currency: 'CLP' | 'USD'): number | undefined {
  if (currency === 'CLP') return parsePesos(text);
  const cleaned = text.replace(/[US$\s]/gi, '').replace(',', '.');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return undefined;
  const value = Number(cleaned);
  return value > 0 ? value : undefined;
}

/** A history line in words. */
export function eventText(event: ClaimEvent): string {
  const status = (value: string | null) => (value ? (claimStatusLabels[value as ClaimStatus] ?? value) : '—');
  if (event.kind === 'assign') return event.text ? `Asignado a ${event.text}` : 'Quedó sin asignar';
  if (event.kind === 'payment') return `Pago registrado: ${status(event.from)} → ${status(event.to)}`;
  return `${status(event.from)} → ${status(event.to)}`;
}

/** A file size in words (KB or MB). */
export function formatSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
