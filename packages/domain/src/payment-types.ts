import { instalmentClp } from './pricing.ts';

/**
 * How a card payment was made, in the words a buyer reads on the success page and in «Mi compra» (Transbank asks
 * commerces to show the payment type and the instalments). The codes are Webpay's `payment_type_code`; the test
 * gateway reports the same ones.
 */
const paymentTypeLabels = new Map<string, string>(
  Object.entries({
    VD: 'Débito',
    VP: 'Prepago',
    VN: 'Crédito',
    VC: 'Crédito en cuotas',
    SI: 'Crédito, cuotas sin interés',
    S2: 'Crédito, cuotas sin interés',
    NC: 'Crédito, cuotas sin interés',
  }),
);

/** «Débito», «Crédito, cuotas sin interés»…; null when the gateway did not say (or said something unknown). */
export function paymentTypeLabel(code: string | null | undefined): string | null {
  return (code && paymentTypeLabels.get(code)) || null;
}

/** What each of `count` instalments of a CLP total is: the total split evenly, rounded up to the whole peso. */
export function instalmentOptions(totalClp: number, maxCount: number): { count: number; amountClp: number }[] {
  return Array.from({ length: maxCount }, (_, index) => ({
    count: index + 1,
    amountClp: instalmentClp(totalClp, index + 1),
  }));
}
