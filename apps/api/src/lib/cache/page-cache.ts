import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { todayInChile } from '@travesia/domain/dates';
import { LRUCache } from 'lru-cache';

/**
 * Rendered pages kept whole (issue #10, docs/decisions/013-cached-pages-hash-based-csp.md). Home (`/`), the FAQ
 * (`/faq`) and a quotation's comparator (`/comparador/{quotationId}`) are the same for every visitor who asks for
 * them the same way, so the HTML of one render is kept — already Brotli- and gzip-compressed — and sent again as
 * bytes, with no render, no in-process API call and no compression per request.
 *
 * What may be answered from here (`pageCacheKey`), and nothing else:
 * - GET only (HEAD, and any form post, renders as before);
 * - one of those three paths exactly, with no query string at all (`?q=` searches the FAQ, `?cotizacion=` fills home's
 *   quoter, `?orden=`/`?vista=` sort the comparator: any query renders, so no query can leak into a kept page);
 * - no cookie of the store's own (`travesia-…`: «Mi compra», the sale this browser started). None of these pages'
 *   loaders reads a cookie today; the rule keeps a visitor with the store's personal cookies out of the cache should
 *   one ever do. Other cookies (a marketing snippet's) do not change these pages and do not matter.
 * What is kept (`keepableAnswer`, `storablePage`): a 200 HTML answer without Set-Cookie nor `Cache-Control: private`
 * or `no-store`, whose scripts with the render's nonce are all inline (anything else is sent as rendered, not kept).
 *
 * Content-Security-Policy: a kept page cannot carry a fresh nonce in bytes that are the same for everyone, so it is
 * served under a hash-based policy instead: `script-src 'self' 'sha256-…' 'strict-dynamic'`, one hash per inline
 * script that carried the render's (random, never sent) nonce — the scripts React Router wrote, never a script that
 * reached the HTML any other way — computed once when the page is kept. Their nonce attributes are removed.
 *
 * Lifetime: half of CATALOG_CACHE_TTL_MS, 30 s at most (30 s by default; 0 keeps nothing), then up to as long again
 * while one background render replaces it (`staleGraceMs`: never past CATALOG_CACHE_TTL_MS nor 60 s in all); the
 * catalogue reads a page is made from may themselves be up to CATALOG_CACHE_TTL_MS old, so a change made behind the
 * invalidation hook's back shows within that time plus the page's; at most `maxPages` pages (least
 * recently used dropped first); one render at a time per page (concurrent misses wait for it); keyed by today in
 * Chile too (the quoter's dates, a comparator's «expired»); and every page dropped by any clear of the read cache —
 * the invalidation hook, on this instance and, through Redis, on every instance. A comparator page is also checked
 * against its quotation on every use (modules/quotations `quotationPageStamp`: one prepared query, the quotation's
 * version, status and paid state), so a write to the quotation shows on the next request.
 */

/** A page is 30–60 KB as HTML and a fifth of it compressed: 128 pages stay under ~15 MB. */
export const maxPages = 128;

/** Cookies the storefront sets start with this (apps/web: `travesia-mi-compra`, `travesia-venta`). */
export const storeCookiePrefix = 'travesia-';

const comparatorPath = /^\/comparador\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const fixedPaths = new Set(['/', '/faq']);

export type PageKey = { key: string; quotationId: string | undefined };

function hasStoreCookie(cookie: string | undefined): boolean {
  if (!cookie) return false;
  return cookie.split(';').some((pair) => pair.trim().startsWith(storeCookiePrefix));
}

/** The key a request's page is kept under, or undefined when its page is never kept nor answered from the cache. */
export function pageCacheKey(
  method: string | undefined,
  url: string | undefined,
  cookie: string | undefined,
  today: string = todayInChile(),
): PageKey | undefined {
  if (method !== 'GET' || url === undefined || url.includes('?') || hasStoreCookie(cookie)) return undefined;
  if (fixedPaths.has(url)) return { key: `${today} ${url}`, quotationId: undefined };
  const comparator = comparatorPath.exec(url);
  if (!comparator) return undefined;
  return { key: `${today} ${url.toLowerCase()}`, quotationId: comparator[1]?.toLowerCase() };
}

export type PageEncoding = 'br' | 'gzip' | 'identity';

