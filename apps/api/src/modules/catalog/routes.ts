import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import {
  countrySchema,
  destinationSchema,
  exchangeRateSchema,
  modalitySchema,
  originSchema,
  passengerTypeProductSchema,
  passengerTypeSchema,
  paymentGatewaySchema,
} from './schemas.ts';
import * as catalog from './service.ts';

const tags = ['catalog'];

export async function catalogRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/origins',
    { schema: { tags, params: companyParams, response: { 200: z.array(originSchema), ...errorResponses } } },
    (request) => catalog.listOrigins(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/modalities',
    { schema: { tags, params: companyParams, response: { 200: z.array(modalitySchema), ...errorResponses } } },
    (request) => catalog.listModalities(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/destinations/:modalityId',
    {
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
    { schema: { tags, params: companyParams, response: { 200: z.array(passengerTypeSchema), ...errorResponses } } },
    (request) => catalog.listPassengerTypes(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/passanger-type-product',
    {
      schema: {
        tags,
        params: companyParams,
        response: { 200: z.array(passengerTypeProductSchema), ...errorResponses },
      },
    },
    (request) => catalog.listPassengerTypeProducts(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/payment-gateways',
    { schema: { tags, params: companyParams, response: { 200: z.array(paymentGatewaySchema), ...errorResponses } } },
    (request) => catalog.listPaymentGateways(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/exchange-rate',
    {
      schema: {
        tags,
        description: 'Converts a USD amount to CLP with the stored rate',
        params: companyParams,
        querystring: z.object({
          amount: z
            .string()
            .regex(/^\d+(\.\d+)?$/, 'amount must be a non-negative decimal number')
            .describe('USD amount, e.g. 125.50'),
        }),
        response: { 200: exchangeRateSchema, ...errorResponses },
      },
    },
    (request) => catalog.convertAmount(db, request.params.companyId, request.query.amount),
  );
}
