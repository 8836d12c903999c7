import { timingSafeEqual } from 'node:crypto';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '#app/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The live operator API key a Bearer secret names, or undefined (modules/operators; app.ts decorates it). The
     * admin API takes a key with role `admin` or `finance` besides the deprecated ADMIN_TOKEN.
     */
    apiKeyOf: (secret: string) => Promise<{ id: string; name: string; roles: readonly string[] } | undefined>;
  }
  interface FastifyRequest {
    /**
     * The audit actor of an admin API request made with an operator API key (set by `adminOnly`); undefined with the
     * deprecated ADMIN_TOKEN, which names nobody. State-changing admin routes write their audit row as it.
     */
    adminApiKeyActor?: AdminApiKeyActor;
  }
}

/** An admin API caller by API key, as the audit trail names it (the console's guard names keys the same way). */
export type AdminApiKeyActor = { apiKeyId: string; label: string; ip: string | null };

/** Constant-time comparison of the admin token; false when none is configured. */
export function isAdminToken(configured: string | undefined, given: string | undefined): boolean {
  if (!configured || !given) return false;
  const a = Buffer.from(configured);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The operator roles that may call the admin API with an API key (refunds, claims, cache, metrics). */
export const adminApiRoles = ['admin', 'finance'] as const;

/**
 * The admin API's guard (`Authorization: Bearer <API key or ADMIN_TOKEN>`), as an onRequest hook: before the body is
 * read or validated, so without a valid credential every request answers the catch-all 404 and nothing tells a
 * stranger the route exists. An operator API key (issue 24) with role admin or finance is accepted; ADMIN_TOKEN is
 * deprecated (a start-up warning) and the admin API is off without either.
 */
export function adminOnly(adminToken: string | undefined) {
  return async (request: FastifyRequest) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (isAdminToken(adminToken, given)) return;
    const key = given ? await request.server.apiKeyOf(given) : undefined;
    if (key?.roles.some((role) => (adminApiRoles as readonly string[]).includes(role))) {
      request.adminApiKeyActor = { apiKeyId: key.id, label: `api-key:${key.name}`, ip: request.ip };
      return;
    }
    throw new ApiError(404, errorMessages.resourceNotFound);
  };
}
