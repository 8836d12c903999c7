import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { FieldError } from './errors.ts';
import {
  batchedReads,
  type CachedPage,
  compressedBodies,
  createPageCache,
  hashPolicy,
  keepableAnswer,
  pageCacheKey,
  pageEncoding,
  storablePage,
} from './lib/cache/page-cache.ts';
import { registerCompression } from './lib/http/compression.ts';
import { cspNonce } from './lib/http/security-headers.ts';
import { loggableError } from './lib/loggable-error.ts';
import {
  discardUploads,
  isMultipartPost,
  multipartLimits,
  receiveMultipart,
  recordUploads,
  uploadAdmission,
} from './modules/claims/uploads.ts';
import { quotationPageStamp } from './modules/quotations/service.ts';
import { requestIdHeader } from './observability/request-id.ts';
import { signalCache } from './observability/signals.ts';

/** What the storefront's loaders receive: a fetch that reaches this API in-process (no loopback hop). */
export type StorefrontLoadContext = {
  apiFetch: typeof fetch;
  /** The nonce of this page's Content-Security-Policy, for the inline scripts React Router renders (entry.server). */
  cspNonce: string;
  /**
   * The documents of a refund page's multipart post, already streamed to the document store by the route in front
   * of the page (refundPagePaths): their upload tokens and the problems found, or why none were read (the caps).
   * Set only by the server, never from the visitor's body, so the action may trust it.
   */
  refundUploads?: RefundPageUploads;
};

export type RefundPageUploads =
  | { tokens: string[]; errors: FieldError[]; fileCount: number }
  | { refused: { status: number; message: string; retryAfterSeconds: number } };

/**
 * The largest body a storefront form may post through its page's action, which React Router reads whole into memory:
 * anything larger is refused before it is read. Documents never come this way: the refund pages' multipart posts are
 * streamed by a route of their own (refundPagePaths), so no form needs more than its text fields.
 */
export const storefrontBodyLimitBytes = 256 * 1024;

/**
 * The pages whose forms carry documents (the refund claim, the missing documents of its tracking), and the paths of
 * their actions as React Router's single fetch posts them with JavaScript (`.data`). A multipart post to one of them
 * is streamed here: files to the document store as they arrive (checked as they pass), fields collected; the page's
 * action then gets the fields as a small form and the tokens through its load context.
 */
export const refundPagePaths = [
  '/reembolsos',
  '/reembolsos.data',
  '/reembolsos/seguimiento',
  '/reembolsos/seguimiento.data',
] as const;

export function storefrontBuildExists(buildDir: string): boolean {
  return existsSync(join(buildDir, 'server', 'index.js'));
}

/**
 * Which build of React this process loaded, as Node loaded it (React picks it from NODE_ENV when first imported;
 * `npm start` sets production, apps/api/src/start.ts): 'production', 'development', or null before it is loaded.
 */
export function reactBuildInUse(): 'production' | 'development' | null {
  const cache = createRequire(import.meta.url).cache;
  // Node also lists the branch React did not take (read for its export names, never run): only a run module counts.
  const react = Object.keys(cache).find(
    (path) => /[\\/]react[\\/]cjs[\\/]react\.(production|development)\.js$/.test(path) && cache[path]?.loaded,
  );
  if (!react) return null;
  return react.endsWith('.production.js') ? 'production' : 'development';
}

/** Vite names every file under build/client/assets by its content's hash: a changed file is a new URL. */
export const immutableCacheControl = 'public, max-age=31536000, immutable';
/** The rest of build/client (the favicon, images under img/) keeps its name across releases: an hour. */
export const staticCacheControl = 'public, max-age=3600';

/**
 * Serves the built React Router app next to the API: hashed assets from build/client with a year of cache (and the
 * .br/.gz the build wrote beside them, as Accept-Encoding asks), everything else rendered on the server, compressed
 * as it streams.
 */
export async function mountStorefront(app: FastifyInstance, buildDir: string): Promise<void> {
  const build = (await import(pathToFileURL(join(buildDir, 'server', 'index.js')).href)) as ServerBuild;
  await mountPages(app, createRequestHandler(build, 'production'), join(buildDir, 'client'));
}

/** What renders a page: React Router's request handler (mountStorefront), given the page's load context. */
export type PageHandler = (request: Request, context: StorefrontLoadContext) => Promise<Response>;

/**
 * The pages (every path the API and the static files leave) rendered by `handleRequest`, home, the FAQ and the
 * comparator kept whole for a few seconds (lib/cache/page-cache.ts), and the files of `clientDir` when given.
 */
