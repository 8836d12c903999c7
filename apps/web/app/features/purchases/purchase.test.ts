import { describe, expect, it } from 'vitest';
import { refundText } from './purchase.ts';

describe('«Mi compra» says what became of a cheaper date change’s difference', () => {
  it('in process, then refunded to the means of payment', () => {
    expect(refundText({ differenceClp: -12_500, refund: 'reembolso en proceso', refundRefused: false })).toBe(
      'devolución de $12.500 (reembolso en proceso)',
    );
    expect(refundText({ differenceClp: -12_500, refund: 'reembolsado', refundRefused: false })).toBe(
      'devolución de $12.500 (reembolsado)',
    );
  });

  it('refused by the gateway (a debit card is not partly refunded): returned by transfer, as the README says', () => {
    const text = refundText({ differenceClp: -12_500, refund: 'reembolso en proceso', refundRefused: true });
    expect(text).toContain('devolución de $12.500');
    expect(text).toContain('no admite devoluciones parciales');
    expect(text).toContain('te la devolveremos por transferencia');
  });
});
