import type { components } from '#app/lib/api-schema.d.ts';

export type Purchase = components['schemas']['Purchase'];
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

/** The «Cambiar fechas» form: the dates typed, their errors, and the new price once previewed. */
export type DateChangeForm = {
  input: { departureDate: string; returnDate: string };
  errors: { departureDate?: string; returnDate?: string; form?: string };
  preview: DateChangePreview | null;
};

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
    };
