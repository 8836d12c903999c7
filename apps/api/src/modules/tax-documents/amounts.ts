import type { TaxDocumentType } from './tables.ts';

/** A document's amounts in whole pesos: total = net + IVA + exempt, and total is the ledger's amount for the money. */
export type TaxAmounts = { netClp: number; ivaClp: number; exemptClp: number; totalClp: number };

/**
 * Splits a total paid (IVA included) into net and IVA at the plan's rate in basis points (1900 = 19 %), or all
 * exempt when the plan carries no IVA. The total is never changed: IVA is what is left after rounding the net, so
 * the document adds up to the ledger's peso.
 */
export function splitTotal(totalClp: number, taxBp: number | null): TaxAmounts {
  if (!Number.isInteger(totalClp) || totalClp < 0) throw new Error('A document total is a whole, non-negative peso');
  if (taxBp === null || taxBp <= 0) return { netClp: 0, ivaClp: 0, exemptClp: totalClp, totalClp };
  const netClp = Math.round((totalClp * 10_000) / (10_000 + taxBp));
  return { netClp, ivaClp: totalClp - netClp, exemptClp: 0, totalClp };
}

/** The sale document's type: factura when the buyer asked for one (company RUT and giro), else boleta; exenta without IVA. */
export function saleDocumentType(taxed: boolean, factura: boolean): TaxDocumentType {
  if (factura) return taxed ? 33 : 34;
  return taxed ? 39 : 41;
}

export const taxDocumentTypeNames: Record<TaxDocumentType, string> = {
  39: 'Boleta electrónica',
  41: 'Boleta exenta electrónica',
  33: 'Factura electrónica',
  34: 'Factura exenta electrónica',
  61: 'Nota de crédito electrónica',
};
