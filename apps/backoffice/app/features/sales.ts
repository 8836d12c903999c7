/**
 * «Ventas» (issue 24, screen 2): the search as the console's URL names it (Spanish, shareable, what «Hoy» links to)
 * and as the API asks it (GET /api/backoffice/sales), and the labels of what a sale's page shows.
 */

export const saleStatuses = ['pending', 'paid', 'withdrawing', 'withdrawn'] as const;
export type SaleStatus = (typeof saleStatuses)[number];

export const saleStatusLabels: Record<SaleStatus, string> = {
  pending: 'Pendiente de pago',
  paid: 'Pagada',
  withdrawing: 'Retracto en proceso',
  withdrawn: 'Retractada',
};

/** The URL's «estado» words and the API's status each names (en-confirmacion: a payment stuck for 5 minutes). */
const statusWords = {
  pendiente: 'pending',
  pagada: 'paid',
  retractandose: 'withdrawing',
  retractada: 'withdrawn',
  'en-confirmacion': 'confirming',
} as const;
export type StatusWord = keyof typeof statusWords;
export const statusWordLabels: Record<StatusWord, string> = {
  pendiente: saleStatusLabels.pending,
  pagada: saleStatusLabels.paid,
  retractandose: saleStatusLabels.withdrawing,
  retractada: saleStatusLabels.withdrawn,
  'en-confirmacion': 'Con un pago «en confirmación» hace más de 5 minutos',
};

/** «por»: what the searched text is; «todo» lets the API guess. */
const byWords = {
  todo: 'auto',
  venta: 'sale',
  certificado: 'certificate',
  documento: 'document',
  correo: 'email',
  nombre: 'name',
} as const;
export type ByWord = keyof typeof byWords;
export const byWordLabels: Record<ByWord, string> = {
  todo: 'Cualquier dato',
  venta: 'Número de venta',
  certificado: 'Número de certificado',
  documento: 'RUT, DNI o pasaporte',
  correo: 'Correo',
  nombre: 'Nombre o apellido',
};

export type SaleSearch = {
  q?: string;
  por?: ByWord;
  /** A Chile date (AAAA-MM-DD); the URL may say «hoy» or «mes» (as «Hoy» links), read as their first day. */
  desde?: string;
  hasta?: string;
  estado?: StatusWord;
};

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The search of the console's URL: unknown words and malformed dates are dropped, never sent. */
export function saleSearchOf(params: URLSearchParams, now: Date): SaleSearch {
  const search: SaleSearch = {};
  const q = params.get('q')?.trim();
  if (q) search.q = q.slice(0, 120);
  const por = params.get('por');
  if (por && por in byWords && por !== 'todo') search.por = por as ByWord;
  const desde = params.get('desde')?.trim();
  const today = chileToday(now);
  if (desde === 'hoy') search.desde = today;
  else if (desde === 'mes') search.desde = `${today.slice(0, 8)}01`;
  else if (desde && isDate(desde)) search.desde = desde;
  const hasta = params.get('hasta')?.trim();
  if (hasta && isDate(hasta)) search.hasta = hasta;
  const estado = params.get('estado');
  if (estado && estado in statusWords) search.estado = estado as StatusWord;
  return search;
}

/** Chile's date now (the day «hoy» means), as AAAA-MM-DD. */
export function chileToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(now);
}

/** The API's query for a search (and a page's cursor). */
export function salesApiQuery(search: SaleSearch, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (search.q) {
    params.set('q', search.q);
    params.set('by', byWords[search.por ?? 'todo']);
  }
  if (search.desde) params.set('paidFrom', search.desde);
  if (search.hasta) params.set('paidTo', search.hasta);
  if (search.estado) params.set('status', statusWords[search.estado]);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The console's URL of a search (the form's «Más» and «Volver al inicio» links). */
export function salesPageQuery(search: SaleSearch, cursor?: string | null): string {
  const params = new URLSearchParams(search as Record<string, string>);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Spec §9 document types. */
export const documentTypeLabels: Record<number, string> = { 1: 'RUT', 2: 'DNI', 3: 'Pasaporte' };

export const paymentStatusLabels: Record<string, string> = {
  pending: 'Iniciado',
  confirming: 'En confirmación',
  authorized: 'Autorizado',
  declined: 'Rechazado',
  aborted: 'Anulado por el comprador',
  timeout: 'Expirado',
  error: 'Error',
};

export const paymentPurposeLabels: Record<string, string> = {
  purchase: 'Compra',
  date_change: 'Cambio de fechas',
};

export const emailKindLabels: Record<string, string> = {
  'certificate-email': 'Certificados',
  'withdrawal-email': 'Retracto',
  'purchase-access-cap': 'Aviso de códigos de acceso',
};

export const jobStatusLabels: Record<string, string> = {
  pending: 'En cola',
  done: 'Enviado',
  failed: 'Falló',
};

export const dateChangeStatusLabels: Record<string, string> = {
  awaiting_payment: 'Esperando el pago de la diferencia',
  applied: 'Aplicado',
  cancelled: 'Cancelado',
};

export const voidedReasonLabels: Record<string, string> = {
  withdrawal: 'anulado por retracto',
  date_change: 'reemplazado por cambio de fechas',
};
