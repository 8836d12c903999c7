import { type CurrencyFormat, formatMoney } from '@travesia/domain/money';
import { bandLabel } from '#app/lib/format.ts';
import type { ComparatorPlan, PreviewPlan } from './types.ts';

type CurrencyDescriptor = ComparatorPlan['monedaOrigen'];

/** The API's currency descriptor as formatMoney's format (separator 1: a dot groups thousands). */
export function currencyFormat(descriptor: CurrencyDescriptor): CurrencyFormat {
  return { decimals: descriptor.decimals, symbol: descriptor.symbol, dotThousands: descriptor.separator === 1 };
}

/** The preview plan's two currencies, from its flat descriptor fields. */
export function previewFormats(plan: PreviewPlan): { origin: CurrencyFormat; converted: CurrencyFormat } {
  return {
    origin: {
      decimals: plan.nDecimalesMonedaOrigen,
      symbol: plan.simboloMonedaOrigen,
      dotThousands: plan.puntoSeparadorMonedaOrigen === 1,
    },
    converted: {
      decimals: plan.nDecimalesMonedaConvertida,
      symbol: plan.simboloMonedaConvertida,
      dotThousands: plan.puntoSeparadorMonedaConvertida === 1,
    },
  };
}

export function money(amount: number, format: CurrencyFormat): string {
  return formatMoney(amount, format);
}

/** The discount as a whole percent of the plan's price before discounts, or null when there is none. */
export function discountPercent(before: number, discount: number): number | null {
  if (before <= 0 || discount <= 0) return null;
  return Math.round((discount / before) * 100);
}

/**
 * The tax treatment, worded the same way on every plan: «Precio final, IVA 19 % incluido» when the plan charges tax
 * (`tax` is the multiplier, 1.19), «Precio final, no afecto a IVA» when it charges none.
 */
export function taxTreatment(tax: number): string {
  const percent = Math.round((tax - 1) * 100);
  return percent > 0 ? `Precio final, IVA ${percent} % incluido` : 'Precio final, no afecto a IVA';
}

/** «USD 2,83 por día por pasajero», with «en promedio» when the travellers are of several age bands. */
export function perPassengerPerDayLabel(perDay: { formatted: string; averaged: boolean }): string {
  return `${perDay.formatted} por día por pasajero${perDay.averaged ? ' en promedio' : ''}`;
}

/** «o hasta 6 cuotas sin interés de $13.438» (the wording Transbank asks of commerces that advertise instalments). */
export function instalmentsLabel(instalments: { count: number; formatted: string }): string {
  return `o hasta ${instalments.count} cuotas sin interés de ${instalments.formatted}`;
}

/** «Esencial, Plus y Premium»: names joined as Spanish joins a list. */
export const listInSpanish = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} y ${names[names.length - 1]}`;

/**
 * Which plans an age band rules out and why, naming them: «El plan Travesía Senior no está disponible para pasajeros
 * de 0 a 74 años: no cubre esa edad», «4 planes no están disponibles para pasajeros de 85 años o más: no cubren esa
 * edad (Esencial, Plus, Premium y Protección Especial)». Without names (an older API), the count alone.
 */
export function unavailablePlansMessage(band: {
  plans: number;
  ageFrom: number;
  ageTo: number;
  planNames?: string[];
}): string {
  const names = band.planNames ?? [];
  const who = `para pasajeros ${bandLabel(band)}`;
  if (band.plans === 1) {
    return names[0]
      ? `El plan ${names[0]} no está disponible ${who}: no cubre esa edad`
      : `1 plan no está disponible ${who}`;
  }
  const subject = `${band.plans} planes no están disponibles ${who}`;
  return names.length === band.plans ? `${subject}: no cubren esa edad (${listInSpanish(names)})` : subject;
}
