import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';

const tags = ['health'];
const statusSchema = z.object({ status: z.literal('ok') });

/**
 * What a load balancer asks (README: several instances): `/health` says the process answers (restart it if not);
 * `/ready` also reaches the database, so an instance that cannot serve is taken out of rotation with the §8 503
 * (and `Retry-After`) while the database is away, and put back when it answers again.
 */
export async function healthRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/health',
    {
      schema: {
        tags,
        description: 'Liveness: 200 while the process answers requests. It does not touch the database.',
        response: { 200: statusSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags,
        description:
          'Readiness: 200 when the database answers a query; otherwise 503 with the error body and Retry-After.',
        response: { 200: statusSchema, ...errorResponses },
      },
    },
    async () => {
      await db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );
}
