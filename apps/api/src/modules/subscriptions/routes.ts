import { errorMessages } from '@travesia/domain/messages';
import { newsletterSchema } from '@travesia/domain/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses, resourceNotFound } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { confirmSubscription, subscribe } from './service.ts';

export async function subscriptionRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.post(
    '/companies/:companyId/subscriptions',
    {
      config: {
        invalidInputDetail: errorMessages.invalidInputParameters,
        rateLimit: fastify.config.rateLimits.formSubmit,
      },
      schema: {
        tags: ['subscriptions'],
        description:
          'Newsletter subscription (spec §5: e-mail required, valid, at most 50 characters). Double opt-in: the address is stored pending and e-mailed a confirmation link (at most one e-mail an hour per address); it is a subscriber once confirmed. 204 whatever the address was before.',
        params: companyParams,
        body: newsletterSchema,
        response: { 204: z.null().describe('Subscribed'), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await subscribe(db, request.params.companyId, request.body.email);
      request.log.info({ companyId: request.params.companyId }, 'newsletter subscription stored (pending)');
      fastify.work.emit('jobQueued');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/companies/:companyId/subscriptions/confirmation',
    {
      config: {
        invalidInputDetail: errorMessages.invalidInputParameters,
        rateLimit: fastify.config.rateLimits.lookup,
      },
      schema: {
        tags: ['subscriptions'],
        description:
          "Confirms a pending newsletter subscription with the token of its e-mailed link (the storefront's /suscripcion/confirmar?token= calls it). A confirmed one answers 204 again; an unknown or expired token is 404.",
        params: companyParams,
        body: z.object({ token: z.string().min(1).max(100) }),
        response: { 204: z.null().describe('Confirmed'), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (!(await confirmSubscription(db, request.params.companyId, request.body.token))) throw resourceNotFound();
      request.log.info({ companyId: request.params.companyId }, 'newsletter subscription confirmed');
      return reply.code(204).send(null);
    },
  );
}
