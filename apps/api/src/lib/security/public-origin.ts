import type { FastifyRequest } from 'fastify';
import type { Config } from '#app/config.ts';
import { chooseOrigin } from './origins.ts';

/**
 * The store's public origin for an absolute URL made while answering `request` (gateway return URLs, canonical
 * links): PUBLIC_URL; without it (development) the request's Host when ALLOWED_HOSTS lists it (forwarded host and
 * protocol only from a TRUST_PROXY peer); otherwise http://localhost:${PORT}. Nothing a visitor sends can make it
 * another site (docs/decisions/006-absolute-urls-from-configuration.md).
 */
export function publicBaseUrl(request: FastifyRequest, config: Config): string {
  const fallback = `http://localhost:${config.port}`;
  const chosen = chooseOrigin(
    { host: request.host, protocol: request.protocol },
    { publicUrl: config.publicUrl, allowedHosts: config.allowedHosts, fallback },
  );
  if (!config.publicUrl && !chosen.fromRequest) {
    request.log.warn(`Host not in ALLOWED_HOSTS: absolute URLs use ${fallback} (set PUBLIC_URL or ALLOWED_HOSTS)`);
  }
  return chosen.origin;
}
