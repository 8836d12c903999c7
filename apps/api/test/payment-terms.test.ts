import { describe, expect, it } from 'vitest';
import { paymentTerms } from '#app/modules/payments/service.ts';

/** The one description of how a payment was paid (success page, «Mi compra», purchase e-mail). */
describe('paymentTerms', () => {
  it('splits the amount paid evenly, rounded up to the peso, and says it', () => {
    expect(paymentTerms({ amountClp: 80_625, instalments: 3, paymentTypeCode: 'S2' })).toStrictEqual({
      paymentType: 'Crédito, cuotas sin interés',
      instalments: 3,
      instalmentAmountClp: 26_875,
      instalmentsText: '3 cuotas sin interés de $26.875',
    });
    expect(paymentTerms({ amountClp: 100_000, instalments: 3, paymentTypeCode: 'NC' }).instalmentAmountClp).toBe(
      33_334,
    );
  });

  it('one instalment is «1 cuota de»; none (or 0) says nothing; an unknown type has no words', () => {
    expect(paymentTerms({ amountClp: 80_625, instalments: 1, paymentTypeCode: 'VN' })).toMatchObject({
      paymentType: 'Crédito',
      instalmentsText: '1 cuota de $80.625',
    });
    expect(paymentTerms({ amountClp: 80_625, instalments: 0, paymentTypeCode: 'VD' })).toStrictEqual({
      paymentType: 'Débito',
      instalments: 0,
      instalmentAmountClp: null,
      instalmentsText: null,
    });
    expect(paymentTerms({ amountClp: 80_625, instalments: null, paymentTypeCode: 'XX' }).paymentType).toBeNull();
  });
});
