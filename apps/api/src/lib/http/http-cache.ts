import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { keptBody } from './compression.ts';

/**
 * HTTP caching of the API's answers. Most carry quotations, travellers, billing data or sales and leave with
 * `Cache-Control: no-store`. A route whose answer is public catalogue data (the same for every visitor, no personal
 * data: navigation, footer, website parameters, modalities, FAQ…) says so with `config: publicCatalogue`; its 200s
 * leave with a short `public, max-age=60` and a weak ETag of the body, and a GET that sends that ETag back in
 * If-None-Match is answered 304 with no body.
 *
 * The ETag is weak (W/) because the bytes on the wire differ by Content-Encoding while the JSON is the same; weak
 * ETags are what If-None-Match compares. It is computed from the body itself, so it changes exactly when the answer
 * does, on every instance alike.
 */

/** Route config of a public catalogue answer (see above). */
export const publicCatalogue = { publicCache: true } as const;

/** A minute: a catalogue change reaches browsers and shared caches within this, plus CATALOG_CACHE_TTL_MS. */
export const publicMaxAgeSeconds = 60;
export const publicCacheControl = `public, max-age=${publicMaxAgeSeconds}`;
export const privateCacheControl = 'no-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's answers hold no personal data and are the same for every visitor: cacheable, with an ETag. */
    publicCache?: boolean;
  }
}

/** The weak ETag of a body. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match header names `etag` (weak comparison: W/ prefixes ignored; `*` names any). */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** How many public catalogue answers (one per path and query) {@link cachePolicy} remembers. */
export const rememberedPublicAnswers = 64;

type PublicAnswer = { text: string; body: Buffer; etag: string };

/**
 * The onSend step of every API answer: no-store unless the route set its own Cache-Control, or the answer is a
 * public catalogue 200 (cacheable, ETag, 304 for a matching If-None-Match). Returns the payload to send.
 *
 * A public catalogue answer is the same bytes request after request, yet its ETag (a SHA-1 of ~10 KB) and its
 * Brotli copy were made again each time. The last answer of each path and query (at most
 * {@link rememberedPublicAnswers}, least recently used dropped) is remembered with its ETag, as a kept body
 * (lib/http/compression.ts: compressed once per encoding); an answer whose text is exactly the remembered one reuses
 * them. Everything reused is derived from those very bytes, so a changed answer simply replaces it.
 */
export function cachePolicy() {
  const remembered = new LRUCache<string, PublicAnswer>({ max: rememberedPublicAnswers });
  const sameAsLast = (key: string, text: string): PublicAnswer => {
    const last = remembered.get(key);
    const answer = last?.text === text ? last : { text, body: keptBody(Buffer.from(text)), etag: weakEtag(text) };
    remembered.set(key, answer);
    return answer;
  };
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
    applyCachePolicy(request, reply, payload, sameAsLast);
}

export function applyCachePolicy(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  sameAsLast?: (key: string, text: string) => PublicAnswer,
): unknown {
  if (reply.hasHeader('cache-control')) return payload;
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined;
  const cacheable =
    request.routeOptions.config.publicCache === true &&
    reply.statusCode === 200 &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    body !== undefined;
  if (!cacheable) {
    reply.header('cache-control', privateCacheControl);
    return payload;
  }
  const known = sameAsLast && typeof body === 'string' ? sameAsLast(request.url, body) : undefined;
  const etag = known?.etag ?? weakEtag(body);
  reply.header('cache-control', publicCacheControl);
  reply.header('etag', etag);
  // Whether it is compressed depends on Accept-Encoding, so a shared cache must keep one copy per encoding.
  reply.header('vary', 'accept-encoding');
  if (!ifNoneMatchNames(request.headers['if-none-match'], etag)) return known?.body ?? payload;
  reply.code(304);
  reply.removeHeader('content-length');
  return null;
}
