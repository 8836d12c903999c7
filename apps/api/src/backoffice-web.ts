import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { Config } from './config.ts';
import { errorBody } from './errors.ts';
import { registerCompression } from './lib/http/compression.ts';
import { cspNonce } from './lib/http/security-headers.ts';
import { inNetworks } from './lib/security/networks.ts';
import {
  fetchRequestOf,
  immutableCacheControl,
  inProcessFetch,
  registerPageBodies,
  sendFetchResponse,
  staticCacheControl,
} from './web.ts';

/** Where the operator console answers (apps/backoffice's react-router.config.ts basename and vite base). */
export const backofficeBase = '/backoffice';

/** What the console's loaders receive (apps/backoffice/app/lib/api.server.ts): the API in-process, and the nonce. */
export type BackofficeLoadContext = { apiFetch: typeof fetch; cspNonce: string };

export function backofficeBuildExists(buildDir: string): boolean {
  return existsSync(join(buildDir, 'server', 'index.js'));
}

/**
 * The console's own Content-Security-Policy, stricter than the storefront's (lib/http/security-headers.ts): its
 * scripts by this answer's nonce only, nothing from another origin (no marketing snippets, no reCAPTCHA, no fonts
 * or images of other hosts), never framed. `data:` images: the enrolment page's QR. `frame-src 'self'`: a claim's PDF
 * in its sandboxed viewer (the claims screen), served by the console's API on this origin under its own
 * `sandbox` policy.
 */
export function backofficeContentSecurityPolicy(nonce: string, production: boolean): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "script-src-attr 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    ...(production ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** Said on every answer under /backoffice (pages and files): not for search engines, not for any frame. */
function setConsoleHeaders(response: ServerResponse, production: boolean): void {
  response.setHeader('content-security-policy', backofficeContentSecurityPolicy(cspNonce(response), production));
  response.setHeader('x-robots-tag', 'noindex, nofollow');
  response.setHeader('x-frame-options', 'DENY');
  // Console paths hold enrolment tokens and ids: no other site ever learns them from a Referer. Not `no-referrer`:
  // under it browsers send `Origin: null` with a form's post, which the Origin checks (React Router's, the API's)
  // rightly refuse.
  response.setHeader('referrer-policy', 'same-origin');
  // Pages show personal data: never kept by a browser or a proxy (the hashed files say otherwise where served).
  response.setHeader('cache-control', 'no-store');
}

/** A Host without the default port of its scheme, lower-cased, to compare with BACKOFFICE_ORIGIN's. */
function hostOf(host: string, protocol: string): string {
  const lower = host.toLowerCase();
  if (protocol === 'https' && lower.endsWith(':443')) return lower.slice(0, -4);
  if (protocol === 'http' && lower.endsWith(':80')) return lower.slice(0, -3);
  return lower;
}

/**
 * Whether the console answers this request: on BACKOFFICE_ORIGIN's host when set, from BACKOFFICE_ALLOWED_NETWORKS
 * when set (the client's address as TRUST_PROXY lets Fastify read it). Anything else is told the page does not exist.
 */
export function consoleAnswers(
  request: FastifyRequest,
  access: Pick<Config['backoffice'], 'origin' | 'allowedNetworks'>,
): boolean {
  if (access.origin) {
    const expected = new URL(access.origin);
    if (hostOf(request.host, request.protocol) !== hostOf(expected.host, expected.protocol.slice(0, -1))) return false;
  }
  if (access.allowedNetworks.length > 0 && !inNetworks(request.ip, access.allowedNetworks)) return false;
  return true;
}

/**
 * Serves the built operator console (apps/backoffice/build) under /backoffice, as mountStorefront (web.ts) serves the
 * storefront: its hashed files with a year of cache, every other path rendered by React Router with an in-process
 * fetch to the API in the load context. Its own headers (setConsoleHeaders) replace the storefront's policy; no
 * cookie, bundle or script of the storefront is involved.
 */
export async function mountBackoffice(app: FastifyInstance, buildDir: string): Promise<void> {
  const build = (await import(pathToFileURL(join(buildDir, 'server', 'index.js')).href)) as ServerBuild;
  await mountConsolePages(app, createRequestHandler(build, 'production'), join(buildDir, 'client'));
}

/** What renders a console page: React Router's request handler (mountBackoffice), given the page's load context. */
export type ConsolePageHandler = (request: Request, context: BackofficeLoadContext) => Promise<Response>;

/** The console's pages under /backoffice rendered by `handleRequest`, and the files of `clientDir` when given. */
export async function mountConsolePages(
  app: FastifyInstance,
  handleRequest: ConsolePageHandler,
  clientDir?: string,
): Promise<void> {
  const production = app.config.deployment === 'production';

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!consoleAnswers(request, app.config.backoffice)) {
        return reply
          .code(404)
          .send(errorBody(404, errorMessages.resourceNotFound, request.url.split('?')[0] ?? backofficeBase));
      }
      setConsoleHeaders(reply.raw, production);
    });
    if (clientDir) await registerConsoleFiles(scope, clientDir);
    await scope.register(async (pages) => {
      await registerCompression(pages, { flushEachChunk: true });
      registerPageBodies(pages);
      const servePage = async (request: FastifyRequest, reply: Parameters<typeof sendFetchResponse>[0]) => {
        const forwardedFor = request.headers['x-forwarded-for'];
        const context: BackofficeLoadContext = {
          apiFetch: inProcessFetch(
            app,
            request.raw.socket.remoteAddress,
            Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor,
            request.id,
          ),
          cspNonce: cspNonce(reply.raw),
        };
        return sendFetchResponse(reply, await handleRequest(fetchRequestOf(request, reply), context));
      };
      pages.all(backofficeBase, { schema: { hide: true } }, servePage);
      pages.all(`${backofficeBase}/*`, { schema: { hide: true } }, servePage);
    });
  });
}

/** The console's hashed assets (a year of cache) and its other files (an hour), under /backoffice/, precompressed. */
async function registerConsoleFiles(scope: FastifyInstance, clientDir: string): Promise<void> {
  await scope.register(fastifyStatic, {
    root: clientDir,
    prefix: `${backofficeBase}/`,
    wildcard: false,
    index: false,
    decorateReply: false,
    // The .br/.gz copies the build wrote (apps/web/scripts/precompress.mjs) are sent in place of their file.
    globIgnore: ['**/*.br', '**/*.gz'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const hashed = path.startsWith(join(clientDir, 'assets'));
      reply.header('cache-control', hashed ? immutableCacheControl : staticCacheControl);
    },
  });
}
