/**
 * USD → CLP conversion in exact decimal arithmetic: amounts and rates are parsed as scaled integers (BigInt),
 * so 0.1 + 0.2 problems never reach a price. The result is whole pesos, rounded half up (away from zero).
 */

const decimalPattern = /^-?\d+(\.\d+)?$/;

function toScaled(value: string, scale: number): bigint {
  const trimmed = value.trim();
  if (!decimalPattern.test(trimmed)) throw new RangeError(`Not a decimal number: ${value}`);
  const negative = trimmed.startsWith('-');
  const [whole = '0', fraction = ''] = trimmed.replace('-', '').split('.');
  // Digits beyond the scale are rounded half up.
  const kept = fraction.slice(0, scale).padEnd(scale, '0');
  let scaled = BigInt(whole) * 10n ** BigInt(scale) + BigInt(kept || '0');
  if ((fraction[scale] ?? '0') >= '5') scaled += 1n;
  return negative ? -scaled : scaled;
}

/** Whole pesos for `amountUsd` at `clpPerUsd` (both decimal strings or numbers). */
export function convertUsdToClp(amountUsd: string | number, clpPerUsd: string | number): number {
  const amount = toScaled(String(amountUsd), 6);
  const rate = toScaled(String(clpPerUsd), 6);
  const product = amount * rate; // scale 12
  const unit = 10n ** 12n;
  const half = unit / 2n;
  const magnitude = product < 0n ? -product : product;
  const rounded = (magnitude + half) / unit;
  return Number(product < 0n ? -rounded : rounded);
}
