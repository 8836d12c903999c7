import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { resourceNotFound } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import * as catalog from '../catalog/service.ts';
import { consoleErrors } from '../operators/console-routes.ts';
import { findDraftBody } from '../publishing/service.ts';
import { readPlanDetails } from './plan-details.ts';
import { formatImpact, planPricesSchema, priceGridOf, priceImpact, pricesKind, readPlanPrices } from './prices.ts';
import * as repository from './repository.ts';

const keyParams = z.object({ key: z.string().regex(/^\d{1,9}$/, 'Plan no válido') });

/**
 * «Precios» (issue 25): the plans to pick from, a plan's price grid (regions × age bands), and the impact table of
 * its saved draft. Drafts, publishing, history and rollback are the publishing model's routes (`/prices/:key…`,
 * publishing/console-routes.ts) for the kind `prices` this module exports (prices.ts).
 */
export async function pricesConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;
  const tags = ['backoffice'];

  app.get(
    '/prices',
    {
      schema: {
        tags,
        description: "The company's plans, to pick one whose prices to edit.",
        response: {
          200: z.object({
            plans: z.array(z.object({ id: z.number(), code: z.string(), label: z.string(), rating: z.string() })),
          }),
          ...consoleErrors,
        },
      },
    },
    async () => {
      const companyId = fastify.config.companyId;
      const rows = await repository.listProductsOfCompany(db, companyId);
      return { plans: rows.map((row) => ({ id: row.id, code: row.code, label: row.label, rating: row.rating })) };
    },
  );

  app.get(
    '/prices/:key/grid',
    {
      schema: {
        tags,
        description: "The price grid's rows and columns: the regions the plan is sold to and the age bands.",
        params: keyParams,
        response: {
          200: z.object({
            plan: z.object({ id: z.number(), label: z.string(), rating: z.enum(['daily', 'flat']) }),
            regions: z.array(z.object({ id: z.number(), label: z.string() })),
            passengerTypes: z.array(
              z.object({ id: z.number(), label: z.string(), ageFrom: z.number(), ageTo: z.number() }),
            ),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const grid = await priceGridOf(db, Number(request.params.key));
      if (!grid || grid.product.companyId !== fastify.config.companyId) throw resourceNotFound();
      return {
        plan: { id: grid.product.id, label: grid.product.label, rating: grid.product.rating },
        regions: grid.regions,
        passengerTypes: grid.passengerTypes,
      };
    },
  );

  app.get(
    '/prices/:key/impact',
    {
      schema: {
        tags,
        description:
          "The impact of the saved draft (or of the live prices when there is none): sample trips of 7, 15 and 30 days to each region, one traveller of each band, today's and the new total in USD and CLP at today's exchange rate, priced by the storefront's pricing.",
        params: keyParams,
        response: {
          200: z.object({
            rows: z.array(
              z.object({
                destinationId: z.number(),
                region: z.string(),
                passengerTypeId: z.number(),
                band: z.string(),
                days: z.number(),
                todayCents: z.number().nullable(),
                newCents: z.number().nullable(),
                todayClp: z.number().nullable(),
                newClp: z.number().nullable(),
                changePercent: z.number().nullable(),
                formatted: z.object({
                  todayUsd: z.string(),
                  newUsd: z.string(),
                  todayClp: z.string(),
                  newClp: z.string(),
                }),
              }),
            ),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const { key } = request.params;
      const live = await readPlanPrices(db, key, fastify.config.companyId);
      if (!live) throw resourceNotFound();
      const saved = planPricesSchema.safeParse(await findDraftBody(db, pricesKind.kind, key));
      const rows = await priceImpact(db, Number(key), saved.success ? saved.data : live);
      return { rows: rows.map((row) => ({ ...row, formatted: formatImpact(row) })) };
    },
  );

  app.get(
    '/plans/:key/options',
    {
      schema: {
        tags,
        description:
          "What «Planes» offers to choose from for a plan: the company's modalities and age bands, and the regions its modalities sell to (a region is sold once «Precios» gives it prices).",
        params: keyParams,
        response: {
          200: z.object({
            modalities: z.array(z.object({ id: z.number(), label: z.string() })),
            regions: z.array(z.object({ id: z.number(), label: z.string() })),
            passengerTypes: z.array(
              z.object({ id: z.number(), label: z.string(), ageFrom: z.number(), ageTo: z.number() }),
            ),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const { companyId } = fastify.config;
      const [live, grid, modalities] = await Promise.all([
        readPlanDetails(db, request.params.key, companyId),
        priceGridOf(db, Number(request.params.key)),
        catalog.listModalities(db, companyId),
      ]);
      if (!live || !grid) throw resourceNotFound();
      return {
        modalities: modalities.map((modality) => ({ id: modality.id, label: modality.label })),
        regions: grid.regions,
        passengerTypes: grid.passengerTypes,
      };
    },
  );
}
