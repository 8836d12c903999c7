import { todayInChile } from '@travesia/domain/dates';
import { errorMessages } from '@travesia/domain/messages';
import { tripFields } from '@travesia/domain/rules';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { errorBodySchema, errorResponses, resourceNotFound } from '#app/errors.ts';
import { companyParams, dbId, typed } from '#app/http.ts';
import { maxAnswers, readCache } from '#app/lib/cache/read-cache.ts';
import { keptBody } from '#app/lib/http/compression.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { discountCodeRateLimit } from '#app/lib/http/rate-limit.ts';
import { passengerTypeProductSchema } from '#app/modules/catalog/schemas.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import { previewHeaderSchema, requestedPreview } from '#app/modules/publishing/preview.ts';
import { listAddOns, offersFor } from './add-ons.ts';
import { toComparatorPlan, toListingPlan, toPreviewPlan } from './presenters.ts';
import {
  comparatorPlanSchema,
  covidUpgradePriceSchema,
  listingPlanSchema,
  previewPlanSchema,
  unavailablePlansSchema,
} from './schemas.ts';
import {
  covidUpgradePrice,
  listPassengerTypeProducts,
  type PricedPlan,
  type PriceOverride,
  priceTripPlans,
  type Trip,
  type TripPricing,
} from './service.ts';

const tags = ['plans'];
const idQuery = z.coerce.number().pipe(dbId);

/** `passengers=1:2,2:1` → two of passenger type 1 and one of type 2. */
const passengersQuery = z
  .string()
  .regex(/^\d{1,9}:\d{1,2}(,\d{1,9}:\d{1,2})*$/, 'Use tipo:cantidad separados por coma, por ejemplo 1:2,2:1')
  .transform((value) =>
    value.split(',').map((pair) => {
      const [passengerTypeId = 0, quantity = 0] = pair.split(':').map(Number);
      return { passengerTypeId, quantity };
    }),
  )
  .describe('passenger type id:quantity pairs, e.g. 1:2,2:1');

/**
 * Spec §5: these are required; discountCode and upgradeCovid are optional but never null. The spec's clients send
 * `discountCode=` when the visitor typed none: a blank code (after trimming) is no code, here as in the quotation
 * and the pricing, so that search is the plain one (kept answers, no rate limit), not a code to look up.
 */
const searchQuery = z.object({
  origin: idQuery,
  destination: idQuery,
  modality: idQuery,
  departureDate: tripFields.departureDate,
  returnDate: tripFields.returnDate,
  passengers: passengersQuery,
  discountCode: tripFields.discountCode.optional().transform((code) => code || undefined),
  upgradeCovid: z.enum(['true', 'false']).optional(),
});

function tripOfSearch(query: z.output<typeof searchQuery>): Trip {
  return {
    originId: query.origin,
    destinationId: query.destination,
    modalityId: query.modality,
    departureDate: query.departureDate,
    returnDate: query.returnDate,
    passengers: query.passengers,
    discountCode: query.discountCode ?? null,
    upgradeCovid: query.upgradeCovid === 'true',
  };
}

/**
 * What a plan search answer depends on besides the catalogue (its cache is cleared with it): the company, the
 * parsed trip and today in Chile (the date rules, the traveller's age bands and prices are all of today).
 */
export function planSearchKey(companyId: number, trip: Trip, today = todayInChile()): string {
  const passengers = trip.passengers.map((p) => `${p.passengerTypeId}:${p.quantity}`).join(',');
  return `plan-search:${companyId}:${today}:${trip.originId}:${trip.destinationId}:${trip.modalityId}:${trip.departureDate}:${trip.returnDate}:${passengers}:${trip.upgradeCovid}`;
}

/**
 * The add-ons offered with each priced plan of a trip (issue 27 §1, the listing's and the comparator's
 * `adicionales`): the company's add-ons, one cached read, offered per plan by add-ons.ts.
 */
async function addOnOffers(db: Database, companyId: number, trip: Trip, pricing: TripPricing) {
  const addOns = await listAddOns(db, companyId);
  return (plan: PricedPlan) => offersFor(addOns, plan, trip, pricing.clpPerUsd);
}

/** A stored quotation's trip (the quotations module's, handed in by app.ts: quotations prices with this module). */
export type TripOfQuotation = (db: Database, companyId: number, quotationId: string) => Promise<Trip>;

/** The plans of a stored quotation, priced: the trip the visitor saved is the trip priced. */
async function priceStoredQuotation(
  db: Database,
  tripOfQuotation: TripOfQuotation,
  companyId: number,
  quotationId: string,
  override?: PriceOverride,
) {
  const trip = await tripOfQuotation(db, companyId, quotationId);
  return priceTripPlans(db, companyId, trip, errorMessages.invalidPlanQuotationId, 'passengers', override);
}

/**
 * A signed preview token's draft prices (the publishing model's, handed in by app.ts): the comparator of the
 * quotation the link was made for, priced with a draft before it is published. Throws a 403 in words for a forged or
 * expired token, or one used on another quotation.
 */
