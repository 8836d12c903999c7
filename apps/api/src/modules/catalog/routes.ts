import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import type { PaymentGateway } from '#app/integrations/payments/gateway.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
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

/** `gateways`: the payment gateways this store runs; each says whether it takes test payments. */
export type CatalogOptions = { gateways: ReadonlyMap<string, Pick<PaymentGateway, 'testMode'>> };

export async function catalogRoutes(fastify: FastifyInstance, options: CatalogOptions) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/origins',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(originSchema), ...errorResponses } },
    },
    (request) => catalog.listOrigins(db, request.params.companyId),
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
        description: 'Destinations (regions) offered for a modality',
        params: companyParams.extend({ modalityId: z.coerce.number().int().positive() }),
        response: { 200: z.array(destinationSchema), ...errorResponses },
      },
    },
    (request) => catalog.listDestinationsByModality(db, request.params.companyId, request.params.modalityId),
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
