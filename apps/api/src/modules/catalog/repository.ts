import { and, asc, desc, eq, lt, lte } from 'drizzle-orm';
import { type Database, maxIntegerId } from '#app/db/client.ts';
import {
  countries,
  destinationCountries,
  destinationModalities,
  destinations,
  exchangeRates,
  modalities,
  origins,
  passengerTypes,
  paymentGateways,
} from './tables.ts';

export function listOrigins(db: Database, companyId: number) {
  return db
    .select({ id: origins.id, label: origins.label })
    .from(origins)
    .where(eq(origins.companyId, companyId))
    .orderBy(asc(origins.sortOrder), asc(origins.id));
}

export function listModalities(db: Database, companyId: number) {
  return db
    .select()
    .from(modalities)
    .where(eq(modalities.companyId, companyId))
    .orderBy(asc(modalities.sortOrder), asc(modalities.id));
}

export function listDestinationsByModality(db: Database, companyId: number, modalityId: number) {
  return db
    .select({ id: destinations.id, label: destinations.label })
    .from(destinations)
    .innerJoin(destinationModalities, eq(destinationModalities.destinationId, destinations.id))
    .where(and(eq(destinations.companyId, companyId), eq(destinationModalities.modalityId, modalityId)))
    .orderBy(asc(destinations.sortOrder), asc(destinations.id));
}

export async function findDestination(db: Database, companyId: number, destinationId: number) {
  if (destinationId > maxIntegerId) return undefined;
  const [row] = await db
    .select()
    .from(destinations)
    .where(and(eq(destinations.companyId, companyId), eq(destinations.id, destinationId)));
  return row;
}

export async function findModality(db: Database, companyId: number, modalityId: number) {
  if (modalityId > maxIntegerId) return undefined;
  const [row] = await db
    .select()
    .from(modalities)
    .where(and(eq(modalities.companyId, companyId), eq(modalities.id, modalityId)));
  return row;
}

export function listCountriesOfDestination(db: Database, destinationId: number) {
  return db
    .select({ id: countries.id, label: countries.label })
    .from(countries)
    .innerJoin(destinationCountries, eq(destinationCountries.countryId, countries.id))
    .where(eq(destinationCountries.destinationId, destinationId))
    .orderBy(asc(countries.label));
}

/** Every country the company sells to, once (countries may belong to several regions). */
export function listCountriesOfCompany(db: Database, companyId: number) {
  return db
    .selectDistinct({ id: countries.id, label: countries.label })
    .from(countries)
    .innerJoin(destinationCountries, eq(destinationCountries.countryId, countries.id))
    .innerJoin(destinations, eq(destinations.id, destinationCountries.destinationId))
    .where(eq(destinations.companyId, companyId))
    .orderBy(asc(countries.label));
}

export function listPassengerTypes(db: Database, companyId: number) {
  return db
    .select({
      id: passengerTypes.id,
      label: passengerTypes.label,
      ageFrom: passengerTypes.ageFrom,
      ageTo: passengerTypes.ageTo,
    })
    .from(passengerTypes)
    .where(eq(passengerTypes.companyId, companyId))
    .orderBy(asc(passengerTypes.ageFrom));
}

const usdToClp = (companyId: number) =>
  and(
    eq(exchangeRates.companyId, companyId),
    eq(exchangeRates.fromCurrency, 'USD'),
    eq(exchangeRates.toCurrency, 'CLP'),
  );

export type ExchangeRateRow = typeof exchangeRates.$inferSelect;

/** The rate in force now: the newest one whose validity has started. */
export async function findCurrentExchangeRate(
  db: Database,
  companyId: number,
  now = new Date(),
): Promise<ExchangeRateRow | undefined> {
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(and(usdToClp(companyId), lte(exchangeRates.validFrom, now)))
    .orderBy(desc(exchangeRates.validFrom), desc(exchangeRates.id))
    .limit(1);
  return row;
}

/**
 * Appends a USD→CLP rate. A fetched rate already recorded for its day (another worker, an earlier run) is not
 * written twice: the partial unique index exchange_rates_fetched_day refuses it and this answers undefined.
 */
export async function insertExchangeRate(
  db: Database,
  values: Pick<ExchangeRateRow, 'companyId' | 'rate' | 'validFrom' | 'source' | 'observedOn' | 'reason' | 'createdBy'>,
): Promise<ExchangeRateRow | undefined> {
  const [row] = await db
    .insert(exchangeRates)
    .values({ ...values, fromCurrency: 'USD', toCurrency: 'CLP' })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** The company's USD→CLP rates, newest first, `limit` at most, older than the row `before` (keyset on the id). */
export function listExchangeRates(db: Database, companyId: number, limit: number, before?: number) {
  return db
    .select()
    .from(exchangeRates)
    .where(and(usdToClp(companyId), before === undefined ? undefined : lt(exchangeRates.id, before)))
    .orderBy(desc(exchangeRates.id))
    .limit(limit);
}

/** The companies that sell in pesos at a USD→CLP rate: the ones a fetched rate is recorded for. */
export async function listCompaniesWithExchangeRates(db: Database): Promise<number[]> {
  const rows = await db
    .selectDistinct({ companyId: exchangeRates.companyId })
    .from(exchangeRates)
    .where(and(eq(exchangeRates.fromCurrency, 'USD'), eq(exchangeRates.toCurrency, 'CLP')))
    .orderBy(asc(exchangeRates.companyId));
  return rows.map((row) => row.companyId);
}

export function listPaymentGateways(db: Database, companyId: number) {
  return db
    .select({
      id: paymentGateways.id,
      name: paymentGateways.name,
      logo: paymentGateways.logo,
      url: paymentGateways.url,
    })
    .from(paymentGateways)
    .where(and(eq(paymentGateways.companyId, companyId), eq(paymentGateways.enabled, true)))
    .orderBy(asc(paymentGateways.sortOrder), asc(paymentGateways.id));
}

/** One country with its ISO code (a trip's destination country, as certificates need it), or undefined. */
export async function findCountry(db: Database, countryId: number) {
  const [row] = await db
    .select({ id: countries.id, isoCode: countries.isoCode, label: countries.label, schengen: countries.schengen })
    .from(countries)
    .where(eq(countries.id, countryId));
  return row;
}

/** The Schengen flags of the countries of a destination region (one per country). */
export async function listSchengenFlagsOfDestination(db: Database, destinationId: number): Promise<boolean[]> {
  const rows = await db
    .select({ schengen: countries.schengen })
    .from(countries)
    .innerJoin(destinationCountries, eq(destinationCountries.countryId, countries.id))
    .where(eq(destinationCountries.destinationId, destinationId));
  return rows.map((row) => row.schengen);
}