export type PreviewPrices = (token: string, quotationId: string) => Promise<PriceOverride>;

/** The plans among `productIds` whose prices were published after `since` (the publishing model's, via app.ts). */
export type RepricedPlansSince = (db: Database, productIds: number[], since: Date) => Promise<Set<number>>;

/**
 * The draft prices a request previews, if it carries a token: its answer must not be kept by anyone (no-store) nor
 * indexed, whatever the route's own policy.
 */
function previewOf(
  request: { headers: Record<string, unknown> },
  reply: FastifyReply,
  previewPrices: PreviewPrices | undefined,
  quotationId: string,
): Promise<PriceOverride | undefined> {
  return requestedPreview(request, reply, previewPrices && ((token) => previewPrices(token, quotationId)));
}

/** A longer URL is no visitor's search (the quoter's are ~150 characters): not worth holding. */
const maxKeptUrlLength = 1_024;

/**
 * The URLs of plan searches answered and kept before, each with the key of its answer (planSearchKey) and the day in
 * Chile it was computed for: a URL is the whole input of a plain search (company in the path, trip in the query), so
 * a URL seen before names the same answer, and a request for it is sent that answer before its query is parsed and
 * validated again (most visitors of one trip ask the same URL). Bounded like the answers themselves; an entry whose
 * answer the read cache dropped (lifetime, invalidation, its own bound) is simply a miss.
 */
function keptSearchUrls() {
  const urls = new LRUCache<string, { key: string; today: string }>({ max: maxAnswers });
  return {
    keyOf(url: string): string | undefined {
      const found = urls.get(url);
      if (found === undefined) return undefined;
      if (found.today !== todayInChile()) {
        urls.delete(url);
        return undefined;
      }
      return found.key;
    },
    remember(url: string, key: string, today: string) {
      if (url.length > maxKeptUrlLength) return;
      urls.set(url, { key, today });
    },
  };
}

