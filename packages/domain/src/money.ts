/**
 * Money formatting, spec: "prices with a dot as decimal separator and a comma as thousands separator (toggleable; the
 * formatter takes a decimals count and a symbol prefix)". With `dotThousands` the Chilean es-CL style is produced
 * (`$12.345`, `USD 1.234,50`). Dollars are labelled «USD» everywhere, as the spec and the plans' limits write them.
 *
 * Rounding is half away from zero on the number's shortest decimal representation (the digits `String(n)` shows), so
 * `2.675` rounds to `2.68` even though the nearest double is slightly below 2.675.
 */

export type CurrencyFormat = {
  decimals: number;
  /** Prefix written before the digits (after the minus sign of a negative amount). */
  symbol: string;
  /** true: thousands '.' and decimals ','. false (default): thousands ',' and decimals '.'. */
  dotThousands?: boolean;
};

export type Currency = CurrencyFormat & { code: string; culture: string };

export const currencies = {
  CLP: { code: 'CLP', symbol: '$', decimals: 0, dotThousands: true, culture: 'es-CL' },
  USD: { code: 'USD', symbol: 'USD ', decimals: 2, dotThousands: true, culture: 'es-CL' },
} as const satisfies Record<string, Currency>;

export type CurrencyCode = keyof typeof currencies;

const maxDecimals = 20;

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > maxDecimals) {
    throw new RangeError(`decimals must be an integer from 0 to ${maxDecimals}: ${decimals}`);
  }
}

/**
 * |amount| × 10^decimals rounded half away from zero, computed exactly on the decimal digits of the shortest
 * representation of `amount`, plus its sign.
 */
function scaleAndRound(amount: number, decimals: number): { negative: boolean; units: bigint } {
  if (!Number.isFinite(amount)) throw new RangeError(`amount must be a finite number: ${amount}`);
  checkDecimals(decimals);
  const negative = amount < 0;
  // toExponential() without an argument gives as many digits as needed to identify the number uniquely.
  const [mantissa = '0', exponent = '0'] = Math.abs(amount).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  // Position of the decimal point inside `digits` once multiplied by 10^decimals.
  const point = Number(exponent) + 1 + decimals;
  let units: bigint;
  if (point >= digits.length) {
    units = BigInt(digits + '0'.repeat(point - digits.length));
  } else if (point < 0) {
    units = 0n;
  } else {
    const kept = point === 0 ? 0n : BigInt(digits.slice(0, point));
    const roundUp = (digits[point] ?? '0') >= '5';
    units = roundUp ? kept + 1n : kept;
  }
  return { negative: negative && units !== 0n, units };
}

function groupThousands(integer: string, separator: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/**
 * Formats an amount: optional minus, symbol, grouped integer part, then the decimal separator and exactly `decimals`
 * digits (no separator when `decimals` is 0). E.g. `formatMoney(-1234.5, { decimals: 2, symbol: 'US$' })` →
 * `-US$1,234.50`. An amount that rounds to zero is shown without a minus sign.
 *
 * @throws RangeError for a non-finite amount or a decimals count that is not an integer from 0 to 20.
 */
export function formatMoney(amount: number, format: CurrencyFormat): string {
  const { negative, units } = scaleAndRound(amount, format.decimals);
  const thousands = format.dotThousands ? '.' : ',';
  const decimalSeparator = format.dotThousands ? ',' : '.';
  const text = units.toString().padStart(format.decimals + 1, '0');
  const integer = text.slice(0, text.length - format.decimals);
  const fraction = text.slice(text.length - format.decimals);
  const body = groupThousands(integer, thousands) + (format.decimals > 0 ? decimalSeparator + fraction : '');
  return `${negative ? '-' : ''}${format.symbol}${body}`;
}

/** Chilean pesos, es-CL style: `$12.345`. */
export function formatClp(amount: number): string {
  return formatMoney(amount, currencies.CLP);
}

/** US dollars, es-CL style with the «USD» label: `USD 1.234,50`. */
export function formatUsd(amount: number): string {
  return formatMoney(amount, currencies.USD);
}

/**
 * Amount → integer count of minor units (`12.34` with 2 decimals → `1234`), rounded half up (away from zero).
 *
 * @throws RangeError when the result is not a safe integer, the amount is not finite or decimals is out of range.
 */
export function toMinorUnits(amount: number, decimals: number): number {
  const { negative, units } = scaleAndRound(amount, decimals);
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`amount ${amount} with ${decimals} decimals exceeds the safe integer range`);
  }
  return negative ? -Number(units) : Number(units);
}

/**
 * Integer count of minor units → amount (`1234` with 2 decimals → `12.34`). The division by an exact power of ten
 * gives the double nearest to the decimal value.
 *
 * @throws RangeError when `minor` is not a safe integer or decimals is out of range.
 */
export function fromMinorUnits(minor: number, decimals: number): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`minor units must be a safe integer: ${minor}`);
  checkDecimals(decimals);
  return minor / 10 ** decimals + 0;
}
