import { parseIsoDate } from '@travesia/domain/dates';

/** 'YYYY-MM-DD' ↔ 'dd-mm-aaaa', the way Chileans write dates. */
export function toChileanDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return y && m && d ? `${d}-${m}-${y}` : iso;
}

/** Accepts dd-mm-aaaa or dd/mm/aaaa; answers the ISO date, or null when it is not a calendar date. */
export function fromChileanDate(text: string): string | null {
  const match = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [, d = '', m = '', y = ''] = match;
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  return parseIsoDate(iso) === null ? null : iso;
}
