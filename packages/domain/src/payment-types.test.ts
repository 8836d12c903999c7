import { describe, expect, it } from 'vitest';
import { instalmentOptions, paymentTypeLabel } from './payment-types.ts';

describe('paymentTypeLabel', () => {
  it('names debit, prepaid, credit and interest-free credit in Spanish', () => {
    expect(paymentTypeLabel('VD')).toBe('Débito');
    expect(paymentTypeLabel('VP')).toBe('Prepago');
    expect(paymentTypeLabel('VN')).toBe('Crédito');
    expect(paymentTypeLabel('S2')).toBe('Crédito, cuotas sin interés');
    expect(paymentTypeLabel('NC')).toBe('Crédito, cuotas sin interés');
  });

  it('says nothing for a missing or unknown code rather than guessing', () => {
    expect(paymentTypeLabel(null)).toBeNull();
    expect(paymentTypeLabel('XX')).toBeNull();
    expect(paymentTypeLabel('toString')).toBeNull();
  });
});

describe('instalmentOptions', () => {
  it('lists 1 to 6 instalments, each the total split evenly and rounded up to the peso', () => {
    expect(instalmentOptions(80_625, 6)).toEqual([
      { count: 1, amountClp: 80_625 },
      { count: 2, amountClp: 40_313 },
      { count: 3, amountClp: 26_875 },
      { count: 4, amountClp: 20_157 },
      { count: 5, amountClp: 16_125 },
      { count: 6, amountClp: 13_438 },
    ]);
  });

  it('never lets the instalments add up to less than the total', () => {
    for (const total of [1, 5, 99_999, 1_234_567]) {
      for (const option of instalmentOptions(total, 6))
        expect(option.amountClp * option.count).toBeGreaterThanOrEqual(total);
    }
  });
});
