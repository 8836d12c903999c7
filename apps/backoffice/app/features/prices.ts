/**
 * «Precios» (issue 25): the shapes of the API's price routes (apps/api/src/modules/plans/console-routes.ts and the
 * publishing model's `/prices/:key…`) and the grid's form, in the console's words. Money travels as integer USD cents
 * and basis points; the form shows USD with two decimals and percentages.
 */
import type { Role } from '#app/lib/contract.ts';
import type { Publication } from './publishing.ts';

/** `minDays`: the length of trip (days) from which the rate applies, up to the next band's start (1: from day one). */
export type Rate = { destinationId: number; passengerTypeId: number; minDays: number; rateCents: number };
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

export const rateField = (destinationId: number, passengerTypeId: number, minDays = 1) =>
  `tarifa-${destinationId}-${passengerTypeId}-${minDays}`;

/** The length bands of a price table: the days each starts on, from 1, ascending. */
export const lengthBandsOf = (prices: PlanPrices) =>
  [...new Set([1, ...prices.rates.map((rate) => rate.minDays)])].sort((a, b) => a - b);

/** A band in words: «De 1 a 15 días», «16 días o más»; one band alone: «Cualquier duración». */
export function lengthBandLabel(bands: readonly number[], index: number): string {
  const from = bands[index] ?? 1;
  const next = bands[index + 1];
  if (next === undefined) return index === 0 ? 'Cualquier duración' : `${from} días o más`;
  return from === next - 1 ? `${from} ${from === 1 ? 'día' : 'días'}` : `De ${from} a ${next - 1} días`;
}

/**
 * «1, 16, 31» → [1, 16, 31]: the days the bands start on (1 added when left out), or undefined when one is not a
 * whole number of days from 1 to 366.
 */
export function parseLengthBands(text: string): number[] | undefined {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (!parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const days = parts.map(Number);
  if (days.some((day) => day < 1 || day > 366)) return undefined;
  return [...new Set([1, ...days])].sort((a, b) => a - b);
}

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

/**
 * The prices the grid form posted: per length band (`tramos`, daily-rated plans only), one field per region × age band
 * (blank from day 1: not sold; blank in a later band: the earlier band's price goes on), the discount and the covid
 * fee. A band just added has no fields yet: it starts with the prices of the band before it, to be edited.
 */
export function pricesFromForm(form: FormData, grid: PriceGrid): GridOutcome {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const errors: Record<string, string> = {};
  const rates: Rate[] = [];
  const lengths = grid.plan.rating === 'daily' ? parseLengthBands(text('tramos')) : [1];
  if (!lengths) errors.tramos = 'Los tramos por duración son días de 1 a 366 separados por comas, como 1, 16, 31.';
  for (const [index, minDays] of (lengths ?? [1]).entries()) {
    for (const region of grid.regions) {
      for (const band of grid.passengerTypes) {
        const name = rateField(region.id, band.id, minDays);
        const cell = { destinationId: region.id, passengerTypeId: band.id };
        if (form.get(name) === null && index > 0) {
          const before = rates.findLast((r) => r.destinationId === region.id && r.passengerTypeId === band.id);
          if (before) rates.push({ ...cell, minDays, rateCents: before.rateCents });
          continue;
        }
        const cents = parseUsdCents(text(name));
        if (cents === undefined) errors[name] = `${region.label} · ${band.label}: escribe un monto en USD, como 3,80`;
        else if (cents !== null) rates.push({ ...cell, minDays, rateCents: cents });
      }
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
