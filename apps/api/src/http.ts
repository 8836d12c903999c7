import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
  }
  interface FastifyContextConfig {
    /** The §8 message answered with a 400 when this route's input fails validation. */
    invalidInputDetail?: string;
    /** The route streams its multipart body itself (the refund pages' documents): the pages' body limit is not its. */
    streamsUploads?: boolean;
  }
}

/** Route schemas are zod schemas: typed handlers, and the OpenAPI document from the same source. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}

export type { FastifyReply, FastifyRequest };

/** Path ids are positive integers; anything else is a company that does not exist (see the error handler). */
export const companyParams = z.object({ companyId: z.coerce.number().int().positive() });

/** A row id as clients send it: a positive integer that fits PostgreSQL's integer column. */
export const dbId = z.number().int().positive().max(2_147_483_647);
/** A path's `:id` naming a row by its integer id. */
export const idParams = z.object({ id: z.coerce.number().pipe(dbId) });

/** A quotation id in a path: a UUID (decision 004). */
export const quotationIdMessage = 'Identificador de cotización inválido';
export const quotationIdParams = z.object({ quotationId: z.uuid({ error: quotationIdMessage }) });
