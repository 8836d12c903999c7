import { type AddOnPrice, type AddOnPricing, checkAddOnEligibility, priceAddOn } from '@travesia/domain/add-ons';
import type { PlanPrice } from '@travesia/domain/pricing';
import type { OfferedAddOnRow } from './repository.ts';

/**
 * The add-ons offered with one plan for one trip (issue 27 §1: «offered on the comparator where it changes the
 * choice»): those at least one travelling age band may buy with that plan, each priced for one traveller of every
 * band that may buy it, and the bands that may not. The purchase step, where a traveller chooses, checks again.
 */
export type OfferedAddOn = {
  id: number;
  code: string;
  name: string;
  description: string;
  /** One traveller of each travelling band that may buy it, priced alone (packages/domain/src/add-ons.ts). */
  perPassengerType: { passengerTypeId: number; quantity: number; price: AddOnPrice }[];
  /** The travelling bands that may not buy it (its age bands leave them out). */
  unavailableFor: number[];
};

/** What the offer of one plan depends on: the trip and that plan's price for one traveller of each band. */
export type AddOnOfferInput = {
  productId: number;
  modalityId: number;
  destinationId: number;
  days: number;
  /** The plan's tax rate in bp when it charges tax; null otherwise. */
  taxBp: number | null;
  clpPerUsd: string;
  perPassengerType: { passengerTypeId: number; quantity: number; price: PlanPrice }[];
};

/** A stored add-on's price rule, as packages/domain prices it (the table's check keeps the pair consistent). */
export function addOnPricingOf(row: Pick<OfferedAddOnRow, 'pricing' | 'priceCentsPerDay' | 'planPercentBp'>) {
  const pricing: AddOnPricing =
    row.pricing === 'daily'
      ? { kind: 'daily', centsPerDay: row.priceCentsPerDay ?? 0 }
      : { kind: 'percent', planPercentBp: row.planPercentBp ?? 0 };
  return pricing;
}

/** The add-ons of `rows` offered with one plan for one trip, in the rows' order. */
export function offerAddOns(rows: readonly OfferedAddOnRow[], input: AddOnOfferInput): OfferedAddOn[] {
  const offered: OfferedAddOn[] = [];
  for (const row of rows) {
    const perPassengerType: OfferedAddOn['perPassengerType'] = [];
    const unavailableFor: number[] = [];
    for (const band of input.perPassengerType) {
      const buyer = {
        passengerTypeId: band.passengerTypeId,
        modalityId: input.modalityId,
        destinationId: input.destinationId,
        productId: input.productId,
      };
      if (!checkAddOnEligibility(row, buyer).eligible) {
        unavailableFor.push(band.passengerTypeId);
        continue;
      }
      const price = priceAddOn({
        pricing: addOnPricingOf(row),
        days: input.days,
        planNetCents: band.price.netCents,
        taxBp: input.taxBp,
        clpPerUsd: input.clpPerUsd,
      });
      perPassengerType.push({ passengerTypeId: band.passengerTypeId, quantity: band.quantity, price });
    }
    // Sold to none of the travellers with this plan (its modality, region, plan or every band): not offered.
    if (perPassengerType.length === 0) continue;
    const { id, code, name, description } = row;
    offered.push({ id, code, name, description, perPassengerType, unavailableFor });
  }
  return offered;
}
