/**
 * An official USD→CLP rate, as a source publishes it: the Chile date it is the rate of, and pesos per dollar as a
 * decimal string (at most 4 decimals, the column's scale).
 */
export type PublishedRate = { day: string; clpPerUsd: string };

export type ExchangeRateSourceId = 'bcch' | 'mindicador';

/** Where the worker fetches the «dólar observado» from: one implementation per provider (bcch.ts, mindicador.ts). */
export interface ExchangeRateSource {
  readonly id: ExchangeRateSourceId;
  /** As the console shows it. */
  readonly label: string;
  /**
   * The newest rate published for `day` (YYYY-MM-DD, Chile) or a day before it, within the last `lookBackDays` days;
   * null when the source has none in that window. A weekend or a holiday is not an error: the newest one is the
   * last business day's. Throws {@link ExchangeRateSourceError} when no answer could be had or it cannot be read.
   */
  latest(day: string): Promise<PublishedRate | null>;
}

/** Days asked for at once: a long weekend with holidays around it stays inside. */
export const lookBackDays = 10;

/** The source could not be reached, refused us, or answered something that is not a rate. */
export class ExchangeRateSourceError extends Error {
  constructor(
    readonly source: ExchangeRateSourceId,
    readonly reason: string,
  ) {
    super(`Exchange-rate source ${source} unavailable: ${reason}`);
    this.name = 'ExchangeRateSourceError';
  }
}

/** A positive decimal with at most 4 decimals (the column's scale), or undefined for anything else. */
export function parseRate(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,10}(\.\d+)?$/.test(text)) return undefined;
  const number = Number(text);
  if (!Number.isFinite(number) || number <= 0) return undefined;
  return number.toFixed(4);
}

/** GET `url` as JSON within `timeoutMs`; every failure is an ExchangeRateSourceError naming what happened. */
export async function getJson(source: ExchangeRateSourceId, url: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    throw new ExchangeRateSourceError(source, name === 'TimeoutError' ? 'timeout' : 'unreachable');
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ExchangeRateSourceError(source, `status ${response.status}`);
  }
  try {
    return await response.json();
  } catch {
    throw new ExchangeRateSourceError(source, 'unreadable answer (not JSON)');
  }
}
