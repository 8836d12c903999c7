import { describe, expect, it } from 'vitest';
import { convertUsdToClp } from './exchange.ts';

describe('convertUsdToClp', () => {
  it.each([
    // amount, rate, expected whole pesos (worked by hand)
    ['100', '948.53', 94853],
    ['1', '948.5300', 949], // 948.53 → 949
    ['0.5', '951', 476], // 475.5 rounds half up
    ['10.01', '1000.05', 10011], // 10010.5005 → 10011
    ['2', '0.25', 1], // 0.5 rounds up
    ['0', '948.53', 0],
    ['123.45', '900', 111105],
    [1234.5, 950, 1172775],
    ['0.1', '0.2', 0], // 0.02
  ])('converts %s USD at %s CLP/USD to %i pesos', (amount, rate, expected) => {
    expect(convertUsdToClp(amount, rate)).toBe(expected);
  });

  it('keeps exactness where floating point would drift', () => {
    // 0.1 * 3 in floats is 0.30000000000000004; 1.15 * 100 is 114.99999999999999
    expect(convertUsdToClp('1.15', '100')).toBe(115);
    expect(convertUsdToClp('0.005', '100')).toBe(1); // 0.5 → 1
  });

  it('rounds negative amounts away from zero', () => {
    expect(convertUsdToClp('-0.5', '951')).toBe(-476);
  });

  it.each(['abc', '', '1,5', '1e3'])('rejects %j as a number', (bad) => {
    expect(() => convertUsdToClp(bad, '900')).toThrow(RangeError);
  });
});