export type CachedPage = {
  /** The render's headers but Set-Cookie (never kept), Content-Length and Content-Encoding. */
  headers: [string, string][];
  bodies: Record<PageEncoding, Buffer>;
  /** `'sha256-…'` of each inline script, in the page's order. */
  scriptHashes: string[];
  /** The quotation's stamp when the page was rendered (comparator pages only). */
  stamp: string | undefined;
  expiresAt: number;
};

/**
 * Whether a render may be kept at all: a 200 HTML answer that sets no cookie and that its route did not mark as
 * personal (`Cache-Control: private` or `no-store`, as «Mi compra» and the success page are).
 */
export function keepableAnswer(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  const cacheControl = response.headers.get('cache-control') ?? '';
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    type.startsWith('text/html') &&
    !/\b(private|no-store)\b/i.test(cacheControl)
  );
}

const scriptElement = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * The HTML to keep and the hashes of its scripts, or undefined when the page must not be kept: a script with the
 * render's nonce that loads by `src` (a hash cannot allow it), or one whose text the browser would not read as
 * written (CR, NUL: the HTML parser rewrites them, and the hash would not match).
 */
export function storablePage(html: string, nonce: string): { html: string; scriptHashes: string[] } | undefined {
  const attribute = ` nonce="${nonce}"`;
  const scriptHashes: string[] = [];
  for (const [, attributes = '', text = ''] of html.matchAll(scriptElement)) {
    if (!attributes.includes(attribute)) continue;
    if (/\ssrc\s*=/i.test(attributes) || /[\r\0]/.test(text)) return undefined;
    scriptHashes.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  const kept = html.replaceAll(attribute, '');
  // The nonce anywhere else (it never is) would mean the page is not what this reads it as.
  if (kept.includes(nonce)) return undefined;
  return { html: kept, scriptHashes };
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/**
 * The bytes of a kept page in each encoding, made once (Brotli 9: a few ms for a page, then never again), on
 * libuv's thread pool: visitors being answered meanwhile do not wait for it.
 */
export async function compressedBodies(html: string): Promise<Record<PageEncoding, Buffer>> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gz };
}

/**
 * The encoding to send as @fastify/compress would choose it (lib/http/compression.ts): Brotli or gzip by the client's
 * preference (q-values; on a tie Brotli), `*` and `x-gzip` read as gzip, identity when neither is accepted.
 */
export function pageEncoding(acceptEncoding: string | undefined): PageEncoding {
  if (!acceptEncoding) return 'identity';
  let best: PageEncoding = 'identity';
  let bestQ = 0;
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [token = '', ...params] = part.split(';').map((piece) => piece.trim());
    const name = token === '*' || token === 'x-gzip' ? 'gzip' : token;
    if (name !== 'br' && name !== 'gzip') continue;
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    if (q > bestQ || (q === bestQ && name === 'br')) {
      best = name;
      bestQ = q;
    }
  }
  return best;
}

/** The policy of a kept page: this answer's `'nonce-…'` source replaced by the page's script hashes. */
export function hashPolicy(policy: string, nonce: string, scriptHashes: string[]): string {
  return policy.replace(`'nonce-${nonce}'`, scriptHashes.join(' '));
}

/** However long the catalogue reads are reused, a page is fresh 30 s at most (and answered 30 s more at most). */
const maxPageLifetimeMs = 30_000;

/**
 * How long a kept page is fresh: half of CATALOG_CACHE_TTL_MS, 30 s at most. A render is the storefront's costliest
 * work (tens of ms of one core, during which other visitors wait); every change made through the invalidation hook
 * drops the page at once.
 * (It was 5 s: at 100 req/s, the background render every 5 s was what the slowest 1 % of answers waited for.)
 */
export const pageLifetimeMs = (catalogTtlMs: number) => Math.min(Math.floor(catalogTtlMs / 2), maxPageLifetimeMs);

/**
 * How long after its lifetime a kept page still answers while it renders again in the background (so visitors never
 * wait for that render): the other half, so never past CATALOG_CACHE_TTL_MS in all. A clear or a write to the
 * quotation drops the page at once, grace or not.
 */
export const staleGraceMs = (catalogTtlMs: number) =>
  Math.min(catalogTtlMs - pageLifetimeMs(catalogTtlMs), maxPageLifetimeMs);