export async function planRoutes(
  fastify: FastifyInstance,
  options: { tripOfQuotation: TripOfQuotation; previewPrices?: PreviewPrices; repricedPlansSince?: RepricedPlansSince },
) {
  const app = typed(fastify);
  const { db } = fastify;
  const searchUrls = keptSearchUrls();
  const sendSearchAnswer = (reply: FastifyReply, body: Buffer) =>
    // Bytes with a JSON content type leave as they are: the serialization is not done twice. (The type provider
    // only knows the schema's object shape, hence the cast.)
    reply.type('application/json; charset=utf-8').send(body as never);

  app.get(
    '/:companyId/plans',
    {
      config: {
        invalidInputDetail: errorMessages.invalidInputParameters,
        // Only searches that try a discount code are counted: plain searches are the hot path.
        rateLimit: discountCodeRateLimit(fastify.config.rateLimits),
      },
      // A URL answered before (a plain search, a blank discountCode included: one with a code is never kept) is sent
      // its kept answer here, before parsing, validation, the company check and the handler: the same bytes they
      // would lead to.
      onRequest: (request, reply, done) => {
        const url = request.raw.url;
        const key = url === undefined ? undefined : searchUrls.keyOf(url);
        const kept = key === undefined ? undefined : readCache(db).keptAnswer<Buffer>(key);
        if (kept === undefined) return done();
        sendSearchAnswer(reply, kept);
      },
      schema: {
        tags,
        description:
          'Every plan that fits the trip, priced in USD and CLP. A search with a discountCode is rate-limited per client (429).',
        params: companyParams,
        querystring: searchQuery,
        response: { 200: z.array(listingPlanSchema), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId } = request.params;
      const trip = tripOfSearch(request.query);
      const search = async () => {
        const pricing = await priceTripPlans(db, companyId, trip, errorMessages.invalidInputParameters);
        const offers = await addOnOffers(db, companyId, trip, pricing);
        // The route's own response serializer (validating in tests, fast in production), as Fastify would use it;
        // kept as bytes, so a kept answer is not encoded to UTF-8 (nor its length counted) again on every send.
        // Marked as kept, its Brotli and gzip copies are made once too (lib/http/compression.ts).
        return keptBody(
          Buffer.from(
            reply.serialize(pricing.plans.map((plan) => toListingPlan(plan, pricing, offers(plan)))) as string,
          ),
        );
      };
      // A search with a discount code is answered afresh (the code's validity is looked up each time); any other
      // is a pure function of its key and of the catalogue, whose invalidation clears every kept answer.
      if (request.query.discountCode !== undefined) return sendSearchAnswer(reply, await search());
      const today = todayInChile();
      const key = planSearchKey(companyId, trip, today);
      const cache = readCache(db);
      const body = await cache.answer(key, search);
      // Only a URL whose answer was kept (not with CATALOG_CACHE_TTL_MS=0, nor after a clear during the search).
      if (request.raw.url !== undefined && cache.keptAnswer(key) === body)
        searchUrls.remember(request.raw.url, key, today);
      return sendSearchAnswer(reply, body);
    },
  );

  app.get(
    '/:companyId/plans-comparador',
    {
      config: { invalidInputDetail: errorMessages.invalidPlanQuotationId },
      schema: {
        tags,
        description:
          "The quotation's plans for the comparator. The stored quotation is the trip priced; the search parameters are accepted for compatibility and not used.",
        params: companyParams,
        querystring: searchQuery.partial().extend({ quotationId: z.uuid() }),
        headers: previewHeaderSchema,
        response: { 200: z.array(comparatorPlanSchema), ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId } = request.params;
      const preview = await previewOf(request, reply, options.previewPrices, request.query.quotationId);
      const trip = await options.tripOfQuotation(db, companyId, request.query.quotationId);
      const pricing = await priceTripPlans(
        db,
        companyId,
        trip,
        errorMessages.invalidPlanQuotationId,
        'passengers',
        preview,
      );
      // Prices move forward (issue 25): a quotation saved before its plan's prices were published is shown the new
      // price, and told so.
      const repriced =
        trip.quotedAt && options.repricedPlansSince
          ? await options.repricedPlansSince(
              db,
              pricing.plans.map((plan) => plan.product.id),
              trip.quotedAt,
            )
          : new Set<number>();
      const offers = await addOnOffers(db, companyId, trip, pricing);
      return pricing.plans.map((plan) => ({
        ...toComparatorPlan(plan, pricing, offers(plan)),
        precioActualizado: repriced.has(plan.product.id),
      }));
    },
  );

  app.get(
    '/:companyId/plans/:planId',
    {
      config: { invalidInputDetail: errorMessages.invalidPlanQuotationId },
      schema: {
        tags,
        description: 'One plan priced for a quotation (a list of one)',
        params: companyParams.extend({ planId: idQuery }),
        querystring: z.object({ quotationId: z.uuid() }),
        response: { 200: z.array(listingPlanSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { companyId, planId } = request.params;
      const trip = await options.tripOfQuotation(db, companyId, request.query.quotationId);
      const pricing = await priceTripPlans(db, companyId, trip, errorMessages.invalidPlanQuotationId);
      const plan = pricing.plans.find((candidate) => candidate.product.id === planId);
      if (!plan) throw resourceNotFound();
      const offers = await addOnOffers(db, companyId, trip, pricing);
      return [toListingPlan(plan, pricing, offers(plan))];
    },
  );

  app.get(
    '/:companyId/plans-quotation/:quotationId',
    {
      config: { invalidInputDetail: errorMessages.invalidPlanQuotationId },
      schema: {
        tags,
        description: "The quotation's plans as the preview (capture) view shows them",
        params: companyParams.extend({ quotationId: z.uuid() }),
        response: { 200: z.array(previewPlanSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { companyId, quotationId } = request.params;
      const pricing = await priceStoredQuotation(db, options.tripOfQuotation, companyId, quotationId);
      return pricing.plans.map((plan) => toPreviewPlan(plan, pricing));
    },
  );

  app.get(
    '/:companyId/plans-unavailable/:quotationId',
    {
      config: { invalidInputDetail: errorMessages.invalidPlanQuotationId },
      schema: {
        tags,
        description:
          "Which of the plans sold for the quotation's modality and destination each travelling age band rules out, and how many (so the comparator can say which plans are missing and why)",
        params: companyParams.extend({ quotationId: z.uuid() }),
        headers: previewHeaderSchema,
        response: { 200: unavailablePlansSchema, ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId, quotationId } = request.params;
      const preview = await previewOf(request, reply, options.previewPrices, quotationId);
      const [pricing, passengerTypes] = await Promise.all([
        priceStoredQuotation(db, options.tripOfQuotation, companyId, quotationId, preview),
        catalog.listPassengerTypes(db, companyId),
      ]);
      return {
        passengerTypes: pricing.unavailable.flatMap(({ passengerTypeId, planNames }) => {
          const type = passengerTypes.find((candidate) => candidate.id === passengerTypeId);
          if (!type || planNames.length === 0) return [];
          const { label, ageFrom, ageTo } = type;
          return [{ passengerTypeId, label, ageFrom, ageTo, plans: planNames.length, planNames }];
        }),
      };
    },
  );

  app.get(
    '/companies/:companyId/passanger-type-product',
    {
      config: publicCatalogue,
      schema: {
        // Listed with the catalogue (spec §7); the table is this module's (passenger types × products).
        tags: ['catalog'],
        params: companyParams,
        response: { 200: z.array(passengerTypeProductSchema), ...errorResponses },
      },
    },
    (request) => listPassengerTypeProducts(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/covid-upgrade',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          'Not in spec §7: what the covid upgrade costs before a trip is quoted, the lowest and highest fee per passenger and per day among the plans that offer it (USD as decimal strings, CLP at the stored rate); tax, where a plan has it, comes on top.',
        params: companyParams,
        response: { 200: covidUpgradePriceSchema, ...errorResponses },
      },
    },
    (request) => covidUpgradePrice(db, request.params.companyId),
  );
}
