import { addDays, todayInChile } from '@travesia/domain/dates';
import type { FeatureFlags } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { blogKindOf } from '#app/modules/blog/blog-kind.ts';
import { geographyKindOf } from '#app/modules/catalog/geography.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { siteKindsOf } from '#app/modules/company/site.ts';
import { faqKindOf } from '#app/modules/content/faq-kind.ts';
import { siteContactsKindOf } from '#app/modules/content/site-contacts.ts';
import { legalPagesKindOf } from '#app/modules/legal/legal-kind.ts';
import { type PlanDetails, planDetailsKind, planDetailsKindOf } from '#app/modules/plans/plan-details.ts';
import { type PlanPrices, priceGridOf, pricesKind, pricesKindOf, readPlanPrices } from '#app/modules/plans/prices.ts';
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

/** The live prices of a plan whose details are drafted, limited to the regions the draft still sells. */
async function livePricesFor(db: Database, key: string, companyId: number, draft: PlanDetails) {
  const prices = await readPlanPrices(db, key, companyId);
  if (!prices) throw new ApiError(404, 'No encontramos este plan.');
  return { ...prices, rates: prices.rates.filter((rate) => draft.regionIds.includes(rate.destinationId)) };
}

/**
 * Every kind the console of `companyId` publishes (the app's and the worker's company: config.companyId). The site's
 * flags start from the server configuration's (`features`) until the console publishes them.
 */
export function publishingKindsOf(companyId: number, features: FeatureFlags): Kinds {
  const site = siteKindsOf(companyId, features);
  return kindsOf(
    publishable({ ...pricesKindOf(companyId), previewPath: comparatorOfDraft }),
    // A plan's draft is previewed on the same sample trip as its prices would be (its live prices, its draft regions).
    publishable({
      ...planDetailsKindOf(companyId),
      previewPath: async (db: Database, key: string, draft: PlanDetails) =>
        comparatorOfDraft(db, key, await livePricesFor(db, key, companyId, draft)),
    }),
    publishable(site.navigation),
    publishable(site.footer),
    publishable(siteContactsKindOf(companyId)),
    publishable(site.whatsapp),
    publishable(site.flags),
    publishable(site.scripts),
    publishable(site.home),
    publishable(faqKindOf(companyId)),
    publishable(legalPagesKindOf(companyId)),
    publishable(geographyKindOf(companyId)),
    publishable(blogKindOf(companyId)),
  );
}

/**
 * A preview's draft as the plans module prices it: a draft of prices, or a draft of the plan itself over its live
 * prices.
 */
export async function previewOverrideOf(
  db: Database,
  companyId: number,
  preview: { kind: string; key: string; body: unknown },
): Promise<PriceOverride> {
  const productId = Number(preview.key);
  if (preview.kind === pricesKind.kind) return { productId, ...pricesKind.schema.parse(preview.body) };
  if (preview.kind === planDetailsKind.kind) {
    const details = planDetailsKind.schema.parse(preview.body);
    return { productId, ...(await livePricesFor(db, preview.key, companyId, details)), details };
  }
  throw new Error(`No storefront preview for the kind ${preview.kind}`);
}

/** The plans among `productIds` whose prices were published after `since` (plans' comparator notice, via app.ts). */
export async function repricedPlansSince(db: Database, productIds: number[], since: Date): Promise<Set<number>> {
  const keys = await keysPublishedSince(db, pricesKind.kind, productIds.map(String), since);
  return new Set(keys.map(Number));
}
