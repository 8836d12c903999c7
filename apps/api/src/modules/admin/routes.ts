import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { adminOnly } from '#app/lib/security/admin-token.ts';
import { recordAudit } from '../audit/service.ts';

/**
 * The operator's routes that belong to no business module, behind ADMIN_TOKEN: the read cache's invalidation hook
 * over HTTP, after changing the catalogue in the database, without waiting.
 */
export async function adminRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.post(
    '/admin/cache/invalidate',
    {
      onRequest: adminOnly(fastify.config.refunds.adminToken),
      schema: {
        tags: ['admin'],
        description:
          'Clears the read cache of catalogue data (company, navigation bar, footer, website parameters, catalogue, content pages) on this instance and, when REDIS_URL is set, on every instance (Authorization: Bearer ADMIN_TOKEN). `scope` clears only the keys starting with it (e.g. `document:1:`). broadcast: whether the other instances were told. Without ADMIN_TOKEN configured, or with another token, 404.',
        querystring: z.object({ scope: z.string().min(1).max(100).optional() }),
        response: { 200: z.object({ broadcast: z.boolean() }), ...errorResponses },
      },
    },
    async (request) => {
      const result = await fastify.invalidateReadCache(request.query.scope);
      request.log.info({ scope: request.query.scope ?? null, ...result }, 'read cache invalidated');
      // A call by API key leaves its audit row (ADMIN_TOKEN names nobody: deprecated, not audited); after the
      // change, which is no database write a transaction could hold.
      const actor = request.adminApiKeyActor;
      if (actor) {
        await recordAudit(
          fastify.db,
          actor,
          {
            action: 'cache.invalidate',
            targetType: 'read_cache',
            targetId: request.query.scope ?? null,
            before: null,
            after: { scope: request.query.scope ?? null, ...result },
          },
          fastify.clock(),
        );
      }
      return result;
    },
  );
}
