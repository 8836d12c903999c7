import { addDays, todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import { formatClp, formatUsd } from '@travesia/domain/money';
import { rateForTripLength } from '@travesia/domain/pricing';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError } from '#app/errors.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import * as repository from './repository.ts';
import { type PriceOverride, priceTripPlans, type Trip } from './service.ts';

/**
 * A plan's prices as the publishing model edits them (issue 25, kind `prices`, key: the plan's id): the daily (or flat)
 * rate per destination region, passenger type (age band) and length of trip (`minDays`: the rate applies to trips of
 * that many days or more, up to the next band's start; see rateForTripLength), the plan's standing discount and its
 * covid upgrade fee.
 * The module exports the kind (read, apply, describe); the publishing module calls it in its transaction.
 */
const maxRateCents = 10_000_000;

export const planPricesSchema = z
  .object({
    promotionBp: z
      .number()
      .int()
      .min(0, 'El descuento no puede ser negativo')
      .max(10_000, 'El descuento es a lo más 100 %'),
    covidFeeCentsPerDay: z
      .number()
      .int()
      .min(0, 'El recargo covid no puede ser negativo')
      .max(maxRateCents, 'El recargo covid es demasiado alto')
      .nullable(),
    rates: z
      .array(
        z.object({
          destinationId: z.number().int().positive(),
          passengerTypeId: z.number().int().positive(),
          /** From how many days of trip this rate applies; 1 (the default): from the first day. */
          minDays: z
            .number()
            .int()
            .min(1, 'Un tramo por duración empieza en 1 día o más')
            .max(366, 'Un tramo por duración empieza a lo más en 366 días')
            .default(1),
          rateCents: z
            .number()
            .int()
            .min(0, 'Un precio no puede ser negativo')
            .max(maxRateCents, 'Precio demasiado alto'),
        }),
      )
      .max(2_000)
      .refine(
        (rates) =>
          new Set(rates.map((r) => `${r.destinationId}:${r.passengerTypeId}:${r.minDays}`)).size === rates.length,
        'Cada región, tramo de edad y tramo por duración puede tener un solo precio',
      )
      .refine(
        (rates) =>
          rates.every((rate) =>
            rates.some(
              (from) =>
                from.minDays === 1 &&
                from.destinationId === rate.destinationId &&
                from.passengerTypeId === rate.passengerTypeId,
            ),
          ),
        'Cada región y tramo de edad con precio necesita su precio desde el primer día',
      ),
  })
  .strict();

export type PlanPrices = z.infer<typeof planPricesSchema>;

const productIdOf = (key: string) => (/^\d{1,9}$/.test(key) ? Number(key) : undefined);

async function findProduct(db: Database, key: string, companyId: number) {
  const id = productIdOf(key);
  if (id === undefined) return undefined;
  const [product] = await repository.listProductsByIds(db, [id]);
  // The console edits its own company's plans only: another's is as unknown as a missing one.
  return product?.companyId === companyId ? product : undefined;
}

/** The live prices of one of the company's plans, or undefined for an unknown plan (or another company's). */
export async function readPlanPrices(db: Database, key: string, companyId: number): Promise<PlanPrices | undefined> {
  const product = await findProduct(db, key, companyId);
  if (!product) return undefined;
  return {
    promotionBp: product.promotionBp,
    covidFeeCentsPerDay: product.covidFeeCentsPerDay,
    rates: await repository.listRatesOfProduct(db, product.id),
  };
}

/** What the price grid offers: the regions the plan's modalities sell to and the company's passenger types. */
export async function priceGridOf(db: Database, productId: number) {
  const [product] = await repository.listProductsByIds(db, [productId]);
  if (!product) return undefined;
  const modalityIds = await repository.listModalityIdsOfProduct(db, productId);
  const regions = new Map<number, string>();
  for (const modalityId of modalityIds) {
    for (const destination of await catalog.listDestinationsByModality(db, product.companyId, modalityId)) {
      regions.set(destination.id, destination.label);
    }
  }
  const passengerTypes = await catalog.listPassengerTypes(db, product.companyId);
  return {
    product,
    modalityIds,
    regions: [...regions].map(([id, label]) => ({ id, label })),
    passengerTypes: passengerTypes.map((type) => ({
      id: type.id,
      label: type.label,
      ageFrom: type.ageFrom,
      ageTo: type.ageTo,
    })),
  };
}

