import type { Role } from '#app/lib/contract.ts';

/** Screens 5 and 6 of issue 24, «Contacto» and «Newsletter»: the API's shapes and the screens' words. */

export type ContactState = 'unanswered' | 'answered' | 'handled';

/** GET /api/backoffice/contact-requests, one row. */
export type ContactSummary = {
  id: number;
  receivedAt: string;
  fullName: string;
  email: string;
  subject: string;
  state: ContactState;
  closedAt: string | null;
  closedBy: { operatorId: string | null; name: string | null; label: string } | null;
};
/** GET /api/backoffice/contact-requests/:id */
export type ContactDetail = ContactSummary & { phone: string; detail: string; recipient: string; reply: string | null };
export type ContactPage = { requests: ContactSummary[]; nextCursor: string | null };

export const contactStateLabels: Record<ContactState, string> = {
  unanswered: 'Sin responder',
  answered: 'Respondida',
  handled: 'Atendida',
};

/** The console's URL words for a state (`?estado=`), and the API's. */
const stateWords: Record<string, ContactState> = {
  'sin-responder': 'unanswered',
  respondida: 'answered',
  atendida: 'handled',
};
export const contactStateOptions = Object.entries(stateWords).map(([word, state]) => ({
  value: word,
  label: contactStateLabels[state],
}));
/** The age filter (`?antiguedad=` hours): received more than this long ago. */
export const ageOptions = [
  { value: '24', label: 'Más de 24 horas' },
  { value: '48', label: 'Más de 48 horas' },
  { value: '168', label: 'Más de 7 días' },
];

export type ContactFilters = { estado?: string; antiguedad?: string };

/** The inbox's filters from its URL; unknown values are dropped (the page shows everything then). */
export function contactFiltersOf(params: URLSearchParams): ContactFilters {
  const filters: ContactFilters = {};
  const estado = params.get('estado') ?? '';
  if (stateWords[estado]) filters.estado = estado;
  const antiguedad = params.get('antiguedad') ?? '';
  if (ageOptions.some((option) => option.value === antiguedad)) filters.antiguedad = antiguedad;
  return filters;
}

/** A query string of the non-empty `values` (and the cursor of the next page): the page's own, or the API's. */
export function pageQuery(values: Record<string, string | undefined>, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API's query for the inbox's filters, in its words. */
export const contactApiQuery = (filters: ContactFilters, cursor?: string | null) =>
  pageQuery({ state: filters.estado && stateWords[filters.estado], olderThanHours: filters.antiguedad }, cursor);

/** Who answered or handled a request, as the console shows it: their name and e-mail, or the API key. */
export function closedByLabel(closedBy: ContactSummary['closedBy']): string {
  if (!closedBy) return '—';
  return closedBy.name ? `${closedBy.name} (${closedBy.label})` : closedBy.label;
}

/** GET /api/backoffice/newsletter/subscribers, one row. */
export type Subscriber = {
  id: number;
  email: string;
  state: 'confirmed' | 'pending';
  subscribedAt: string;
  confirmedAt: string | null;
};
export type SubscriberPage = { subscribers: Subscriber[]; nextCursor: string | null };
export const subscriberStateLabels: Record<Subscriber['state'], string> = {
  confirmed: 'Confirmada',
  pending: 'Pendiente',
};
const subscriberWords: Record<string, Subscriber['state']> = { confirmadas: 'confirmed', pendientes: 'pending' };
export const subscriberStateOptions = [
  { value: 'confirmadas', label: 'Confirmadas' },
  { value: 'pendientes', label: 'Pendientes de confirmar' },
];
export type SubscriberFilters = { estado?: string; correo?: string };

export function subscriberFiltersOf(params: URLSearchParams): SubscriberFilters {
  const filters: SubscriberFilters = {};
  const estado = params.get('estado') ?? '';
  if (subscriberWords[estado]) filters.estado = estado;
  const correo = params.get('correo')?.trim().slice(0, 254);
  if (correo) filters.correo = correo;
  return filters;
}

export const subscriberApiQuery = (filters: SubscriberFilters, cursor?: string | null) =>
  pageQuery({ state: filters.estado && subscriberWords[filters.estado], email: filters.correo }, cursor);

/** Who may download the confirmed subscribers (guard.ts: admin and content; support reads and unsubscribes). */
export const exportRoles: readonly Role[] = ['admin', 'content'];
