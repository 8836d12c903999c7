import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { quotationIdParams, typed } from '#app/http.ts';
import type { LockPurchase } from '#app/modules/quotations/purchase-lock.ts';
import {
  passengerDetailBodySchema,
  passengerDetailRowSchema,
  passengersBodySchema,
  passengersSchema,
} from './schemas.ts';
import * as passengers from './service.ts';

const tags = ['passengers'];
const noContent = z.null().describe('Saved');
const rulesNote =
  "The server checks every rule (spec §9): as many travellers as the quotation's passengers; each one's age on the " +
  'departure date in a passenger type of the company, those types being the quoted ones; RUT check digit, DNI form, ' +
  "e-mail, phone; the destination country in the quotation's region. Once the sale is paid nothing can change (400). " +
  'Answers 400 «Invalid inputs supplied» with one { field, message } (Spanish) per problem; nothing is written then.';

/** `lockPurchase`: the purchase lock, handed in by the purchase workflow (app.ts). */
export async function passengerRoutes(fastify: FastifyInstance, options: { lockPurchase: LockPurchase }) {
  const app = typed(fastify);
  const { db } = fastify;
  const config = { invalidInputDetail: errorMessages.invalidInputs };

  app.put(
    '/quotations/:quotationId/passangers',
    {
      config,
      schema: {
        tags,
        description: `Replaces the travellers of a quotation and its emergency contact and destination country. ${rulesNote}`,
        params: quotationIdParams,
        body: passengersBodySchema,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await passengers.savePassengers(db, options.lockPurchase, request.params.quotationId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/quotations/:quotationId/passangers',
    {
      config,
      schema: {
        tags,
        description: 'The saved travellers (404 until they are saved), each with its passenger type and order',
        params: quotationIdParams,
        response: { 200: passengersSchema, ...errorResponses },
      },
    },
    (request) => passengers.getPassengers(db, request.params.quotationId),
  );

  app.put(
    '/quotations/:quotationId/passangers-detail',
    {
      config,
      schema: {
        tags,
        description:
          'The same write in the legacy row shape: one row per traveller, each with its own emergency contact ' +
          `(never shared) and the destination country (idCountry, the same on every row). ${rulesNote}`,
        params: quotationIdParams,
        body: passengerDetailBodySchema,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await passengers.savePassengerDetail(db, options.lockPurchase, request.params.quotationId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/quotations/:quotationId/passangers-detail',
    {
      config,
      schema: {
        tags,
        description: 'The saved travellers as legacy rows, in seq order (an empty list until they are saved)',
        params: quotationIdParams,
        response: { 200: z.array(passengerDetailRowSchema), ...errorResponses },
      },
    },
    (request) => passengers.getPassengerDetail(db, request.params.quotationId),
  );
}