async function applyPlanPrices(tx: Database, key: string, prices: PlanPrices, companyId: number) {
  const id = productIdOf(key);
  const grid = id === undefined ? undefined : await priceGridOf(tx, id);
  if (!grid || id === undefined || grid.product.companyId !== companyId) {
    throw new ApiError(404, errorMessages.resourceNotFound);
  }
  const regions = new Set(grid.regions.map((region) => region.id));
  const types = new Set(grid.passengerTypes.map((type) => type.id));
  const errors: FieldError[] = [];
  prices.rates.forEach((rate, index) => {
    if (!regions.has(rate.destinationId) || !types.has(rate.passengerTypeId)) {
      errors.push({
        field: `body.rates.${index}`,
        code: 'not_available',
        message: 'Región o tramo de edad en que este plan no se vende',
      });
    } else if (rate.minDays > 1 && grid.product.rating === 'flat') {
      errors.push({
        field: `body.rates.${index}.minDays`,
        code: 'not_available',
        message: 'Un plan con precio por vigencia no tiene tramos por duración',
      });
    }
  });
  if (errors.length > 0) throw new ApiError(400, 'Los datos del borrador no son válidos', errors);
  await repository.replacePrices(tx, id, prices);
}

const usd = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? 'sin precio' : formatUsd(cents / 100);
const percent = (bp: number) => `${(bp / 100).toLocaleString('es-CL')} %`;

/** One line per change between two price tables, with the region and band named («Europa · Adultos: USD 3,00 → USD 3,30»). */
async function describePrices(db: Database, key: string, before: PlanPrices | null, after: PlanPrices) {
  const id = productIdOf(key);
  const grid = id === undefined ? undefined : await priceGridOf(db, id);
  const region = (destinationId: number) =>
    grid?.regions.find((r) => r.id === destinationId)?.label ?? `Región ${destinationId}`;
  const band = (typeId: number) => grid?.passengerTypes.find((t) => t.id === typeId)?.label ?? `Tramo ${typeId}`;
  const lines: string[] = [];
  if (!before || before.promotionBp !== after.promotionBp) {
    lines.push(`Descuento del plan: ${before ? percent(before.promotionBp) : '—'} → ${percent(after.promotionBp)}`);
  }
  if (!before || before.covidFeeCentsPerDay !== after.covidFeeCentsPerDay) {
    const fee = (cents: number | null | undefined) => (cents === null ? 'no se ofrece' : `${usd(cents)} por día`);
    lines.push(`Recargo covid: ${before ? fee(before.covidFeeCentsPerDay) : '—'} → ${fee(after.covidFeeCentsPerDay)}`);
  }
  const cell = (r: { destinationId: number; passengerTypeId: number; minDays: number }) =>
    `${r.destinationId}:${r.passengerTypeId}:${r.minDays}`;
  const length = (minDays: number) => (minDays > 1 ? ` · desde ${minDays} días` : '');
  const old = new Map((before?.rates ?? []).map((r) => [cell(r), r]));
  const next = new Map(after.rates.map((r) => [cell(r), r]));
  const unit = grid?.product.rating === 'flat' ? '' : ' por día';
  // A length band added with the prices of the band before it, or taken away whole: one line for the band, not one
  // per cell (the cells that differ from the band before are still listed).
  const bandsOf = (prices: PlanPrices | null) => new Set((prices?.rates ?? []).map((r) => r.minDays));
  const [oldBands, newBands] = [bandsOf(before), bandsOf(after)];
  const inherited = (rates: PlanPrices['rates'], rate: PlanPrices['rates'][number]) =>
    rateForTripLength(
      rates.filter(
        (r) =>
          r.destinationId === rate.destinationId &&
          r.passengerTypeId === rate.passengerTypeId &&
          r.minDays < rate.minDays,
      ),
      rate.minDays,
    )?.rateCents;
  const copied = new Map<number, number>();
  for (const day of newBands) if (!oldBands.has(day)) lines.push(`Nuevo tramo por duración: desde ${day} días`);
  for (const day of oldBands) if (!newBands.has(day)) lines.push(`Tramo por duración quitado: desde ${day} días`);
  for (const key of new Set([...old.keys(), ...next.keys()])) {
    const from = old.get(key);
    const to = next.get(key);
    if (from?.rateCents === to?.rateCents) continue;
    const where = from ?? to;
    if (!where) continue;
    if (!from && to && !oldBands.has(to.minDays) && to.rateCents === inherited(after.rates, to)) {
      copied.set(to.minDays, (copied.get(to.minDays) ?? 0) + 1);
      continue;
    }
    if (from && !to && !newBands.has(from.minDays)) continue;
    lines.push(
      `${region(where.destinationId)} · ${band(where.passengerTypeId)}${length(where.minDays)}: ${usd(from?.rateCents)} → ${usd(to?.rateCents)}${to ? unit : ''}`,
    );
  }
  for (const [day, count] of copied) {
    lines.push(`Desde ${day} días: ${count} ${count === 1 ? 'precio igual' : 'precios iguales'} al tramo anterior`);
  }
  return lines;
}

/** The kind's name and body shape (the same for every company). */
export const pricesKind = { kind: 'prices', schema: planPricesSchema } as const;

/**
 * The publishing kind of a company's plan prices (registered by workflows/publishing.ts): keys are the company's
 * plans only, so a console cannot read, draft, publish or roll back another company's prices by naming its plan id.
 */