export async function mountPages(app: FastifyInstance, handleRequest: PageHandler, clientDir?: string): Promise<void> {
  const pageCache = createPageCache(app.config.catalogCacheTtlMs);
  const quotationStamp = batchedReads((quotationId) => quotationPageStamp(app.db, app.config.companyId, quotationId));
  // The read cache's clears are the invalidation hook's (this instance, and every instance through Redis).
  const stopListening = app.readCache.onClear(() => pageCache.clear());
  app.addHook('onClose', async () => stopListening());

  /**
   * Renders a page that may be kept (one render of `key` at a time: pageCache.pending) and keeps it when it is the
   * same for everyone: the page kept, or the render, to send as it is, when it is not.
   */
  const renderToKeep = async (
    key: string,
    stamp: string | undefined,
    renderedIn: number,
    render: () => Promise<Response>,
    nonce: string,
    apiFailed: () => boolean,
  ): Promise<CachedPage | Response> => {
    const done = pageCache.rendering(key);
    let page: CachedPage | undefined;
    try {
      const response = await render();
      // A loader that met an API failure renders what it can (an empty list, a notice): right for this visitor, not
      // a page to show everyone else for the next seconds.
      if (!keepableAnswer(response) || apiFailed()) return response;
      const html = await response.text();
      const storable = storablePage(html, nonce);
      if (!storable) return new Response(html, response);
      const headers = [...response.headers].filter(([name]) => !unkeptHeaders.has(name));
      page = pageCache.set(
        key,
        { headers, bodies: await compressedBodies(storable.html), scriptHashes: storable.scriptHashes, stamp },
        renderedIn,
      );
      return page;
    } finally {
      done(page);
    }
  };

  await app.register(async (web) => {
    if (clientDir) await registerStaticFiles(web, clientDir);
    await web.register(async (pages) => {
      // Flushed chunk by chunk, so a page still streams as React writes it.
      await registerCompression(pages, { flushEachChunk: true });
      registerPageBodies(pages);
      /**
       * Renders the page of `request` (kept whole when it may be: lib/cache/page-cache.ts). `form`: the body the page's
       * action reads instead of the visitor's (a streamed post's text fields), with what the load context adds.
       */
      const servePage = async (
        request: FastifyRequest,
        reply: FastifyReply,
        streamed?: { form: URLSearchParams; refundUploads: RefundPageUploads },
      ) => {
        const client = request.raw.socket.remoteAddress;
        // The API sees the page's own peer and the page's X-Forwarded-For, so it believes forwarded headers exactly
        // when it would for the page: behind a trusted proxy each visitor is counted as itself by the rate limits.
        const forwardedFor = request.headers['x-forwarded-for'];
        const nonce = cspNonce(reply.raw);
        const apiFor = () =>
          noticingFailures(
            inProcessFetch(
              app,
              client,
              Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor,
              request.id,
            ),
          );
        const api = apiFor();
        const context: StorefrontLoadContext = {
          apiFetch: api.fetch,
          cspNonce: nonce,
          ...(streamed ? { refundUploads: streamed.refundUploads } : {}),
        };
        const render = () =>
          handleRequest(fetchRequestOf(request, reply, streamed ? { form: streamed.form } : {}), context);
        const cacheKey = pageCache.enabled
          ? pageCacheKey(request.raw.method, request.raw.url, request.headers.cookie)
          : undefined;
        if (!cacheKey || streamed) return sendFetchResponse(reply, await render());

        // Read before the render: a clear or a write to the quotation while it renders leaves the page stale-marked.
        const renderedIn = pageCache.generation();
        let stamp: string | undefined;
        if (cacheKey.quotationId !== undefined) {
          stamp = await quotationStamp(cacheKey.quotationId);
          if (stamp === undefined) return sendFetchResponse(reply, await render());
        }
        const found = pageCache.get(cacheKey.key, stamp);
        signalCache('page', found !== undefined);
        if (found) {
          // Past its lifetime: this visitor gets it still, and one render replaces it in the background.
          if (!found.fresh && !pageCache.pending(cacheKey.key)) {
            const backgroundApi = apiFor();
            const background: StorefrontLoadContext = {
              apiFetch: backgroundApi.fetch,
              cspNonce: randomBytes(16).toString('base64'),
            };
            const refresh = () =>
              handleRequest(fetchRequestOf(request, reply, { abortWithVisitor: false }), background);
            renderToKeep(cacheKey.key, stamp, renderedIn, refresh, background.cspNonce, backgroundApi.failed)
              .then((result) => (result instanceof Response ? result.body?.cancel() : undefined))
              .catch((error: unknown) => {
                const { type, code, stack } = loggableError(error);
                request.log.warn({ errorType: type, code, stack }, 'kept page not rendered again');
              });
          }
          return sendKeptPage(request, reply, found.page, nonce);
        }
        const pending = pageCache.pending(cacheKey.key);
        const shared = pending && (await pending);
        if (shared && shared.stamp === stamp) return sendKeptPage(request, reply, shared, nonce);

        const result = await renderToKeep(cacheKey.key, stamp, renderedIn, render, nonce, api.failed);
        if (result instanceof Response) return sendFetchResponse(reply, result);
        return sendKeptPage(request, reply, result, nonce);
      };

      // The refund pages' document forms, streamed (refundPagePaths); any other post to them goes to the page as is.
      await pages.register(async (uploads) => {
        await uploads.register(fastifyMultipart, { limits: multipartLimits, throwFileSizeLimit: false });
        const refusedPage = async (
          request: FastifyRequest,
          reply: FastifyReply,
          refusal: { status: number; message: string },
        ) => {
          // Nothing of the body is read: the connection ends with the answer rather than carry the rest.
          reply.header('connection', 'close');
          const refused = { ...refusal, retryAfterSeconds: refusal.status === 413 ? 0 : 5 };
          return servePage(request, reply, { form: new URLSearchParams(), refundUploads: { refused } });
        };
        const admission = uploadAdmission(app.uploadGate, refusedPage);
        for (const path of refundPagePaths) {
          uploads.post(
            path,
            {
              schema: { hide: true },
              config: { streamsUploads: true },
              onRequest: async (request, reply) => {
                if (!isMultipartPost(request)) return;
                return admission(request, reply);
              },
            },
            async (request, reply) => {
              if (!isMultipartPost(request)) return servePage(request, reply);
              const received = await receiveMultipart(request, app.documentStore, { collectFields: true });
              const form = new URLSearchParams();
              for (const [name, values] of received.fields) for (const value of values) form.append(name, value);
              const uploaded = await recordUploads(
                app.db,
                app.config.companyId,
                received.documents,
                app.config.uploads.tokenTtlMs,
              );
              const tokens = uploaded.map((upload) => upload.token);
              try {
                return await servePage(request, reply, {
                  form,
                  refundUploads: { tokens, errors: received.errors, fileCount: received.fileCount },
                });
              } finally {
                // The action has run: whatever its claim did not take (a refused claim) is not kept.
                await discardUploads(app.db, app.documentStore, tokens).catch((error: unknown) => {
                  request.log.warn({ error: loggableError(error) }, 'unclaimed page uploads not discarded');
                });
              }
            },
          );
        }
      });

      pages.all('/*', { schema: { hide: true } }, async (request, reply) => servePage(request, reply));
    });
  });
}

