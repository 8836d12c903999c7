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

// Grouped from the thousands (es-CL alone leaves 4-digit numbers ungrouped): 1.234, as the storefront's amounts.
const integer = new Intl.NumberFormat('es-CL', { useGrouping: 'always', maximumFractionDigits: 0 });

/**
 * A figure of «Hoy»: numbers with Chile's thousands separator, amounts in pesos (`unit` clp) as `$1.234.567`, texts
 * as they are.
 */
export function formatFigure(value: number | string, unit?: 'clp'): string {
  if (typeof value !== 'number') return value;
  return unit === 'clp' ? `$${integer.format(value)}` : integer.format(value);
}
