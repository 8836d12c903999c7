import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequestListener } from '@react-router/node';
import { refundLimits } from '@travesia/domain/refunds';
import type { FastifyInstance } from 'fastify';
import type { ServerBuild } from 'react-router';

/** What the storefront's loaders receive: a fetch that reaches this API in-process (no loopback hop). */
export type StorefrontLoadContext = { apiFetch: typeof fetch };

/**
 * The largest body a storefront form may post: the refund form with all its documents, plus room for its fields.
 * React Router's actions read a body whole into memory, so anything larger is refused before it is read.
 */
export const storefrontBodyLimitBytes = refundLimits.maxFiles * refundLimits.maxFileBytes + 2 * 1024 * 1024;

export function storefrontBuildExists(buildDir: string): boolean {
  return existsSync(join(buildDir, 'server', 'index.js'));
}

/**
 * Serves the built React Router app next to the API: hashed assets from build/client with a year of cache,
 * everything else rendered on the server.
 */
export async function mountStorefront(app: FastifyInstance, buildDir: string): Promise<void> {
  const build = (await import(pathToFileURL(join(buildDir, 'server', 'index.js')).href)) as ServerBuild;
  const listener = createRequestListener({
    build,
    mode: 'production',
    // The API sees the page's own peer and the page's X-Forwarded-For, so it believes forwarded headers exactly
    // when it would for the page: behind a trusted proxy each visitor is counted as itself by the rate limits.
    getLoadContext: (request, client): StorefrontLoadContext => ({
      apiFetch: inProcessFetch(app, client.address, request.headers.get('x-forwarded-for')),
    }),
  });

  await app.register(async (web) => {
    await web.register(fastifyStatic, {
      root: join(buildDir, 'client'),
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        if (path.includes(`${join('client', 'assets')}`))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else res.setHeader('Cache-Control', 'public, max-age=3600');
      },
    });
    // A body is read whole by the page's action: one larger than any form needs, or of unknown length (browsers
    // always send Content-Length for a form), is refused before a byte of it is read.
    web.addHook('onRequest', async (request, reply) => {
      if (request.method === 'GET' || request.method === 'HEAD') return;
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
    web.removeAllContentTypeParsers();
    web.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    web.all('/*', { schema: { hide: true } }, async (request, reply) => {
      reply.hijack();
      await listener(request.raw, reply.raw);
    });
  });
}

/**
 * A fetch whose requests are answered by `app.inject`, so server-side rendering calls the API without a socket.
 * `remoteAddress` is the address of the peer whose page is being rendered (TRUST_PROXY is checked against it), and
 * `forwardedFor` that page's X-Forwarded-For (believed by the API only from a trusted peer, as for the page).
 */
export function inProcessFetch(
  app: FastifyInstance,
  remoteAddress?: string,
  forwardedFor?: string | null,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (forwardedFor && !request.headers.has('x-forwarded-for')) request.headers.set('x-forwarded-for', forwardedFor);
    const url = new URL(request.url);
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
