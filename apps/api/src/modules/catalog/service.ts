import { chileDateOf } from '@travesia/domain/dates';
import { convertUsdToClp } from '@travesia/domain/exchange';
import type { Database } from '#app/db/client.ts';
import { resourceNotFound } from '#app/errors.ts';
import { readCache } from '#app/lib/cache/read-cache.ts';
import * as repository from './repository.ts';
import type { Modality } from './schemas.ts';

export async function listOrigins(db: Database, companyId: number) {
  return readCache(db).get(`origins:${companyId}`, () => repository.listOrigins(db, companyId));
}

/*
 * Catalogue reads go through the read cache (lib/cache/read-cache.ts). The company itself is checked once per request by
 * the route-level hook in app.ts, not here.
 */

/** Wire shape of spec §3 Modality; the stored row also keeps the trip-length limits the quoter enforces. */
const modalityRows = (db: Database, companyId: number) =>
  readCache(db).get(`modalities:${companyId}`, () => repository.listModalities(db, companyId));

/** A modality of the company from the cached list (no query per plan search), or undefined. */
const findCachedModality = async (db: Database, companyId: number, modalityId: number) =>
  (await modalityRows(db, companyId)).find((row) => row.id === modalityId);

export async function listModalities(db: Database, companyId: number): Promise<Modality[]> {
  const rows = await modalityRows(db, companyId);
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    adddays: row.addDays,
    returnDateConfiguration: { enabled: row.returnDateEnabled, addDays: row.returnAddDays },
    minDays: row.minDays,
    maxDays: row.maxDays,
  }));
}

export async function listDestinationsByModality(db: Database, companyId: number, modalityId: number) {
  const modality = await findCachedModality(db, companyId, modalityId);
  if (!modality) throw resourceNotFound();
  // Keyed by a modality that exists: as many entries as the company has modalities.
  return readCache(db).get(`destinations:${companyId}:${modalityId}`, () =>
    repository.listDestinationsByModality(db, companyId, modalityId),
  );
}

export async function listCountriesOfDestination(db: Database, companyId: number, destinationId: number) {
  const destination = await repository.findDestination(db, companyId, destinationId);
  if (!destination) throw resourceNotFound();
  return repository.listCountriesOfDestination(db, destinationId);
}

export async function listCountries(db: Database, companyId: number) {
  return readCache(db).get(`countries:${companyId}`, () => repository.listCountriesOfCompany(db, companyId));
}

export async function listPassengerTypes(db: Database, companyId: number) {
  return readCache(db).get(`passenger-types:${companyId}`, () => repository.listPassengerTypes(db, companyId));
}

export async function listPaymentGateways(db: Database, companyId: number) {
  return readCache(db).get(`payment-gateways:${companyId}`, () => repository.listPaymentGateways(db, companyId));
}

/**
 * The rate in force, through the read cache: a rate whose validity starts later is used from then on, at the latest
 * one CATALOG_CACHE_TTL_MS after (or at once after the invalidation hook), like any catalogue change.
 */
const cachedExchangeRate = (db: Database, companyId: number) =>
  readCache(db).get(`exchange-rate:${companyId}`, () => repository.findCurrentExchangeRate(db, companyId));

/**
 * Since when the rate in force has been, and the Chile day it is the rate of (its published day; for a seeded rate,
 * the day it took effect): read fresh, never cached, for the console's «Hoy», which shows its age.
 */
export async function exchangeRateInForceSince(
  db: Database,
  companyId: number,
  now: Date,
): Promise<{ since: Date; day: string } | null> {
  const row = await repository.findCurrentExchangeRate(db, companyId, now);
  if (!row) return null;
  return { since: row.validFrom, day: row.observedOn ?? chileDateOf(row.validFrom) };
}

export {
  businessDaysSince,
  currentExchangeRate,
  exchangeRateCacheScope,
  exchangeRateHistory,
  type FetchOutcome,
  fetchExchangeRate,
  jumpOf,
  maxUnconfirmedJump,
  recordManualRate,
} from './exchange-rates.ts';

/** USD amount → CLP at the stored rate (spec §7 exchange-rate: "amount and type"). */
export async function convertAmount(db: Database, companyId: number, amountUsd: string) {
  const current = await cachedExchangeRate(db, companyId);
  if (!current) throw resourceNotFound();
  return { amount: convertUsdToClp(amountUsd, current.rate), type: Number(current.rate) };
}

/** The date rules of a modality (domain ModalityDateRules), or undefined when the company has no such modality. */
export async function findModalityRules(db: Database, companyId: number, modalityId: number) {
  const row = await findCachedModality(db, companyId, modalityId);
  if (!row) return undefined;
  return {
    id: row.id,
    code: row.code,
    returnDateEnabled: row.returnDateEnabled,
    returnAddDays: row.returnAddDays,
    minDays: row.minDays,
    maxDays: row.maxDays,
  };
}

/** CLP per USD in force, as a decimal string. */
export async function currentRate(db: Database, companyId: number): Promise<string> {
  const current = await cachedExchangeRate(db, companyId);
  if (!current) throw resourceNotFound();
  return current.rate;
}

/** Names of a trip's destination and modality, for documents (certificates, e-mails). */
export async function tripLabels(db: Database, companyId: number, destinationId: number, modalityId: number) {
  const [destination, modality] = await Promise.all([
    repository.findDestination(db, companyId, destinationId),
    findCachedModality(db, companyId, modalityId),
  ]);
  return { destination: destination?.label ?? '', modality: modality?.label ?? '' };
}

/** A country by id with its ISO code, or undefined (certificates: is the destination a Schengen state?). */
export function findCountry(db: Database, countryId: number) {
  return repository.findCountry(db, countryId);
}

/** Whether a destination region is all Schengen: it groups countries, and every one is flagged so. */
export async function isSchengenDestination(db: Database, destinationId: number) {
  const flags = await repository.listSchengenFlagsOfDestination(db, destinationId);
  return flags.length > 0 && flags.every(Boolean);
}
