/**
 * «Precios» (issue 25): the shapes of the API's price routes (apps/api/src/modules/plans/console-routes.ts and the
 * publishing model's `/prices/:key…`) and the grid's form, in the console's words. Money travels as integer USD cents
 * and basis points; the form shows USD with two decimals and percentages.
 */
import type { Role } from '#app/lib/contract.ts';
import type { Publication } from './publishing.ts';

export type Rate = { destinationId: number; passengerTypeId: number; rateCents: number };
export type PlanPrices = { promotionBp: number; covidFeeCentsPerDay: number | null; rates: Rate[] };

export type PriceGrid = {
  plan: { id: number; label: string; rating: 'daily' | 'flat' };
  regions: { id: number; label: string }[];
  passengerTypes: { id: number; label: string; ageFrom: number; ageTo: number }[];
};

export type PriceItem = {
  live: PlanPrices;
  draft: { body: PlanPrices; version: number; updatedAt: string; updatedBy: string } | null;
  changes: string[];
  scheduled: Publication | null;
};

export type ImpactRow = {
  destinationId: number;
  region: string;
  passengerTypeId: number;
  band: string;
  days: number;
  changePercent: number | null;
  formatted: { todayUsd: string; newUsd: string; todayClp: string; newClp: string };
};

/** Who edits and publishes prices; finance reads them (apps/api/src/modules/operators/guard.ts). */
export const priceEditors: readonly Role[] = ['admin', 'pricing'];
export const priceReaders: readonly Role[] = ['admin', 'pricing', 'finance'];

export const rateField = (destinationId: number, passengerTypeId: number) =>
  `tarifa-${destinationId}-${passengerTypeId}`;

/** 380 → '3.80'; null → ''. */
export const centsText = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);

/** '3,80', '3.80', '3' → 380; '' → null; anything else (or negative, or more than 2 decimals) → undefined. */
export function parseUsdCents(text: string): number | null | undefined {
  const value = text.trim().replace(',', '.');
  if (value === '') return null;
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(value)) return undefined;
  const [whole = '0', decimals = ''] = value.split('.');
  return Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
}

/** '15' or '12,5' (%) → basis points; undefined when not a percentage from 0 to 100 with up to 2 decimals. */
export function parsePercentBp(text: string): number | undefined {
  const value = text.trim().replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value)) return undefined;
  const bp = Math.round(Number(value) * 100);
  return bp <= 10_000 ? bp : undefined;
}

export type GridOutcome = { prices: PlanPrices; errors: Record<string, string> };

/** The prices the grid form posted: one field per region × band (blank: not sold), the discount and the covid fee. */
export function pricesFromForm(form: FormData, grid: PriceGrid): GridOutcome {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const errors: Record<string, string> = {};
  const rates: Rate[] = [];
  for (const region of grid.regions) {
    for (const band of grid.passengerTypes) {
      const name = rateField(region.id, band.id);
      const cents = parseUsdCents(text(name));
      if (cents === undefined) errors[name] = `${region.label} · ${band.label}: escribe un monto en USD, como 3,80`;
      else if (cents !== null) rates.push({ destinationId: region.id, passengerTypeId: band.id, rateCents: cents });
    }
  }
  const promotionBp = parsePercentBp(text('descuento'));
  if (promotionBp === undefined) errors.descuento = 'El descuento del plan es un porcentaje de 0 a 100.';
  const covid = parseUsdCents(text('covid'));
  if (covid === undefined) errors.covid = 'El recargo covid es un monto en USD por día, o vacío si no se ofrece.';
  return { prices: { promotionBp: promotionBp ?? 0, covidFeeCentsPerDay: covid ?? null, rates }, errors };
}

/** Every rate moved by `percent` (10 = 10 % up, −5 = 5 % down), to the cent, half up; the rest as it is. */
export function adjustRates(prices: PlanPrices, percent: number): PlanPrices {
  return {
    ...prices,
    rates: prices.rates.map((rate) => ({
      ...rate,
      rateCents: Math.max(0, Math.round((rate.rateCents * (100 + percent)) / 100)),
    })),
  };
}

/** '+10 %', '−3,5 %', '0 %', or '—' when not comparable. */
export function changeText(percent: number | null): string {
  if (percent === null) return '—';
  const magnitude = Math.abs(percent).toLocaleString('es-CL', { maximumFractionDigits: 1 });
  if (percent > 0) return `+${magnitude} %`;
  if (percent < 0) return `−${magnitude} %`;
  return '0 %';
}