export type PageCache = {
  /**
   * The kept page under `key` rendered from `stamp` (a comparator's quotation; undefined for the others): fresh, or
   * `fresh: false` within `staleGraceMs` after its lifetime, when the caller answers with it and renders it again
   * in the background (one render at a time: `pending`, `rendering`).
   */
  get(key: string, stamp?: string): { page: CachedPage; fresh: boolean } | undefined;
  /** Keeps a page rendered while no clear happened since `generation()` was read before rendering. */
  set(key: string, page: Omit<CachedPage, 'expiresAt'>, renderedIn: number): CachedPage;
  generation(): number;
  /**
   * The page of a render of `key` under way (started since the last clear), once it is done: concurrent misses wait
   * for one render instead of each rendering. Undefined when none is under way, or, once done, when its page was not
   * kept or a clear happened meanwhile.
   */
  pending(key: string): Promise<CachedPage | undefined> | undefined;
  /** Announces a render of `key`; call the answer with its page (undefined when not kept) once done. */
  rendering(key: string): (page: CachedPage | undefined) => void;
  clear(): void;
  size(): number;
  /** False with CATALOG_CACHE_TTL_MS=0: nothing is kept. */
  enabled: boolean;
};

export function createPageCache(catalogTtlMs: number): PageCache {
  const ttl = pageLifetimeMs(catalogTtlMs);
  const grace = staleGraceMs(catalogTtlMs);
  // Bounded, least recently used dropped first (lru-cache: a hit makes its entry the most recently used).
  const pages = new LRUCache<string, CachedPage>({ max: maxPages });
  const renders = new Map<string, { generation: number; page: Promise<CachedPage | undefined> }>();
  let generation = 0;
  return {
    enabled: ttl > 0,
    get(key, stamp) {
      const page = pages.get(key);
      if (!page) return undefined;
      const now = Date.now();
      if (page.expiresAt + grace <= now || page.stamp !== stamp) {
        pages.delete(key);
        return undefined;
      }
      return { page, fresh: page.expiresAt > now };
    },
    set(key, page, renderedIn) {
      const kept = { ...page, expiresAt: Date.now() + ttl };
      // A clear while it rendered may have dropped what it read: served once, not kept.
      if (ttl <= 0 || renderedIn !== generation) return kept;
      pages.set(key, kept);
      return kept;
    },
    generation: () => generation,
    pending(key) {
      const render = renders.get(key);
      if (!render || render.generation !== generation) return undefined;
      return render.page.then((page) => (render.generation === generation ? page : undefined));
    },
    rendering(key) {
      let done: (page: CachedPage | undefined) => void = () => {};
      const render = { generation, page: new Promise<CachedPage | undefined>((resolve) => (done = resolve)) };
      renders.set(key, render);
      return (page) => {
        if (renders.get(key) === render) renders.delete(key);
        done(page);
      };
    },
    clear() {
      generation += 1;
      pages.clear();
      renders.clear();
    },
    size: () => pages.size,
  };
}

/**
 * `read(key)`, with the requests for one key that arrive while its read is under way answered together by the next
 * read, which starts once that one is done: every answer comes from a read that started after its request arrived
 * (so it sees every write committed before), and a page many visitors ask for at once costs one read per round
 * instead of one each. A comparator's check against its quotation is read this way.
 */
export function batchedReads<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  type Waiter = { resolve: (value: T) => void; reject: (error: unknown) => void };
  const rounds = new Map<string, { running: boolean; waiting: Waiter[] }>();
  const start = (key: string, round: { running: boolean; waiting: Waiter[] }) => {
    const batch = round.waiting;
    round.waiting = [];
    round.running = true;
    read(key).then(
      (value) => settle(key, round, batch, (waiter) => waiter.resolve(value)),
      (error: unknown) => settle(key, round, batch, (waiter) => waiter.reject(error)),
    );
  };
  const settle = (
    key: string,
    round: { running: boolean; waiting: Waiter[] },
    batch: Waiter[],
    answer: (waiter: Waiter) => void,
  ) => {
    for (const waiter of batch) answer(waiter);
    round.running = false;
    if (round.waiting.length > 0) start(key, round);
    else rounds.delete(key);
  };
  return (key) =>
    new Promise<T>((resolve, reject) => {
      let round = rounds.get(key);
      if (!round) {
        round = { running: false, waiting: [] };
        rounds.set(key, round);
      }
      round.waiting.push({ resolve, reject });
      if (!round.running) start(key, round);
    });
}
