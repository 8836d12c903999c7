import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, invalidateReadCache } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { DatabaseHandle } from '#app/db/client.ts';
import { faqEntries } from '#app/db/schema.ts';
import {
  batchedReads,
  createPageCache,
  keepableAnswer,
  maxPages,
  pageCacheKey,
  pageEncoding,
  pageLifetimeMs,
  staleGraceMs,
  storablePage,
} from '#app/lib/cache/page-cache.ts';
import { mountPages, type PageHandler, storefrontBuildExists } from '#app/web.ts';
import {
  decideOnSandbox,
  followReturn,
  postInvoiceDetails,
  putPassengers,
  readyToPay,
  startPayment,
} from './support/checkout.ts';
import { databaseKinds, openTestDatabase, type TestContext } from './support/harness.ts';
import { createQuotation, putQuotation, quotationBody, tripDates } from './support/trips.ts';

/**
 * Issue #10: home, the FAQ and a quotation's comparator rendered once and kept whole (apps/api/src/lib/cache/page-cache.ts,
 * docs/decisions/013-cached-pages-hash-based-csp.md), with the storefront's real build (built here if missing) and
 * its real loaders. Every render is counted, so a test sees whether an answer was rendered or kept.
 */

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const buildDir = join(repoRoot, 'apps', 'web', 'build');
const redisUrl = process.env.TEST_REDIS_URL;
const adminToken = 'p'.repeat(40);

async function storefrontBuild(): Promise<ServerBuild> {
  if (!storefrontBuildExists(buildDir)) {
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'ignore' });
  }
  return (await import(pathToFileURL(join(buildDir, 'server', 'index.js')).href)) as ServerBuild;
}

type Store = {
  app: FastifyInstance;
  renders: () => number;
  /** The next renders answer with this Set-Cookie too (undefined: as rendered). */
  setCookie: (value: string | undefined) => void;
  /** API paths starting with this answer 503 from now on, as an API whose database went away (undefined: none). */
  failApi: (pathStart: string | undefined) => void;
};

async function storeWith(build: ServerBuild, database: DatabaseHandle, env: NodeJS.ProcessEnv = {}): Promise<Store> {
  const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_FACTOR: '1000', ...env });
  const app = await buildApp({ config, db: database.db });
  let failing: string | undefined;
  app.addHook('onRequest', async (request, reply) => {
    if (failing !== undefined && request.url.startsWith(failing)) {
      return reply.code(503).send({ status: 503, detail: 'Internal error', instance: request.url, errors: [] });
    }
  });
  const render = createRequestHandler(build, 'production');
  let renders = 0;
  let cookie: string | undefined;
  const handler: PageHandler = async (request, context) => {
    renders += 1;
    const response = await render(request, context);
    if (cookie === undefined) return response;
    const headers = new Headers(response.headers);
    headers.append('set-cookie', cookie);
    return new Response(response.body, { status: response.status, headers });
  };
  await mountPages(app, handler);
  await app.ready();
  return {
    app,
    renders: () => renders,
    setCookie: (value) => (cookie = value),
    failApi: (pathStart) => (failing = pathStart),
  };
}

type Page = { status: number; html: string; policy: string; headers: Record<string, unknown> };

async function page(app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<Page> {
  const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...headers } });
  const encoding = response.headers['content-encoding'];
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(response.rawPayload)
      : encoding === 'gzip'
        ? gunzipSync(response.rawPayload)
        : response.rawPayload;
  return {
    status: response.statusCode,
    html: bytes.toString('utf8'),
    policy: String(response.headers['content-security-policy'] ?? ''),
    headers: response.headers,
  };
}

const scriptSrc = (policy: string) =>
  policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('script-src '));

const inlineScripts = (html: string) => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];