/**
 * The bodies of a scope of pages (the storefront's, the console's: backoffice-web.ts), which React Router reads whole
 * in the page's action: one larger than any form needs, or of unknown length (browsers always send Content-Length
 * for a form), is refused before a byte of it is read, and the rest is left unparsed for React Router.
 */
export function registerPageBodies(pages: FastifyInstance): void {
  pages.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    // The refund pages' multipart posts are streamed (their own limits: uploadAdmission).
    if (request.routeOptions.config.streamsUploads && isMultipartPost(request)) return;
    const declared = request.headers['content-length'];
    if (declared === undefined) {
      if (request.headers['transfer-encoding'] === undefined) return;
      return reply.code(411).type('text/plain; charset=utf-8').send('La solicitud debe indicar su tamaño.');
    }
    if (Number(declared) > storefrontBodyLimitBytes) {
      return reply.code(413).type('text/plain; charset=utf-8').send('La solicitud es demasiado grande.');
    }
  });
  // React Router reads the request body itself (form actions), so this scope leaves the stream untouched.
  pages.removeAllContentTypeParsers();
  pages.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

/** The hashed assets and the other files of build/client, with their cache lifetimes. */
async function registerStaticFiles(web: FastifyInstance, clientDir: string): Promise<void> {
  await web.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    // The compressed copies are served in place of their file, never under their own names.
    globIgnore: ['**/*.br', '**/*.gz'],
    preCompressed: true,
    // Our Cache-Control only (send's own would be `public, max-age=0`).
    cacheControl: false,
    setHeaders(reply, path) {
      const hashed = relative(clientDir, path).startsWith(`assets${sep}`);
      reply.header('cache-control', hashed ? immutableCacheControl : staticCacheControl);
      // Logos and images are shown by e-mail clients and partner sites too (lib/http/security-headers.ts).
      reply.header('cross-origin-resource-policy', 'cross-origin');
    },
  });
}

