import type { AuditEntry } from '#app/lib/contract.ts';

/** The filters of the audit screen, read from its URL and passed to the API as they are named there. */
export const auditFilterNames = ['actor', 'action', 'from', 'to'] as const;
export type AuditFilters = Partial<Record<(typeof auditFilterNames)[number], string>>;

export function auditFiltersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of auditFilterNames) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** The query of the API call (and of the CSV link and «Más»): the filters, and the cursor of the next page if any. */
export function auditQuery(filters: AuditFilters, cursor?: string | null): string {
  const params = new URLSearchParams(filters);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Who acted, as the table shows it: the API's label (an operator's e-mail, `api-key:<name>`), else «Sistema». */
export function actorLabel(actor: AuditEntry['actor']): string {
  return actor.label.trim() || 'Sistema';
}

/** What was acted on: the target's kind and id (`operator 0f3…`), or — for actions on nothing (a failed sign-in). */
export function targetLabel(entry: Pick<AuditEntry, 'targetType' | 'targetId'>): string {
  return [entry.targetType, entry.targetId].filter(Boolean).join(' ') || '—';
}

/** A before/after value, short: JSON on one line, cut at 200 characters (the CSV export has it whole). */
export function valueLabel(value: unknown): string {
  if (value === undefined || value === null) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
