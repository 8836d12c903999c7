/**
 * A readable diff between two JSON documents (the publishing model's `describe` of editorial kinds: issue 25, ADR 019):
 * one line per changed leaf, its path named with the kind's words (`names`: a field → its Spanish label; list items
 * are numbered from 1), «(vacío)» for what is not there.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const shown = (value: Json | undefined): string => {
  if (value === undefined || value === null || value === '') return '(vacío)';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (typeof value === 'string') return `«${value.length > 80 ? `${value.slice(0, 77)}…` : value}»`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `${value.length} elemento${value.length === 1 ? '' : 's'}`;
  return JSON.stringify(value).slice(0, 80);
};

export function describeJsonChanges(
  title: string,
  before: unknown,
  after: unknown,
  names: Record<string, string> = {},
): string[] {
  const lines: string[] = [];
  const walk = (path: string[], from: Json | undefined, to: Json | undefined) => {
    const isContainer = (v: Json | undefined) => typeof v === 'object' && v !== null;
    const sameShape = isContainer(from) && isContainer(to) && Array.isArray(from) === Array.isArray(to);
    const oneSide = (isContainer(from) && to === undefined) || (isContainer(to) && from === undefined);
    if (sameShape || oneSide) {
      const a = (from ?? {}) as Record<string, Json>;
      const b = (to ?? {}) as Record<string, Json>;
      const list = Array.isArray(from ?? to);
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        const label = list ? `n.º ${Number(key) + 1}` : (names[key] ?? key);
        walk([...path, label], a[key], b[key]);
      }
      return;
    }
    if (JSON.stringify(from) === JSON.stringify(to)) return;
    lines.push(`${[title, ...path].join(' · ')}: ${shown(from)} → ${shown(to)}`);
  };
  walk([], (before ?? undefined) as Json | undefined, after as Json);
  return lines;
}