export const pricesKindOf = (companyId: number) => ({
  ...pricesKind,
  current: (db: Database, key: string) => readPlanPrices(db, key, companyId),
  apply: (tx: Database, key: string, prices: PlanPrices) => applyPlanPrices(tx, key, prices, companyId),
  // Every plan search, comparator and covid-fee read depends on prices, and the covid fee is in the company's covid
  // add-on (add-ons:); pages kept are dropped with any clear.
  cacheScopes: () => ['products:', 'covid-fees:', 'add-ons:'],
  describe: describePrices,
});

/** The sample lengths of the impact table, and each length band's first day of the draft or the live prices. */
export const impactLengths = [7, 15, 30] as const;

const impactLengthsOf = (...tables: (PlanPrices | undefined)[]) => {
  const bandStarts = tables.flatMap((table) => table?.rates ?? []).map((rate) => rate.minDays);
  return [...new Set([...impactLengths, ...bandStarts.filter((days) => days > 1)])].sort((a, b) => a - b);
};

export type ImpactRow = {
  destinationId: number;
  region: string;
  passengerTypeId: number;
  band: string;
  days: number;
  /** Today's total and the draft's, one traveller, no discount code, no covid upgrade; null: not sold. */
  todayCents: number | null;
  newCents: number | null;
  todayClp: number | null;
  newClp: number | null;
  /** Change in %, one decimal; null when either side is not sold or today's is 0. */
  changePercent: number | null;
};

/**
 * The impact of a draft's prices (issue 25): sample trips of 7, 15 and 30 days (and of each length band's first day)
 * to each region for one traveller of each band, priced by the storefront's own pricing (priceTripPlans) today and with the draft, in USD and in CLP at
 * today's exchange rate. A sample the catalogue refuses (a length the modality does not allow) is left out.
 */
export async function priceImpact(db: Database, productId: number, draft: PlanPrices): Promise<ImpactRow[]> {
  const grid = await priceGridOf(db, productId);
  if (!grid) return [];
  const { product } = grid;
  const [origins] = await Promise.all([catalog.listOrigins(db, product.companyId)]);
  const origin = origins[0];
  if (!origin) return [];
  const live = await readPlanPrices(db, String(productId), product.companyId);
  const override: PriceOverride = { productId, ...draft };
  const sold = new Set([...(live?.rates ?? []), ...draft.rates].map((r) => `${r.destinationId}:${r.passengerTypeId}`));
  // One modality per region: the first of the plan's that sells it.
  const modalityOf = new Map<number, number>();
  for (const modalityId of grid.modalityIds) {
    for (const destination of await catalog.listDestinationsByModality(db, product.companyId, modalityId)) {
      if (!modalityOf.has(destination.id)) modalityOf.set(destination.id, modalityId);
    }
  }
  const departureDate = addDays(todayInChile(), 30);
  const rows: ImpactRow[] = [];
  for (const region of grid.regions) {
    const modalityId = modalityOf.get(region.id);
    if (modalityId === undefined) continue;
    for (const band of grid.passengerTypes) {
      if (!sold.has(`${region.id}:${band.id}`)) continue;
      for (const days of impactLengthsOf(live, draft)) {
        const trip: Trip = {
          originId: origin.id,
          destinationId: region.id,
          modalityId,
          departureDate,
          returnDate: addDays(departureDate, days - 1),
          passengers: [{ passengerTypeId: band.id, quantity: 1 }],
          discountCode: null,
          upgradeCovid: false,
        };
        const priced = async (with_?: PriceOverride) => {
          try {
            const pricing = await priceTripPlans(
              db,
              product.companyId,
              trip,
              errorMessages.invalidInputs,
              'passengers',
              with_,
            );
            return pricing.plans.find((plan) => plan.product.id === productId)?.price ?? null;
          } catch (error) {
            if (error instanceof ApiError && error.status === 400) return undefined;
            throw error;
          }
        };
        const [today, next] = await Promise.all([priced(), priced(override)]);
        if (today === undefined || next === undefined) continue;
        rows.push({
          destinationId: region.id,
          region: region.label,
          passengerTypeId: band.id,
          band: band.label,
          days,
          todayCents: today?.totalCents ?? null,
          newCents: next?.totalCents ?? null,
          todayClp: today?.totalClp ?? null,
          newClp: next?.totalClp ?? null,
          changePercent:
            today && next && today.totalCents > 0
              ? Math.round(((next.totalCents - today.totalCents) * 1000) / today.totalCents) / 10
              : null,
        });
      }
    }
  }
  return rows;
}

/** The figures of an impact row as the console prints them. */
export const formatImpact = (row: ImpactRow) => ({
  todayUsd: row.todayCents === null ? '—' : formatUsd(row.todayCents / 100),
  newUsd: row.newCents === null ? '—' : formatUsd(row.newCents / 100),
  todayClp: row.todayClp === null ? '—' : formatClp(row.todayClp),
  newClp: row.newClp === null ? '—' : formatClp(row.newClp),
});
