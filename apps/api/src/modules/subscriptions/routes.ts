import { errorMessages } from '@travesia/domain/messages';
import { newsletterSchema } from '@travesia/domain/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses, resourceNotFound } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { confirmSubscription, subscribe, unsubscribeByLink } from './service.ts';

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

  /**
   * A POST that acts on the token of an e-mailed link (body `{ token }`): 204 when `act` answers true, else 404.
   * Rate-limited as a look-up: a token cannot be guessed by trying.
   */
  const linkTokenRoute = (
    path: string,
    described: { description: string; outcome: string; logged: string },
    act: (companyId: number, token: string) => Promise<boolean>,
  ) =>
    app.post(
      path,
      {
        config: {
          invalidInputDetail: errorMessages.invalidInputParameters,
          rateLimit: fastify.config.rateLimits.lookup,
        },
        schema: {
          tags: ['subscriptions'],
          description: described.description,
          params: companyParams,
          body: z.object({ token: z.string().min(1).max(100) }),
          response: { 204: z.null().describe(described.outcome), ...errorResponses, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        if (!(await act(request.params.companyId, request.body.token))) throw resourceNotFound();
        request.log.info({ companyId: request.params.companyId }, described.logged);
        return reply.code(204).send(null);
      },
    );

  linkTokenRoute(
    '/companies/:companyId/subscriptions/confirmation',
    {
      description:
        "Confirms a pending newsletter subscription with the token of its e-mailed link (the storefront's /suscripcion/confirmar?token= calls it). A confirmed one answers 204 again; an unknown or expired token is 404.",
      outcome: 'Confirmed',
      logged: 'newsletter subscription confirmed',
    },
    (companyId, token) => confirmSubscription(db, companyId, token),
  );

  linkTokenRoute(
    '/companies/:companyId/subscriptions/unsubscribe',
    {
      description:
        "Unsubscribes the address of a signed unsubscribe link (the storefront's /suscripcion/baja?token= calls it, from its button or from a mail client's one-click post, RFC 8058). 204 also when the address had already left; a token the store did not sign is 404.",
      outcome: 'Unsubscribed',
      logged: 'newsletter subscription ended by its link',
    },
    (_companyId, token) => unsubscribeByLink(db, fastify.config.purchases.linkSecret, token),
  );
}
