import { bandLabel } from '#app/lib/format.ts';
import type { PlanAddOn } from './types.ts';

/**
 * The add-ons («adicionales», issue 27 §1) the plans offer, kept pure (no React) so the card and the comparison table
 * word them alike and can be unit-tested. Every amount comes computed and formatted from the API.
 */

/** An age band as the plans page knows it (the site's passenger types). */
export type Band = { id: number; ageFrom: number; ageTo: number };

/** «$23.713 por viajero», or «desde $6.052 por viajero» when travellers of different ages pay different prices. */
export function addOnPriceLabel(addOn: Pick<PlanAddOn, 'perPassenger' | 'from'>): string {
  const prices = new Set(addOn.perPassenger.map((one) => one.amountClp));
  return `${prices.size > 1 ? 'desde ' : ''}${addOn.from.formatted} por viajero`;
}

/** «No disponible para pasajeros de 75 a 84 años» (bands joined with «ni»), or null when every traveller may buy it. */
export function unavailableBandsLabel(addOn: Pick<PlanAddOn, 'unavailableFor'>, bands: readonly Band[]): string | null {
  const labels = addOn.unavailableFor.flatMap((id) => {
    const band = bands.find((candidate) => candidate.id === id);
    return band ? [`pasajeros ${bandLabel(band)}`] : [];
  });
  return labels.length === 0 ? null : `No disponible para ${labels.join(' ni ')}`;
}

type WithAddOns = { id: number; adicionales: readonly PlanAddOn[] };

/**
 * One row per add-on any plan offers, in the order they first appear, with each plan's offer (null: that plan cannot
 * take it). Rows where a plan lacks an add-on another plan has are the ones that change the choice.
 */
export function addOnRows<Plan extends WithAddOns>(
  plans: readonly Plan[],
): { id: number; name: string; description: string; offers: (PlanAddOn | null)[] }[] {
  const rows = new Map<number, { name: string; description: string }>();
  for (const plan of plans) {
    for (const addOn of plan.adicionales) {
      if (!rows.has(addOn.id)) rows.set(addOn.id, { name: addOn.name, description: addOn.description });
    }
  }
  return [...rows].map(([id, row]) => ({
    id,
    ...row,
    offers: plans.map((plan) => plan.adicionales.find((addOn) => addOn.id === id) ?? null),
  }));
}

/** The names of the add-ons other plans of the page offer and `plan` cannot take, in the page's order. */
export function missingAddOns<Plan extends WithAddOns>(plan: Plan, plans: readonly Plan[]): string[] {
  return addOnRows(plans)
    .filter((row) => !plan.adicionales.some((addOn) => addOn.id === row.id))
    .map((row) => row.name);
}
