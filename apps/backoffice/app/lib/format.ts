const dateTime = new Intl.DateTimeFormat('es-CL', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'America/Santiago',
});

/** A timestamp of the API (ISO 8601) as Chile reads it, in Santiago's time; «—» when absent or unreadable. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : dateTime.format(date);
}

const integer = new Intl.NumberFormat('es-CL');

/** A figure of «Hoy»: numbers with Chile's thousands separator, texts (an amount already formatted) as they are. */
export function formatFigure(value: number | string): string {
  return typeof value === 'number' ? integer.format(value) : value;
}