/** A kept page: no nonce anywhere, and its policy allows exactly the hashes of its inline scripts, in order. */
function expectHashPolicy(answer: Page, what: string) {
  const scripts = inlineScripts(answer.html);
  expect(scripts.length, what).toBeGreaterThan(0);
  for (const [, attributes = ''] of scripts) expect(attributes, what).not.toMatch(/\bsrc=|\bnonce=/);
  // As an attribute anywhere (the first-paint starter's own code reads `inert.nonce`, which is no attribute).
  expect(answer.html, what).not.toMatch(/\snonce=/);
  const hashes = scripts.map(([, , text = '']) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  expect(scriptSrc(answer.policy), what).toBe(`script-src 'self' ${hashes.join(' ')} 'strict-dynamic'`);
}

const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1];

/** A rendered page: its policy's nonce is on every script, as before this cache. */
function expectNoncePolicy(answer: Page, what: string) {
  const nonce = nonceOf(answer.policy);
  expect(nonce, what).toBeTruthy();
  const tags = answer.html.match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length, what).toBeGreaterThan(0);
  for (const tag of tags) expect(tag, what).toContain(`nonce="${nonce}"`);
  return nonce;
}

/** Sets the answer of the company's first FAQ entry in the database itself, behind every cache's back. */
async function setFirstFaqAnswer(database: DatabaseHandle, answer: string) {
  const [first] = await database.db
    .select({ id: faqEntries.id })
    .from(faqEntries)
    .where(eq(faqEntries.companyId, 1))
    .orderBy(faqEntries.sortOrder, faqEntries.id)
    .limit(1);
  if (!first) throw new Error('the demo company has no FAQ');
  await database.db
    .update(faqEntries)
    .set({ answer })
    .where(and(eq(faqEntries.id, first.id), eq(faqEntries.companyId, 1)));
}

