import { timingSafeEqual } from 'node:crypto';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '#app/errors.ts';

/** Constant-time comparison of the admin token; false when none is configured. */
export function isAdminToken(configured: string | undefined, given: string | undefined): boolean {
  if (!configured || !given) return false;
  const a = Buffer.from(configured);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The admin API's guard (`Authorization: Bearer ADMIN_TOKEN`), as an onRequest hook: before the body is read or
 * validated, so without the token every request answers the catch-all 404 and nothing tells a stranger the route
 * exists. Without ADMIN_TOKEN configured the admin API is off.
 */
export function adminOnly(adminToken: string | undefined) {
  return async (request: FastifyRequest) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!isAdminToken(adminToken, given)) throw new ApiError(404, errorMessages.resourceNotFound);
  };
}
