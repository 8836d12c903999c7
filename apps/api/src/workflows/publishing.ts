import { addDays, todayInChile } from '@travesia/domain/dates';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { faqKindOf } from '#app/modules/content/faq-kind.ts';
import { type PlanPrices, priceGridOf, pricesKind, pricesKindOf } from '#app/modules/plans/prices.ts';
import type { PriceOverride } from '#app/modules/plans/service.ts';
import { type Kinds, kindsOf, publishable } from '#app/modules/publishing/kind.ts';
import { keysPublishedSince } from '#app/modules/publishing/service.ts';
import { quotationInputSchema } from '#app/modules/quotations/schemas.ts';
import { createQuotation } from '#app/modules/quotations/service.ts';

/*
 * The publishing model's kinds (issue 25, docs/decisions/019-publishing-model.md), assembled above the modules: each
 * kind is exported by the module that owns its data (plans: prices) and handed to the publishing module here, so
 * publishing imports none of them. A kind's preview page may need another module (a quotation to open the comparator
 * on): that is wired here too. app.ts and worker.ts use this; nothing below imports it.
 */

const previewUnavailable =
  'No pudimos armar un viaje de ejemplo con este borrador (necesita al menos un precio en una región que el plan vende): revisa la grilla.';

/**
 * The preview of a plan's prices opens the real comparator on a sample quotation: the first region and age band the
 * draft prices, one traveller, 15 days from a month ahead.
 */
async function comparatorOfDraft(db: Database, key: string, draft: PlanPrices) {
  const grid = await priceGridOf(db, Number(key));
  const rate = draft.rates[0];
  if (!grid || !rate) throw new ApiError(400, previewUnavailable);
  const { companyId } = grid.product;
  const [origins, modalityId] = await Promise.all([
    catalog.listOrigins(db, companyId),
    (async () => {
      for (const modalityId of grid.modalityIds) {
        const destinations = await catalog.listDestinationsByModality(db, companyId, modalityId);
        if (destinations.some((d) => d.id === rate.destinationId)) return modalityId;
      }
      return grid.modalityIds[0];
    })(),
  ]);
  const departureDate = addDays(todayInChile(), 30);
  const quotationId = await createQuotation(
    db,
    companyId,
    quotationInputSchema.parse({
      origin: origins[0]?.id,
      destination: rate.destinationId,
      modality: modalityId,
      departureDate,
      returnDate: addDays(departureDate, 14),
      passangerTypes: [{ passengerTypeId: rate.passengerTypeId, quantity: 1 }],
      pantalla: 'vista-previa',
    }),
  ).catch((error: unknown) => {
    // The catalogue refused the sample trip (a region no modality of the plan sells, a length it does not allow).
    if (error instanceof ApiError && error.status === 400) throw new ApiError(400, previewUnavailable);
    throw error;
  });
  return { path: `/comparador/${quotationId}`, scope: quotationId };
}

/** Every kind the console of `companyId` publishes (the app's and the worker's company: config.companyId). */
export const publishingKindsOf = (companyId: number): Kinds =>
  kindsOf(
    publishable({ ...pricesKindOf(companyId), previewPath: comparatorOfDraft }),
    publishable(faqKindOf(companyId)),
  );

/** A preview's draft of prices as the plans module prices it. */
export function priceOverrideOf(preview: { kind: string; key: string; body: unknown }): PriceOverride {
  if (preview.kind !== pricesKind.kind) throw new Error('Not a preview of prices');
  return { productId: Number(preview.key), ...pricesKind.schema.parse(preview.body) };
}

/** The plans among `productIds` whose prices were published after `since` (plans' comparator notice, via app.ts). */
export async function repricedPlansSince(db: Database, productIds: number[], since: Date): Promise<Set<number>> {
  const keys = await keysPublishedSince(db, pricesKind.kind, productIds.map(String), since);
  return new Set(keys.map(Number));
}
