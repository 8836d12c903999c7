import { errorMessages } from '@travesia/domain/messages';
import { newsletterSchema } from '@travesia/domain/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { subscribe } from './service.ts';

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
        description: 'Newsletter subscription (spec §5: e-mail required, valid, at most 50 characters)',
        params: companyParams,
        body: newsletterSchema,
        response: { 204: z.null().describe('Subscribed'), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await subscribe(db, request.params.companyId, request.body.email);
      request.log.info({ companyId: request.params.companyId }, 'newsletter subscription stored');
      return reply.code(204).send(null);
    },
  );
}
