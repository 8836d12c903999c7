import { formatClp } from '@travesia/domain/money';
import type { components } from '#app/lib/api-schema.d.ts';

/** The buyer's view of «Mi compra»: the whole purchase (role buyer). */
export type Purchase = components['schemas']['Purchase'];
/** What the buyer can still add to each traveller (GET /purchases/mine/add-ons). */
export type AddOnsToBuy = components['schemas']['AddOnsToBuy'];
/** A traveller's view: her own trip and certificate only (role traveller; docs/my-purchase.md). */
export type TravellerPurchase = components['schemas']['TravellerPurchase'];
export type DocumentKind = 'rut' | 'dni' | 'passport';

/** The holder's document types «Mi compra» accepts (the API's documentType). */
export const documentKinds: { value: DocumentKind; label: string }[] = [
  { value: 'rut', label: 'RUT' },
  { value: 'dni', label: 'DNI' },
  { value: 'passport', label: 'Pasaporte' },
];

/** What the buyer typed to ask for a code, carried to the code step (hidden fields) and back. */
export type AccessInput = { number: string; documentType: DocumentKind; document: string };

export type DateChangePreview = components['schemas']['DateChangePreview'];

/** The «Cambiar fechas» form: the dates and country chosen, their errors, and the new price once previewed. */
export type DateChangeForm = {
  /** countryDestination: the id chosen in «País de destino» ('' when the purchase names none and none was chosen). */
  input: { departureDate: string; returnDate: string; countryDestination: string };
  errors: { departureDate?: string; returnDate?: string; countryDestination?: string; form?: string };
  preview: DateChangePreview | null;
};

type AppliedChange = Purchase['dateChanges'][number];

/**
 * What a given-back difference says in «Mi compra»'s list of changes: in process, refunded, or — when the gateway
 * refused the partial refund (Webpay does, for a debit card) — that the company returns it by transfer.
 */
export function refundText(change: Pick<AppliedChange, 'differenceClp' | 'refund' | 'refundRefused'>): string {
  const amount = formatClp(-change.differenceClp);
  if (change.refund !== 'reembolsado' && change.refundRefused) {
    return `devolución de ${amount}: tu medio de pago no admite devoluciones parciales (por ejemplo, una tarjeta de débito), así que te la devolveremos por transferencia; te contactaremos para pedirte los datos`;
  }
  return `devolución de ${amount} (${change.refund ?? 'reembolso en proceso'})`;
}

export type PurchasePageState =
  | { step: 'request'; input: AccessInput; errors: Partial<Record<keyof AccessInput, string>>; message: string | null }
  | { step: 'code'; input: AccessInput; error: string | null }
  | {
      step: 'purchase';
      purchase: Purchase;
      /** «Retractarme» was pressed: the page asks for the one confirmation (a plain form, no JavaScript needed). */
      confirmWithdrawal?: boolean;
      /** Why the withdrawal was refused or failed, when it was. */
      withdrawalError?: string | null;
      dateChange?: DateChangeForm;
      notice?: string | null;
      /** Add-ons that can still be added (issue 27 §1); null when none can (or they could not be read). */
      addOnsToBuy?: AddOnsToBuy | null;
      /** Why adding add-ons was refused, when it was. */
      addOnsError?: string | null;
    }
  | { step: 'traveller'; purchase: TravellerPurchase };