/** Headers of a render that a kept page does not repeat (its own length and encoding are set when it is sent). */
const unkeptHeaders = new Set(['set-cookie', 'content-length', 'content-encoding', 'transfer-encoding']);

/**
 * A kept page: its bytes in the encoding the client prefers, and this answer's Content-Security-Policy (helmet's,
 * with its fresh nonce) turned into the page's hash-based one.
 */
function sendKeptPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage, nonce: string): FastifyReply {
  for (const [name, value] of page.headers) reply.header(name, value);
  const policy = reply.raw.getHeader('content-security-policy');
  if (typeof policy === 'string') reply.header('content-security-policy', hashPolicy(policy, nonce, page.scriptHashes));
  const encoding = pageEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.code(200).send(page.bodies[encoding]);
}

/**
 * The visitor's request as the Fetch API `Request` React Router handles, built as its own Node adapter builds it
 * (@react-router/node's request listener): the URL from the Host header (React Router only reads its path and
 * query; absolute URLs come from configuration, lib/security/origins.ts), the body streamed as it arrives, aborted when the
 * visitor goes away.
 */
export function fetchRequestOf(
  request: FastifyRequest,
  reply: FastifyReply,
  { abortWithVisitor = true, form }: { abortWithVisitor?: boolean; form?: URLSearchParams } = {},
): Request {
  const raw = request.raw;
  const controller = new AbortController();
  // A kept page rendered again in the background finishes whether or not its visitor stays.
  if (abortWithVisitor) reply.raw.on('close', () => controller.abort());
  const headers = new Headers();
  for (let index = 0; index < raw.rawHeaders.length; index += 2) {
    headers.append(raw.rawHeaders[index] as string, raw.rawHeaders[index + 1] as string);
  }
  const protocol = 'encrypted' in raw.socket && raw.socket.encrypted ? 'https:' : 'http:';
  let url: URL;
  try {
    url = new URL(raw.url ?? '/', `${protocol}//${headers.get('host') ?? 'localhost'}`);
  } catch {
    url = new URL(raw.url ?? '/', `${protocol}//localhost`);
  }
  const method = raw.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  if (form) {
    // The visitor's body was read already (streamed): the action reads these fields instead.
    headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    return new Request(url, { method, headers, signal: controller.signal, body: form });
  }
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(raw) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * React Router's answer through Fastify (not written to the socket behind its back), so the compression hook sees
 * it: status, every header (each Set-Cookie on its own), and the body as a stream.
 */
export function sendFetchResponse(reply: FastifyReply, response: Response): FastifyReply {
  reply.code(response.status);
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') reply.header(name, value);
  }
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (response.body === null) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>));
}

/**
 * A fetch whose requests are answered by `app.inject`, so server-side rendering calls the API without a socket.
 * `remoteAddress` is the address of the peer whose page is being rendered (TRUST_PROXY is checked against it), and
 * `forwardedFor` that page's X-Forwarded-For (believed by the API only from a trusted peer, as for the page).
 */
/**
 * `fetcher`, remembering whether any answer was a failure (5xx, 429) or never came: a render that met one is not kept
 * for other visitors (lib/cache/page-cache.ts).
 */
export function noticingFailures(fetcher: typeof fetch): { fetch: typeof fetch; failed: () => boolean } {
  let failed = false;
  const watched: typeof fetch = async (input, init) => {
    try {
      const answer = await fetcher(input, init);
      if (answer.status >= 500 || answer.status === 429) failed = true;
      return answer;
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  return { fetch: watched, failed: () => failed };
}

export function inProcessFetch(
  app: FastifyInstance,
  remoteAddress?: string,
  forwardedFor?: string | null,
  /** The page's request id: the API's log lines of the calls a page makes carry the page's id (observability/). */
  requestId?: string,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (forwardedFor && !request.headers.has('x-forwarded-for')) request.headers.set('x-forwarded-for', forwardedFor);
    if (requestId) request.headers.set(requestIdHeader, requestId);
    const url = new URL(request.url);
    // In-process answers stay plain: nothing to save on a hop without a socket, and the loaders read the bytes.
    request.headers.delete('accept-encoding');
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      payload: body,
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    const noBody = response.statusCode === 204 || response.statusCode === 304 || request.method === 'HEAD';
    return new Response(noBody ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
  };
}
