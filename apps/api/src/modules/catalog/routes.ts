import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import type { PaymentGateway } from '#app/integrations/payments/gateway.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { previewHeaderSchema, requestedPreview } from '#app/modules/publishing/preview.ts';
import type { CatalogPreview } from './geography.ts';
import {
  countrySchema,
  destinationSchema,
  exchangeRateSchema,
  modalitySchema,
  originSchema,
  passengerTypeSchema,
  paymentGatewaySchema,
} from './schemas.ts';
import * as catalog from './service.ts';

const tags = ['catalog'];

/**
 * `gateways`: the payment gateways this store runs; each says whether it takes test payments. `previewCatalog`: a
 * console site preview token's geography draft (app.ts wires it to the publishing model); null for a site token of
 * another part (the live lists are answered with it).
 */
export type CatalogOptions = {
  gateways: ReadonlyMap<string, Pick<PaymentGateway, 'testMode'>>;
  previewCatalog?: (token: string) => Promise<CatalogPreview | null>;
};

export async function catalogRoutes(fastify: FastifyInstance, options: CatalogOptions) {
  const app = typed(fastify);
  const { db } = fastify;
  // The geography draft a request's preview token opens, if it carries one (its answer is then never kept).
  const catalogPreview = (request: FastifyRequest, reply: FastifyReply) =>
    requestedPreview(request, reply, options.previewCatalog);

  app.get(
    '/companies/:companyId/origins',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          'Where a trip may start. With a geography preview token (x-vista-previa), the draft origins, never kept nor indexed.',
        params: companyParams,
        headers: previewHeaderSchema,
        response: { 200: z.array(originSchema), ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) =>
      (await catalogPreview(request, reply))?.origins ?? catalog.listOrigins(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/modalities',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(modalitySchema), ...errorResponses } },
    },
    (request) => catalog.listModalities(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/destinations/:modalityId',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          'Destinations (regions) offered for a modality. With a geography preview token (x-vista-previa), the draft regions, never kept nor indexed.',
        params: companyParams.extend({ modalityId: z.coerce.number().int().positive() }),
        headers: previewHeaderSchema,
        response: { 200: z.array(destinationSchema), ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId, modalityId } = request.params;
      const preview = await catalogPreview(request, reply);
      return preview
        ? preview.destinationsOf(modalityId)
        : catalog.listDestinationsByModality(db, companyId, modalityId);
    },
  );

  app.get(
    '/companies/:companyId/destinations/:destinationId/countries',
    {
      config: publicCatalogue,
      schema: {
        tags,
        params: companyParams.extend({ destinationId: z.coerce.number().int().positive() }),
        response: { 200: z.array(countrySchema), ...errorResponses },
      },
    },
    (request) => catalog.listCountriesOfDestination(db, request.params.companyId, request.params.destinationId),
  );

  app.get(
    '/companies/:companyId/passanger-types',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(passengerTypeSchema), ...errorResponses } },
    },
    (request) => catalog.listPassengerTypes(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/payment-gateways',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(paymentGatewaySchema), ...errorResponses } },
    },
    async (request) => {
      const gateways = await catalog.listPaymentGateways(db, request.params.companyId);
      // The test gateway is offered only where it runs (never next to Webpay's production environment). Each says
      // whether it takes test payments, so that the payment step labels Webpay's integration environment as it
      // labels the sandbox (issue 22: a test payment says so on every page it appears on).
      return gateways
        .filter((gateway) => gateway.id !== 'sandbox' || fastify.config.payments.sandboxEnabled)
        .map((gateway) => ({ ...gateway, testMode: options.gateways.get(gateway.id)?.testMode === true }));
    },
  );

  app.get(
    '/companies/:companyId/exchange-rate',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description: 'Converts a USD amount to CLP with the stored rate',
        params: companyParams,
        querystring: z.object({
          amount: z
            .string()
            // Bounded so the conversion stays a finite, exact number of pesos (a 400-digit amount is not a price).
            .regex(
              /^\d{1,12}(\.\d{1,6})?$/,
              'amount must be a non-negative decimal number (up to 12 digits, 6 decimals)',
            )
            .describe('USD amount, e.g. 125.50 (up to 12 digits and 6 decimals)'),
        }),
        response: { 200: exchangeRateSchema, ...errorResponses },
      },
    },
    (request) => catalog.convertAmount(db, request.params.companyId, request.query.amount),
  );
}
