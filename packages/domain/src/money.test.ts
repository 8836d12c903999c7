import { describe, expect, it } from 'vitest';
import {
  type CurrencyFormat,
  currencies,
  formatClp,
  formatMoney,
  formatUsd,
  fromMinorUnits,
  toMinorUnits,
} from './money.ts';

const usDollars: CurrencyFormat = { decimals: 2, symbol: 'US$' };
const plain2: CurrencyFormat = { decimals: 2, symbol: '' };
const plain0: CurrencyFormat = { decimals: 0, symbol: '' };

describe('formatMoney (default: comma thousands, dot decimals)', () => {
  it.each([
    [1234.5, usDollars, 'US$1,234.50'],
    [0, usDollars, 'US$0.00'],
    [1, usDollars, 'US$1.00'],
    [999.99, usDollars, 'US$999.99'],
    [1000, usDollars, 'US$1,000.00'],
    [1234567.891, usDollars, 'US$1,234,567.89'],
    [12345678.9, { decimals: 1, symbol: '$' }, '$12,345,678.9'],
    [123, { decimals: 3, symbol: '' }, '123.000'],
    [0.5, { decimals: 4, symbol: '€ ' }, '€ 0.5000'],
  ])('formats %d with %o as %s', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it('uses the default separators when dotThousands is explicitly false', () => {
    expect(formatMoney(1234.5, { decimals: 2, symbol: '$', dotThousands: false })).toBe('$1,234.50');
  });

  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [12345, '12,345'],
    [123456, '123,456'],
    [1234567, '1,234,567'],
    [1e21, '1,000,000,000,000,000,000,000'],
  ])('shows no decimal separator with 0 decimals (%d → %s)', (amount, expected) => {
    expect(formatMoney(amount, plain0)).toBe(expected);
  });

  it.each([
    [-1234.5, usDollars, '-US$1,234.50'],
    [-0.01, usDollars, '-US$0.01'],
    [-1000000, { decimals: 0, symbol: '$' }, '-$1,000,000'],
    [-1234.5, { decimals: 2, symbol: 'US$', dotThousands: true }, '-US$1.234,50'],
  ])('writes the minus sign before the symbol (%d → %s)', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it.each([
    [2.675, plain2, '2.68'],
    [0.125, plain2, '0.13'],
    [1.005, plain2, '1.01'],
    [1.015, plain2, '1.02'],
    [8.345, plain2, '8.35'],
    [0.5, plain0, '1'],
    [2.5, plain0, '3'],
    [1.45, { decimals: 1, symbol: '' }, '1.5'],
    [999.995, plain2, '1,000.00'],
    [999999.5, plain0, '1,000,000'],
  ])('rounds the half of %d up, away from zero (→ %s)', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it.each([
    [-2.675, plain2, '-2.68'],
    [-0.125, plain2, '-0.13'],
    [-2.5, plain0, '-3'],
    [-0.5, plain0, '-1'],
  ])('rounds the half of the negative %d away from zero (→ %s)', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it.each([
    [1.44999, { decimals: 1, symbol: '' }, '1.4'],
    [2.674, plain2, '2.67'],
    [0.004999, plain2, '0.00'],
    [1234.4, plain0, '1,234'],
  ])('rounds below the half down (%d → %s)', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it.each([
    [1e-7, plain2, '0.00'],
    [5e-7, { decimals: 6, symbol: '' }, '0.000001'],
    [4e-7, { decimals: 6, symbol: '' }, '0.000000'],
    [0.1 + 0.2, plain2, '0.30'],
  ])('handles tiny and inexact amounts (%d → %s)', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it.each([
    [-0, usDollars, 'US$0.00'],
    [-0.001, usDollars, 'US$0.00'],
    [-0.4, { decimals: 0, symbol: '$' }, '$0'],
  ])('shows no minus sign when %d rounds to zero', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });

  it.each([
    [Number.NaN, usDollars],
    [Number.POSITIVE_INFINITY, usDollars],
    [Number.NEGATIVE_INFINITY, usDollars],
    [1, { decimals: -1, symbol: '' }],
    [1, { decimals: 1.5, symbol: '' }],
    [1, { decimals: 21, symbol: '' }],
  ])('throws a RangeError for amount %d with %o', (amount, format) => {
    expect(() => formatMoney(amount, format)).toThrow(RangeError);
  });
});

describe('formatMoney (dotThousands: dot thousands, comma decimals)', () => {
  it.each([
    [12345, { decimals: 0, symbol: '$', dotThousands: true }, '$12.345'],
    [1234.5, { decimals: 2, symbol: 'US$', dotThousands: true }, 'US$1.234,50'],
    [1234567.891, { decimals: 2, symbol: '', dotThousands: true }, '1.234.567,89'],
    [0.5, { decimals: 2, symbol: '', dotThousands: true }, '0,50'],
    [999, { decimals: 0, symbol: '$', dotThousands: true }, '$999'],
  ])('formats %d with %o as %s', (amount, format, expected) => {
    expect(formatMoney(amount, format)).toBe(expected);
  });
});

describe('currencies', () => {
  it('describes CLP as es-CL pesos without decimals', () => {
    expect(currencies.CLP).toEqual({ code: 'CLP', symbol: '$', decimals: 0, dotThousands: true, culture: 'es-CL' });
  });

  it('describes USD as es-CL dollars with 2 decimals', () => {
    expect(currencies.USD).toEqual({ code: 'USD', symbol: 'USD ', decimals: 2, dotThousands: true, culture: 'es-CL' });
  });
});

describe('formatClp', () => {
  it.each([
    [0, '$0'],
    [990, '$990'],
    [12345, '$12.345'],
    [1234567, '$1.234.567'],
    [1234.5, '$1.235'],
    [1234.49, '$1.234'],
    [-12345, '-$12.345'],
  ])('formats %d pesos as %s', (amount, expected) => {
    expect(formatClp(amount)).toBe(expected);
  });
});

describe('formatUsd', () => {
  it.each([
    [0, 'USD 0,00'],
    [1234.5, 'USD 1.234,50'],
    [12.345, 'USD 12,35'],
    [1000000, 'USD 1.000.000,00'],
    [0.07, 'USD 0,07'],
    [-1234.5, '-USD 1.234,50'],
  ])('formats %d dollars as %s', (amount, expected) => {
    expect(formatUsd(amount)).toBe(expected);
  });
});

describe('agreement with Intl.NumberFormat es-CL (non-negative amounts)', () => {
  // Node prints es-CL currency with the symbol glued to the digits ('$12.345', 'US$1.234,50'); it rounds half away
  // from zero on the shortest decimal representation, as formatMoney does. For negatives Intl writes '$-1.235', which
  // differs from the spec's minus-before-symbol, so only non-negative amounts are compared.
  const clp = new Intl.NumberFormat('es-CL', { style: 'currency', currency: 'CLP' });
  const usd = new Intl.NumberFormat('es-CL', { style: 'currency', currency: 'USD' });
  const amounts = [0, 1, 999, 1000, 12345, 99999.5, 1234567, 1234.5, 2.675, 1.005, 0.125, 12.34, 999.995, 1e9];

  it('Node formats the reference values as expected', () => {
    expect(clp.format(12345)).toBe('$12.345');
    expect(usd.format(1234.5)).toBe('US$1.234,50');
  });

  it.each(amounts)('formatClp(%d) matches Intl', (amount) => {
    expect(formatClp(amount)).toBe(clp.format(amount));
  });

  // Travesía labels dollars «USD » (the spec's label) where Intl writes «US$»; the digits are the same.
  it.each(amounts)('formatUsd(%d) matches Intl but for the USD label', (amount) => {
    expect(formatUsd(amount)).toBe(usd.format(amount).replace('US$', 'USD '));
  });
});

describe('toMinorUnits', () => {
  it.each([
    [12.34, 2, 1234],
    [19.99, 2, 1999],
    [1.15, 2, 115],
    [0.1 + 0.2, 2, 30],
    [2.675, 2, 268],
    [1.005, 2, 101],
    [0.125, 2, 13],
    [12345, 0, 12345],
    [12345.5, 0, 12346],
    [12345.49, 0, 12345],
    [1.5, 3, 1500],
    [0, 2, 0],
  ])('converts %d with %d decimals to %d minor units', (amount, decimals, expected) => {
    expect(toMinorUnits(amount, decimals)).toBe(expected);
  });

  it.each([
    [-12.34, 2, -1234],
    [-2.675, 2, -268],
    [-2.5, 0, -3],
  ])('rounds negative halves away from zero (%d → %d)', (amount, decimals, expected) => {
    expect(toMinorUnits(amount, decimals)).toBe(expected);
  });

  it.each([[-0], [-0.004]])('returns positive zero for %d', (amount) => {
    expect(Object.is(toMinorUnits(amount, 2), 0)).toBe(true);
  });

  it('accepts the largest safe integer', () => {
    expect(toMinorUnits(9007199254740991, 0)).toBe(9007199254740991);
  });

  it.each([
    [9007199254740992, 0],
    [1e15, 2],
    [Number.NaN, 2],
    [Number.POSITIVE_INFINITY, 2],
    [1, -1],
    [1, 0.5],
  ])('throws a RangeError for %d with %d decimals', (amount, decimals) => {
    expect(() => toMinorUnits(amount, decimals)).toThrow(RangeError);
  });
});

describe('fromMinorUnits', () => {
  it.each([
    [1234, 2, 12.34],
    [268, 2, 2.68],
    [1999, 2, 19.99],
    [-1999, 2, -19.99],
    [12345, 0, 12345],
    [5, 3, 0.005],
    [1, 2, 0.01],
    [0, 2, 0],
  ])('converts %d minor units with %d decimals to %d', (minor, decimals, expected) => {
    expect(fromMinorUnits(minor, decimals)).toBe(expected);
  });

  it('returns positive zero for negative zero', () => {
    expect(Object.is(fromMinorUnits(-0, 2), 0)).toBe(true);
  });

  it.each([
    [1.5, 2],
    [Number.NaN, 2],
    [9007199254740992, 2],
    [100, -1],
    [100, 21],
  ])('throws a RangeError for %d minor units with %d decimals', (minor, decimals) => {
    expect(() => fromMinorUnits(minor, decimals)).toThrow(RangeError);
  });

  it.each([0.01, 0.1, 1.15, 19.99, 2.68, 1234.56, 99999.99])('round-trips %d through minor units', (amount) => {
    expect(fromMinorUnits(toMinorUnits(amount, 2), 2)).toBe(amount);
  });
});
