import { addDays, todayInChile } from '@travesia/domain/dates';
import type { Database } from '#app/db/client.ts';
import type { ExchangeRateSource, PublishedRate } from '#app/integrations/exchange-rates/index.ts';
import * as repository from './repository.ts';
import type { ExchangeRateSource as RateOrigin } from './tables.ts';

export type ExchangeRateRow = repository.ExchangeRateRow;

/**
 * The largest move of the rate, up or down, taken without an operator's confirmation: 20 %. The peso has not moved
 * that much against the dollar in one day in decades, so a bigger one is a misprint or a wrong series; the worker
 * refuses it (its job fails, visible on «Hoy») and an operator who knows better enters it by hand, confirming.
 */
export const maxUnconfirmedJump = 0.2;

/** The rate's change against the one in force, as a fraction (0.05 = 5 %); 0 when there is none in force. */
export function jumpOf(current: string | undefined, next: string): number {
  if (!current) return 0;
  return Math.abs(Number(next) - Number(current)) / Number(current);
}

/** The read cache's scope of the rate; clearing it also drops every kept plan-search answer and page. */
export const exchangeRateCacheScope = 'exchange-rate:';

/** The rate in force now with where it came from (the console's «Tipo de cambio»), read fresh. */
export function currentExchangeRate(db: Database, companyId: number, now: Date) {
  return repository.findCurrentExchangeRate(db, companyId, now);
}

/** The company's rates, newest first, `limit` at most, older than the row `before` (keyset). */
export function exchangeRateHistory(db: Database, companyId: number, limit: number, before?: number) {
  return repository.listExchangeRates(db, companyId, limit, before);
}

/**
 * Records a rate an operator entered (inside the caller's transaction, which audits it), in force from `now`, the
 * day it was entered as its day: that day's publication by the source does not replace it.
 */
export async function recordManualRate(
  tx: Database,
  companyId: number,
  entry: { clpPerUsd: string; reason: string; by: string },
  now: Date,
): Promise<ExchangeRateRow> {
  const row = await repository.insertExchangeRate(tx, {
    companyId,
    rate: entry.clpPerUsd,
    validFrom: now,
    source: 'manual',
    observedOn: todayInChile(now),
    reason: entry.reason,
    createdBy: entry.by,
  });
  if (!row) throw new Error('A rate entered by hand is never refused by the fetched-day index');
  return row;
}

export type FetchOutcome =
  | { companyId: number; outcome: 'recorded'; before: ExchangeRateRow | undefined; rate: ExchangeRateRow }
  /** The source has nothing newer than the rate in force (a weekend, a holiday, already recorded). */
  | { companyId: number; outcome: 'unchanged'; published: PublishedRate | null }
  /** Refused: it moves more than maxUnconfirmedJump from the rate in force. */
  | { companyId: number; outcome: 'rejected'; published: PublishedRate; current: string; jump: number };

export type FetchOptions = {
  /** The companies to record it for; all that have a USD→CLP rate when omitted (the worker). */
  companyIds?: number[];
  /** Runs in the transaction that records a new rate (the console's audit row). */
  onRecorded?: (tx: Database, before: ExchangeRateRow | undefined, rate: ExchangeRateRow) => Promise<void>;
};

/**
 * Asks the source for the newest published rate and records it, once per published day, for each company whose
 * rate in force is of an earlier day. Throws the source's ExchangeRateSourceError when it cannot be had. Any number
 * of processes may run it at once: the fetched-day unique index keeps one row per company and day.
 */
export async function fetchExchangeRate(
  db: Database,
  source: ExchangeRateSource,
  now: Date,
  options: FetchOptions = {},
): Promise<FetchOutcome[]> {
  const published = await source.latest(todayInChile(now));
  const companyIds = options.companyIds ?? (await repository.listCompaniesWithExchangeRates(db));
  const outcomes: FetchOutcome[] = [];
  for (const companyId of companyIds) {
    outcomes.push(await recordPublished(db, companyId, source.id, published, now, options));
  }
  return outcomes;
}

async function recordPublished(
  db: Database,
  companyId: number,
  origin: RateOrigin,
  published: PublishedRate | null,
  now: Date,
  options: FetchOptions,
): Promise<FetchOutcome> {
  if (!published) return { companyId, outcome: 'unchanged', published };
  const current = await repository.findCurrentExchangeRate(db, companyId, now);
  // Already recorded for that day, or entered by hand on it or later: the newest decision stays.
  if (current?.observedOn && current.observedOn >= published.day) return { companyId, outcome: 'unchanged', published };
  const jump = jumpOf(current?.rate, published.clpPerUsd);
  if (current && jump > maxUnconfirmedJump) {
    return { companyId, outcome: 'rejected', published, current: current.rate, jump };
  }
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const rate = await repository.insertExchangeRate(tx, {
      companyId,
      rate: published.clpPerUsd,
      validFrom: now,
      source: origin,
      observedOn: published.day,
      reason: null,
      createdBy: null,
    });
    if (!rate) return { companyId, outcome: 'unchanged' as const, published };
    await options.onRecorded?.(tx, current, rate);
    return { companyId, outcome: 'recorded' as const, before: current, rate };
  });
}

/**
 * Business days (Monday to Friday; holidays are not known here) after `day` up to and including `today`, both
 * YYYY-MM-DD: a Friday's rate is 1 business day old on Monday, a Thursday's is 2.
 */
export function businessDaysSince(day: string, today: string): number {
  let count = 0;
  for (let at = addDays(day, 1); at <= today; at = addDays(at, 1)) {
    const weekday = new Date(`${at}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count += 1;
    if (count > 30) break;
  }
  return count;
}
