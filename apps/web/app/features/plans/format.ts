import { type CurrencyFormat, formatMoney } from '@travesia/domain/money';
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
