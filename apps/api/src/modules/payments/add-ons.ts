import { formatClp } from '@travesia/domain/money';
import type { PurchasedAddOn, PurchaseSnapshot } from './tables.ts';

/**
 * The add-ons («adicionales», issue 27 §1) of a paid purchase as every document after the purchase reads them: from
 * the snapshot alone, never priced again. A sale paid before add-ons has none: its whole price is the plan's.
 */

/** One add-on bought for one traveller, with whose it is. */
export type AddOnLine = { travellerSeq: number; traveller: string; addOn: PurchasedAddOn };

type Amount = { totalUsdCents: number; totalClp: number };

/** Every add-on bought, traveller by traveller in the snapshot's order. */
export function addOnLinesOf(bought: Pick<PurchaseSnapshot, 'travellers'>): AddOnLine[] {
  return bought.travellers.flatMap((person) =>
    (person.addOns ?? []).map((addOn) => ({
      travellerSeq: person.seq,
      traveller: `${person.firstName} ${person.lastName}`,
      addOn,
    })),
  );
}

/**
 * Which add-on each traveller has, in one comparable string («seq:id» in order): a change priced from a snapshot is
 * refused under the purchase lock when the sale's add-ons moved meanwhile, even at the same amount (a free add-on).
 */
export function addOnsKeyOf(bought: Pick<PurchaseSnapshot, 'travellers'>): string {
  return addOnLinesOf(bought)
    .map((line) => `${line.travellerSeq}:${line.addOn.id}`)
    .sort()
    .join(',');
}

/**
 * The price paid split into the plan and the add-ons, adding up to the snapshot's total: the snapshot's own split when
 * it has one; else the add-on lines' sum, the plan being the rest (an older sale: the plan is the total, no add-ons).
 */
export function priceSplitOf(bought: Pick<PurchaseSnapshot, 'travellers' | 'price'>): {
  plan: Amount;
  addOns: Amount;
  total: Amount;
} {
  const total = { totalUsdCents: bought.price.totalUsdCents, totalClp: bought.price.totalClp };
  const lines = addOnLinesOf(bought);
  const addOns = bought.price.addOns ?? {
    totalUsdCents: lines.reduce((sum, line) => sum + line.addOn.totalUsdCents, 0),
    totalClp: lines.reduce((sum, line) => sum + line.addOn.totalClp, 0),
  };
  const plan = {
    totalUsdCents: total.totalUsdCents - addOns.totalUsdCents,
    totalClp: total.totalClp - addOns.totalClp,
  };
  return { plan, addOns, total };
}

/**
 * What the buyer's e-mails print of the price (one line each): the plan, each traveller's add-on and the total. None
 * when nothing but the plan was bought (the ledger's «Total pagado» says it all).
 */
export function priceBreakdownLines(bought: Pick<PurchaseSnapshot, 'travellers' | 'price' | 'plan'>): string[] {
  const lines = addOnLinesOf(bought);
  if (lines.length === 0) return [];
  const split = priceSplitOf(bought);
  return [
    `Plan ${bought.plan.label}: ${formatClp(split.plan.totalClp)}`,
    ...lines.map((line) => `Adicional ${line.addOn.name} · ${line.traveller}: ${formatClp(line.addOn.totalClp)}`),
    `Total: ${formatClp(split.total.totalClp)}`,
  ];
}
