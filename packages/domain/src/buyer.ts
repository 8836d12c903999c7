import { DocumentType } from './ids.ts';
import { cleanRut, isValidRut } from './rut.ts';

export type BuyerTraveller = { seq: number; email: string; documentType: number; documentNumber: string };

/** Who buys a purchase: an e-mail and a document (type and number). */
export type Buyer = { email: string; documentType: number; documentNumber: string };

/**
 * Who buys a purchase (docs/my-purchase.md): the e-mail is the quote step's contact address when it was given, else
 * the first traveller's; the document is the quote step's RUT when it was given and valid, else the first
 * traveller's. `contact`: the quotation's e-mail and RUT; `travellers` in any order.
 */
export function buyerOf(
  contact: { email?: string | null; rut?: string | null } | null,
  travellers: readonly BuyerTraveller[],
): Buyer | undefined {
  const first = [...travellers].sort((a, b) => a.seq - b.seq)[0];
  const rut = contact?.rut?.trim();
  const email = (contact?.email?.trim() || first?.email || '').toLowerCase();
  if (rut && isValidRut(rut)) return { email, documentType: DocumentType.rut, documentNumber: rut };
  return first ? { email, documentType: first.documentType, documentNumber: first.documentNumber } : undefined;
}

/**
 * The keys one buyer is recognised by (a per-buyer limit counts uses sharing either): the e-mail lower-case, and
 * the document as `type:NUMBER` with a RUT's dots and dash, and any spaces, taken out (`1:12345678K`).
 */
export function buyerKeys(buyer: Buyer): { email: string; document: string } {
  const number =
    buyer.documentType === DocumentType.rut
      ? cleanRut(buyer.documentNumber)
      : buyer.documentNumber.replace(/\s/g, '').toUpperCase();
  return { email: buyer.email.trim().toLowerCase(), document: `${buyer.documentType}:${number}` };
}
