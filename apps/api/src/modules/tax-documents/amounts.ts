import { mulDivRound } from '@travesia/domain/pricing';
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

/** One detail line of a document (the SII's Detalle): its name and its part of the document's amounts. */
export type DocumentLine = TaxAmounts & { name: string };

/**
 * A document's detail lines: the plan's line and one per add-on kind (issue 27 §1), each add-on split as the document
 * is (the add-ons carry the plan's tax status: all exempt, or net + IVA in the same proportion), the plan's line
 * being the rest, so it takes every rounding remainder and the lines add up to the document exactly, peso by peso.
 * Nothing but the plan, or add-ons that do not fit in the total: the plan's line alone (the whole document).
 */
export function documentLines(
  document: TaxAmounts,
  planName: string,
  addOns: { name: string; totalClp: number }[],
): DocumentLine[] {
  const { netClp, ivaClp, exemptClp, totalClp } = document;
  const whole: DocumentLine[] = [{ name: planName, netClp, ivaClp, exemptClp, totalClp }];
  if (addOns.length === 0 || document.totalClp <= 0) return whole;
  const lines = addOns.map((addOn) => {
    const netClp = mulDivRound(addOn.totalClp, document.netClp, document.totalClp);
    const exemptClp = mulDivRound(addOn.totalClp, document.exemptClp, document.totalClp);
    return {
      name: addOn.name,
      netClp,
      exemptClp,
      ivaClp: addOn.totalClp - netClp - exemptClp,
      totalClp: addOn.totalClp,
    };
  });
  const rest = (key: keyof TaxAmounts) => document[key] - lines.reduce((sum, line) => sum + line[key], 0);
  const plan: DocumentLine = {
    name: planName,
    netClp: rest('netClp'),
    ivaClp: rest('ivaClp'),
    exemptClp: rest('exemptClp'),
    totalClp: rest('totalClp'),
  };
  const amounts = [plan, ...lines].flatMap((line) => [line.netClp, line.ivaClp, line.exemptClp]);
  if (plan.totalClp <= 0 || amounts.some((amount) => amount < 0)) return whole;
  return [plan, ...lines];
}
