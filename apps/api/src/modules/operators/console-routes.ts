import type { FastifyRequest } from 'fastify';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import type { Caller } from './guard.ts';

/**
 * What every console route file shares (operators/routes.ts and each screen's `console-routes.ts`, listed in
 * screens.ts): the error statuses of its schemas and the caller the guard found.
 */

/** The console's API answers its errors in the §8 body, with these statuses besides the usual ones. */
export const consoleErrors = {
  ...errorResponses,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/** The caller of a route whose access is a session (the guard answered 401 otherwise). */
export function sessionOf(request: FastifyRequest) {
  const caller = request.backofficeCaller;
  if (caller?.kind !== 'session') throw new Error('The console guard let a request without a session through');
  return caller.signedIn;
}

/** The audit actor of a route reserved to roles (a session or an API key). */
export function actorOf(request: FastifyRequest) {
  const caller = request.backofficeCaller as Exclude<Caller, { kind: 'public' }> | null;
  if (!caller || !('actor' in caller)) throw new Error('The console guard let a request without a caller through');
  return caller.actor;
}

/** How many rows a console list answers at once. */
export const consolePageSize = 50;

/**
 * One page of a list read by keyset on the id, newest first: `read` is asked for one row more than a page (rows older
 * than the cursor's id), so whether a next page exists is known without counting. Answers the page and the cursor of
 * the next one (the last id shown), or null.
 */
export async function keysetPage<Row extends { id: number }>(
  cursor: string | undefined,
  read: (afterId: number | undefined, limit: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const found = await read(cursor ? Number(cursor) : undefined, consolePageSize + 1);
  const rows = found.slice(0, consolePageSize);
  return { rows, nextCursor: found.length > consolePageSize ? String(rows.at(-1)?.id) : null };
}

/** The roles of the caller the guard let through (an operator's, or an API key's). */
export function rolesOf(request: FastifyRequest): readonly string[] {
  const caller = request.backofficeCaller;
  if (caller?.kind === 'session') return caller.signedIn.operator.roles;
  if (caller?.kind === 'api-key') return caller.apiKey.roles;
  return [];
}