/** Polls until `read` is true (a pub/sub message arrives a moment after the publish), at most 3 s. */
async function eventually(read: () => Promise<boolean>) {
  const deadline = Date.now() + 3_000;
  while (!(await read()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return read();
}

describe('which requests may use the page cache (pageCacheKey)', () => {
  const today = '2026-11-26';
  const id = randomUUID();
  it('home, the FAQ and a comparator, GET, no query, no cookie of the store: a key by day and path', () => {
    expect(pageCacheKey('GET', '/', undefined, today)).toStrictEqual({ key: `${today} /`, quotationId: undefined });
    expect(pageCacheKey('GET', '/faq', '_ga=GA1.1.1; theme=dark', today)?.key).toBe(`${today} /faq`);
    expect(pageCacheKey('GET', `/comparador/${id.toUpperCase()}`, undefined, today)).toStrictEqual({
      key: `${today} /comparador/${id}`,
      quotationId: id,
    });
  });
  it('nothing else: other methods and paths, any query string, a cookie of the store', () => {
    for (const [method, url, cookie] of [
      ['HEAD', '/', undefined],
      ['POST', '/', undefined],
      ['GET', '/quienes-somos', undefined],
      ['GET', '/faq/', undefined],
      ['GET', '/comparador/not-a-quotation', undefined],
      ['GET', `/comparador/${id}/x`, undefined],
      ['GET', '/?cotizacion=1', undefined],
      ['GET', '/faq?q=reembolso', undefined],
      ['GET', `/comparador/${id}?orden=precio`, undefined],
      ['GET', '/?', undefined],
      ['GET', '/', 'travesia-mi-compra=abc'],
      ['GET', '/faq', '_ga=1; travesia-venta=xyz'],
    ] as const) {
      expect(pageCacheKey(method, url, cookie, today), `${method} ${url} ${cookie}`).toBeUndefined();
    }
  });
  it('encodings as @fastify/compress chooses them', () => {
    expect(pageEncoding('gzip, deflate, br')).toBe('br');
    expect(pageEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pageEncoding('*')).toBe('gzip');
    expect(pageEncoding('deflate')).toBe('identity');
    expect(pageEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(pageEncoding(undefined)).toBe('identity');
  });
  it('keeps only a 200 HTML answer with no Set-Cookie that its route did not mark private or no-store', () => {
    const html = (headers: Record<string, string> = {}, status = 200) =>
      new Response('<!DOCTYPE html>', { status, headers: { 'content-type': 'text/html', ...headers } });
    expect(keepableAnswer(html())).toBe(true);
    expect(keepableAnswer(html({ 'cache-control': 'public, max-age=60' }))).toBe(true);
    expect(keepableAnswer(html({}, 404))).toBe(false);
    expect(keepableAnswer(html({ 'set-cookie': 'travesia-venta=1' }))).toBe(false);
    expect(keepableAnswer(html({ 'cache-control': 'private, no-store' }))).toBe(false);
    expect(keepableAnswer(html({ 'cache-control': 'no-store' }))).toBe(false);
    expect(keepableAnswer(html({ 'content-type': 'application/json' }))).toBe(false);
  });
  it(`holds at most ${maxPages} pages, the least recently used dropped first, and none rendered across a clear`, () => {
    const cache = createPageCache(60_000);
    const page = { headers: [], bodies: { identity: Buffer.from('x'), br: Buffer.from('x'), gzip: Buffer.from('x') } };
    const kept = { ...page, scriptHashes: [], stamp: undefined };
    cache.set('first', kept, cache.generation());
    for (let index = 0; index < maxPages + 10; index += 1) {
      cache.set(`page ${index}`, kept, cache.generation());
      cache.get('first');
    }
    expect(cache.size()).toBe(maxPages);
    expect(cache.get('first')).toBeDefined();
    expect(cache.get('page 0')).toBeUndefined();
    const renderedIn = cache.generation();
    cache.clear();
    expect(cache.size()).toBe(0);
    cache.set('late', kept, renderedIn);
    expect(cache.get('late')).toBeUndefined();
    expect(createPageCache(0).enabled).toBe(false);
  });
  it('a page kept for a quotation is not used for another stamp of it', () => {
    const cache = createPageCache(60_000);
    const bodies = { identity: Buffer.from('x'), br: Buffer.from('x'), gzip: Buffer.from('x') };
    cache.set('q', { headers: [], bodies, scriptHashes: [], stamp: '1:quoted' }, cache.generation());
    expect(cache.get('q', '2:quoted')).toBeUndefined();
    expect(cache.get('q', '1:quoted')).toBeUndefined();
  });
  it('batched reads: a request arriving during a read is answered by the next read, never by one started before it', async () => {
    const started: { key: string; finish: (value: string) => void; fail: (error: Error) => void }[] = [];
    const read = batchedReads(
      (key) =>
        new Promise<string>((resolve, reject) => {
          started.push({ key, finish: resolve, fail: reject });
        }),
    );
    const first = read('q');
    expect(started.length).toBe(1);
    // Arrive while the first read runs: they wait for a read of their own, shared.
    const second = read('q');
    const third = read('q');
    const other = read('r');
    expect(started.map((run) => run.key)).toStrictEqual(['q', 'r']);
    started[0]?.finish('before');
    expect(await first).toBe('before');
    await Promise.resolve();
    expect(started.map((run) => run.key)).toStrictEqual(['q', 'r', 'q']);
    started[2]?.finish('after');
    expect(await Promise.all([second, third])).toStrictEqual(['after', 'after']);
    started[1]?.fail(new Error('database unavailable'));
    await expect(other).rejects.toThrow('database unavailable');
    // Nothing under way any more: the next request starts a read at once.
    const later = read('q');
    expect(started.length).toBe(4);
    started[3]?.finish('later');
    expect(await later).toBe('later');
  });
  it('only scripts with the render’s nonce are hashed; a nonce’d script by src, or CR in a script, is not kept', () => {
    const nonce = 'abcdefghijklmnopqrstuv==';
    const kept = storablePage(
      `<p>x</p><script nonce="${nonce}">a()</script><script>injected()</script><link rel="modulepreload" href="/a.js" nonce="${nonce}"/>`,
      nonce,
    );
    const hash = `'sha256-${createHash('sha256').update('a()').digest('base64')}'`;
    expect(kept).toStrictEqual({
      html: '<p>x</p><script>a()</script><script>injected()</script><link rel="modulepreload" href="/a.js"/>',
      scriptHashes: [hash],
    });
    expect(storablePage(`<script nonce="${nonce}" src="/x.js"></script>`, nonce)).toBeUndefined();
    expect(storablePage(`<script nonce="${nonce}">a()\r\n</script>`, nonce)).toBeUndefined();
  });
});

for (const kind of databaseKinds) {
  describe(`kept pages with the real storefront [${kind}]`, () => {
    let database: DatabaseHandle;
    let store: Store;
    let build: ServerBuild;
    const ctx = {} as TestContext;

    beforeAll(async () => {
      build = await storefrontBuild();
      database = await openTestDatabase(kind);
      store = await storeWith(build, database, { ADMIN_TOKEN: adminToken });
      ctx.app = store.app;
    });
    afterAll(async () => {
      await store?.app.close();
      await database?.close();
    });

    it('home, FAQ and comparator: rendered once, then the same bytes under a policy of their scripts’ hashes', async () => {
      const id = await createQuotation(ctx);
      for (const url of ['/', '/faq', `/comparador/${id}`]) {
        const before = store.renders();
        const first = await page(store.app, url);
        expect(first.status, url).toBe(200);
        expectHashPolicy(first, url);
        const second = await page(store.app, url);
        const third = await page(store.app, url, { 'accept-encoding': 'gzip, deflate, br' });
        expect(store.renders() - before, url).toBe(1);
        expect(second.html, url).toBe(first.html);
        expect(second.policy, url).toBe(first.policy);
        expect(third.headers['content-encoding'], url).toBe('br');
        expect(third.html, url).toBe(first.html);
        expect(String(third.headers.vary), url).toContain('accept-encoding');
        expect(String(third.headers['content-type']), url).toMatch(/^text\/html/);
        expect(third.headers['set-cookie'], url).toBeUndefined();
      }
    });

    it('concurrent requests for a page not kept yet share one render', async () => {
      await invalidateReadCache(store.app);
      const before = store.renders();
      const answers = await Promise.all(Array.from({ length: 6 }, () => page(store.app, '/faq')));
      expect(store.renders() - before).toBe(1);
      for (const answer of answers) {
        expect(answer.html).toBe(answers[0]?.html);
        expectHashPolicy(answer, 'shared render');
      }
    });

    it('past its lifetime a page still answers at once while one render replaces it in the background', async () => {
      await invalidateReadCache(store.app);
      const kept = await page(store.app, '/faq');
      const before = store.renders();
      const realNow = Date.now.bind(Date);
      // A second past its lifetime (half the catalogue's time to live), well within the grace (the other half).
      const ttl = store.app.config.catalogCacheTtlMs;
      const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + pageLifetimeMs(ttl) + 1_000);
      try {
        const stale = await page(store.app, '/faq');
        expect(stale.html).toBe(kept.html);
        expectHashPolicy(stale, 'stale');
        expect(await eventually(async () => store.renders() - before === 1)).toBe(true);
        // The background render is kept: the next answers are fresh ones, and nothing renders again.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await page(store.app, '/faq');
        await page(store.app, '/faq');
        expect(store.renders() - before).toBe(1);
      } finally {
        clock.mockRestore();
      }
      // Past the grace too, a page is not used at all (kept afresh first, with no render under way).
      await invalidateReadCache(store.app);
      await page(store.app, '/faq');
      const later = vi
        .spyOn(Date, 'now')
        .mockImplementation(() => realNow() + pageLifetimeMs(ttl) + staleGraceMs(ttl) + 1_000);
      try {
        const after = store.renders();
        await page(store.app, '/faq');
        expect(store.renders() - after).toBe(1);
      } finally {
        later.mockRestore();
      }
      await invalidateReadCache(store.app);
    });

    it('other pages, HEAD, and these pages with a query string are rendered every time, each with its own nonce', async () => {
      for (const url of ['/quienes-somos', '/faq?q=viaje', '/?cotizacion=x']) {
        const before = store.renders();
        const first = await page(store.app, url);
        const second = await page(store.app, url);
        expect(store.renders() - before, url).toBe(2);
        expect(expectNoncePolicy(first, url)).not.toBe(expectNoncePolicy(second, url));
      }
      await page(store.app, '/faq');
      const before = store.renders();
      await page(store.app, '/faq');
      const head = await store.app.inject({ method: 'HEAD', url: '/faq' });
      expect(head.statusCode).toBe(200);
      expect(store.renders() - before).toBe(1);
    });

    it('a visitor with the store’s cookies is never answered from the cache, and their page is never kept', async () => {
      await invalidateReadCache(store.app);
      const personal = { cookie: 'travesia-mi-compra=token-of-one-visitor; travesia-venta=sale-of-one-visitor' };
      const before = store.renders();
      const theirs = await page(store.app, '/', personal);
      expectNoncePolicy(theirs, 'with the cookie');
      // Not kept: the next visitor without cookies is rendered too, and then kept.
      const anyone = await page(store.app, '/');
      expect(store.renders() - before).toBe(2);
      expectHashPolicy(anyone, 'anyone');
      // Kept now, yet the cookie holder still gets a render of their own.
      expectNoncePolicy(await page(store.app, '/', personal), 'with the cookie, page kept');
      expect(store.renders() - before).toBe(3);
      await page(store.app, '/');
      expect(store.renders() - before).toBe(3);
    });

    it('an answer with Set-Cookie is sent as rendered and not kept', async () => {
      await invalidateReadCache(store.app);
      const before = store.renders();
      store.setCookie('travesia-venta=personal; Path=/; HttpOnly');
      try {
        const withCookie = await page(store.app, '/faq');
        expect([withCookie.headers['set-cookie']].flat()).toStrictEqual(['travesia-venta=personal; Path=/; HttpOnly']);
        expectNoncePolicy(withCookie, 'set-cookie');
      } finally {
        store.setCookie(undefined);
      }
      const next = await page(store.app, '/faq');
      expect(next.headers['set-cookie']).toBeUndefined();
      expect(store.renders() - before).toBe(2);
    });

    it('a render that met an API failure (home without its origins) is sent to its visitor but not kept', async () => {
      await invalidateReadCache(store.app);
      store.failApi('/api/companies/1/origins');
      try {
        const before = store.renders();
        const degraded = await page(store.app, '/');
        expect(degraded.status).toBe(200);
        expectNoncePolicy(degraded, 'degraded');
        expectNoncePolicy(await page(store.app, '/'), 'degraded again');
        expect(store.renders() - before).toBe(2);
      } finally {
        store.failApi(undefined);
      }
      const before = store.renders();
      expectHashPolicy(await page(store.app, '/'), 'recovered');
      await page(store.app, '/');
      expect(store.renders() - before).toBe(1);
    });

    it('an FAQ edit shows right after the invalidation hook (the admin API), and not before', async () => {
      const seen = await page(store.app, '/faq');
      await setFirstFaqAnswer(database, 'Respuesta editada para la prueba de páginas guardadas.');
      expect((await page(store.app, '/faq')).html).toBe(seen.html);
      // The operator's hook (README «Catalogue cache and its invalidation»).
      const invalidated = await store.app.inject({
        method: 'POST',
        url: '/api/admin/cache/invalidate',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(invalidated.statusCode, invalidated.body).toBe(200);
      const fresh = await page(store.app, '/faq');
      expect(fresh.html).toContain('Respuesta editada para la prueba de páginas guardadas.');
      expectHashPolicy(fresh, 'after the hook');
    });

    it('a comparator shows its quotation’s new data right after a write to it, and never another quotation’s', async () => {
      const first = await createQuotation(ctx);
      const other = await createQuotation(ctx, tripDates(15, 20));
      const seen = await page(store.app, `/comparador/${first}`);
      const initial = quotationBody();
      expect(seen.html).toContain(initial.returnDate);
      const otherPage = await page(store.app, `/comparador/${other}`);
      expect(otherPage.html).toContain(tripDates(15, 20).returnDate);
      expect(otherPage.html).not.toContain(first);

      const before = store.renders();
      expect((await page(store.app, `/comparador/${first}`)).html).toBe(seen.html);
      expect(store.renders() - before).toBe(0);
      const changed = tripDates(12, 30);
      const put = await putQuotation(ctx, first, quotationBody(changed));
      expect(put.status, put.text).toBe(200);
      const after = await page(store.app, `/comparador/${first}`);
      expect(store.renders() - before).toBe(1);
      expect(after.html).toContain(changed.returnDate);
      expect(after.html).not.toContain(initial.returnDate);
      expectHashPolicy(after, 'after the write');
      // The other quotation's kept page is still its own.
      expect((await page(store.app, `/comparador/${other}`)).html).toBe(otherPage.html);
    });

    it('a comparator is rendered again after each write of its quotation: travellers, payment start, payment', async () => {
      const id = await readyToPay(ctx, { passengers: false, invoice: false });
      const url = `/comparador/${id}`;
      const rendersFor = async (write: () => Promise<unknown>) => {
        await write();
        const before = store.renders();
        await page(store.app, url);
        await page(store.app, url);
        return store.renders() - before;
      };
      expect(await rendersFor(async () => {})).toBe(1);
      expect(await rendersFor(async () => {})).toBe(0);
      expect(await rendersFor(() => putPassengers(ctx, id))).toBe(1);
      let redirectUrl = '';
      expect(
        await rendersFor(async () => {
          expect((await postInvoiceDetails(ctx, id)).status).toBe(204);
          ({ redirectUrl } = await startPayment(ctx, id));
        }),
      ).toBe(1);
      expect(await rendersFor(async () => followReturn(ctx, await decideOnSandbox(ctx, redirectUrl, 'approve')))).toBe(
        1,
      );
      expectHashPolicy(await page(store.app, url), 'paid');
    });

    it('a comparator of no stored quotation is rendered every time', async () => {
      const unknown = randomUUID();
      const before = store.renders();
      await page(store.app, `/comparador/${unknown}`);
      await page(store.app, `/comparador/${unknown}`);
      expect(store.renders() - before).toBe(2);
    });
  });
}

// Registered only where a Redis server is named, like the PostgreSQL runs (support/harness.ts).
if (redisUrl) {
  describe('kept pages across instances, with REDIS_URL', () => {
    let database: DatabaseHandle;
    let first: Store;
    let second: Store;
    const channel = `travesia-test:page-cache:${randomUUID()}`;

    beforeAll(async () => {
      const build = await storefrontBuild();
      database = await openTestDatabase(databaseKinds.includes('postgres') ? 'postgres' : 'pglite');
      const env = { REDIS_URL: redisUrl, REDIS_CHANNEL: channel };
      first = await storeWith(build, database, env);
      second = await storeWith(build, database, env);
    });
    afterAll(async () => {
      await first?.app.close();
      await second?.app.close();
      await database?.close();
    });

    it('the hook on one instance drops the other instance’s kept FAQ page', async () => {
      const seen = await page(second.app, '/faq');
      const text = 'Respuesta cambiada y avisada por Redis.';
      await setFirstFaqAnswer(database, text);
      expect((await page(second.app, '/faq')).html).toBe(seen.html);
      expect(await invalidateReadCache(first.app)).toStrictEqual({ broadcast: true });
      expect(await eventually(async () => (await page(second.app, '/faq')).html.includes(text))).toBe(true);
      expectHashPolicy(await page(second.app, '/faq'), 'second instance');
    });
  });
}
