import { describe, expect, it } from 'vitest';
import { buyerKeys, buyerOf } from './buyer.ts';

const travellers = [
  { seq: 2, email: 'dos@example.cl', documentType: 2, documentNumber: 'X999' },
  { seq: 1, email: 'Uno@Example.cl', documentType: 3, documentNumber: 'p 12345' },
];

describe('buyerOf', () => {
  it("takes the quote step's e-mail and valid RUT when given", () => {
    expect(buyerOf({ email: ' Ana@Example.cl ', rut: '12.345.678-5' }, travellers)).toEqual({
      email: 'ana@example.cl',
      documentType: 1,
      documentNumber: '12.345.678-5',
    });
  });

  it('falls back on the first traveller (by seq) for what the quote step did not give', () => {
    expect(buyerOf({ email: null, rut: '11.111.111-2' }, travellers)).toEqual({
      email: 'uno@example.cl',
      documentType: 3,
      documentNumber: 'p 12345',
    });
    expect(buyerOf(null, [])).toBeUndefined();
  });
});

describe('buyerKeys', () => {
  it('writes one RUT the same way however it was typed', () => {
    const a = buyerKeys({ email: 'A@b.cl', documentType: 1, documentNumber: '12.345.678-k' });
    const b = buyerKeys({ email: 'a@b.cl', documentType: 1, documentNumber: '12345678K' });
    expect(a).toEqual(b);
    expect(a).toEqual({ email: 'a@b.cl', document: '1:12345678K' });
  });

  it('keeps the document type apart (a passport number is not a DNI)', () => {
    expect(buyerKeys({ email: 'x@y.cl', documentType: 3, documentNumber: 'p 12345' }).document).toBe('3:P12345');
  });
});
