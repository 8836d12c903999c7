import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { addDays, chileDayStart, todayInChile } from '@travesia/domain/dates';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp, invalidateReadCache } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import { type DatabaseHandle, openPglite } from '#app/db/client.ts';
import { companyDocuments, productRates } from '#app/db/schema.ts';
import { maxAnswers, readCache } from '#app/lib/cache/read-cache.ts';
import { call, get } from './support/http.ts';
import { startTcpProxy } from './support/tcp-proxy.ts';
import { searchParams, searchUrl, tripDates } from './support/trips.ts';

/**
 * Issue 10: catalogue answers are cached for CATALOG_CACHE_TTL_MS (a minute by default), and an explicit hook makes a
 * change show at once: `invalidateReadCache(app)` in code, `POST /api/admin/cache/invalidate` for the operator, on
 * every instance when REDIS_URL is set (a pub/sub message). The Redis part runs where a Redis server is named by
 * TEST_REDIS_URL (`.ci/run` names the local one, as TEST_DATABASE_URL names PostgreSQL): a newcomer's machine
 * needs neither. Each run listens on a channel of its own.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const adminToken = 'a'.repeat(40);

type Footer = { menus: { label: string }[] };

async function openSeeded() {
  const dump = await readFile(inject('seededPgliteDump'));
  return openPglite({ loadDataDir: new Blob([dump]) });
}

/** Renames the footer's first menu in the database itself, behind every cache's back. */
async function renameFirstFooterMenu(database: DatabaseHandle, label: string) {
  const where = and(eq(companyDocuments.companyId, 1), eq(companyDocuments.kind, 'footer'));
  const [row] = await database.db.select({ body: companyDocuments.body }).from(companyDocuments).where(where);
  const body = structuredClone(row?.body) as Footer;
  const [first] = body.menus;
  if (!first) throw new Error('the demo footer has no menu');
  first.label = label;
  await database.db.update(companyDocuments).set({ body }).where(where);
}

const firstMenuOf = async (app: FastifyInstance, path = 'footer') => {
  const answer = await get(app, `/api/companies/1/${path}`);
  expect(answer.status, answer.text).toBe(200);
  const body = answer.json<Footer & { footer?: Footer }>();
  return (body.footer ?? body).menus[0]?.label;
};

/** Polls until `read` answers `expected` (a pub/sub message arrives a moment after the publish), at most 3 s. */
async function eventually(read: () => Promise<unknown>, expected: unknown) {
  const deadline = Date.now() + 3_000;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}

describe('the read cache and its invalidation hook, one instance', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openSeeded();
    app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: adminToken }), db: database.db });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('a changed footer is served stale within the time to live, and fresh right after invalidateReadCache', async () => {
    const before = await firstMenuOf(app);
    await renameFirstFooterMenu(database, 'Cambiado en la base');
    expect(await firstMenuOf(app)).toBe(before);
    expect(await firstMenuOf(app, 'website-parameters')).toBe(before);
    expect(await invalidateReadCache(app)).toStrictEqual({ broadcast: false });
    expect(await firstMenuOf(app)).toBe('Cambiado en la base');
    expect(await firstMenuOf(app, 'website-parameters')).toBe('Cambiado en la base');
  });

  it('a scope clears only the keys it starts with', async () => {
    await firstMenuOf(app);
    await renameFirstFooterMenu(database, 'Solo el pie');
    await invalidateReadCache(app, 'modalities:');
    expect(await firstMenuOf(app)).toBe('Cambiado en la base');
    await invalidateReadCache(app, 'document:1:footer');
    expect(await firstMenuOf(app)).toBe('Solo el pie');
  });

  it('the operator invalidates with POST /api/admin/cache/invalidate and the admin token; anyone else gets a 404', async () => {
    await firstMenuOf(app);
    await renameFirstFooterMenu(database, 'Por el operador');
    const url = '/api/admin/cache/invalidate';
    for (const headers of [{}, { authorization: `Bearer ${'b'.repeat(40)}` }]) {
      const refused = await call(app, { method: 'POST', url, headers });
      expect(refused.status).toBe(404);
    }
    expect(await firstMenuOf(app)).toBe('Solo el pie');
    const done = await call(app, { method: 'POST', url, headers: { authorization: `Bearer ${adminToken}` } });
    expect(done.status, done.text).toBe(200);
    expect(done.json()).toStrictEqual({ broadcast: false });
    expect(await firstMenuOf(app)).toBe('Por el operador');
  });
});

describe('the plan search answers kept in the read cache', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  /** The same store with no read cache at all (a time to live of 0): every search computed afresh. */
  let uncached: FastifyInstance;

  beforeAll(async () => {
    database = await openSeeded();
    app = await buildApp({ config: loadConfig({ NODE_ENV: 'test' }), db: database.db });
    uncached = await buildApp({ config: loadConfig({ NODE_ENV: 'test', CATALOG_CACHE_TTL_MS: '0' }), db: database.db });
    await Promise.all([app.ready(), uncached.ready()]);
  });
  afterAll(async () => {
    await app?.close();
    await uncached?.close();
    await database?.close();
  });

  const search = async (target: FastifyInstance, url: string) => {
    const answer = await get(target, url);
    expect(answer.status, answer.text).toBe(200);
    return answer;
  };

  it('answers the same bytes and headers as a store without the cache, first and kept', async () => {
    const urls = [
      searchUrl(searchParams()),
      searchUrl(searchParams({ upgradeCovid: 'true' })),
      searchUrl(searchParams({ passengers: '1:1' })),
      searchUrl(searchParams({ discountCode: 'NOPE' })),
    ];
    for (const url of urls) {
      const fresh = await search(uncached, url);
      const first = await search(app, url);
      const kept = await search(app, url);
      for (const answer of [first, kept]) {
        expect(answer.text).toBe(fresh.text);
        expect(answer.headers['content-type']).toBe(fresh.headers['content-type']);
        expect(answer.headers['cache-control']).toBe(fresh.headers['cache-control']);
        expect(answer.headers.etag).toBe(fresh.headers.etag);
      }
    }
  });

  it('a kept answer is served within its lifetime and changes right after invalidateReadCache', async () => {
    const url = searchUrl(searchParams());
    const before = (await search(app, url)).text;
    // Every rate of the searched destination doubled in the database, behind every cache's back.
    await database.db
      .update(productRates)
      .set({ rateCents: sql`${productRates.rateCents} * 2` })
      .where(eq(productRates.destinationId, 3));
    expect((await search(app, url)).text).toBe(before);
    await invalidateReadCache(app);
    const after = (await search(app, url)).text;
    expect(after).not.toBe(before);
    expect(after).toBe((await search(uncached, url)).text);
    // A scoped invalidation clears the answers too: they are derived from many catalogue entries.
    await database.db
      .update(productRates)
      .set({ rateCents: sql`${productRates.rateCents} / 2` })
      .where(eq(productRates.destinationId, 3));
    await invalidateReadCache(app, 'products:1:1:rates:3');
    expect((await search(app, url)).text).toBe(before);
  });

  it('a URL answered before is not answered from its kept answer once the day in Chile has changed', async () => {
    // A search leaving today, made a second before midnight in Chile and again two seconds later (well within the
    // kept answer's lifetime): by then its departure is in the past, so the same URL must be refused.
    const today = todayInChile();
    const url = searchUrl(searchParams({ departureDate: today, returnDate: addDays(today, 4) }));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(chileDayStart(addDays(today, 1)).getTime() - 1_000);
      await invalidateReadCache(app);
      const first = await search(app, url);
      expect(await search(app, url)).toMatchObject({ text: first.text });
      vi.setSystemTime(chileDayStart(addDays(today, 1)).getTime() + 1_000);
      expect(await get(app, url)).toMatchObject({ status: 400 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a URL with a discount code is never answered from a kept answer: each is looked up and counted', async () => {
    const limited = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', RATE_LIMIT_FACTOR: '0.2' }),
      db: database.db,
    });
    try {
      // The discount-code limit is 10 a minute; scaled by 0.2, 2: the third identical search is refused.
      const url = searchUrl(searchParams({ discountCode: 'NOPE' }));
      expect((await get(limited, url)).status).toBe(200);
      expect((await get(limited, url)).status).toBe(200);
      expect(await get(limited, url)).toMatchObject({ status: 429 });
      // A plain search from the same client is neither counted nor refused, kept or not.
      const plain = searchUrl(searchParams());
      for (let count = 0; count < 4; count += 1) expect((await get(limited, plain)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('keeps at most maxAnswers answers however many distinct searches arrive, and none the catalogue refused', async () => {
    const cache = readCache(app.db);
    await invalidateReadCache(app);
    expect(await get(app, searchUrl(searchParams({ destination: 999_999 })))).toMatchObject({ status: 400 });
    expect(cache.answerCount()).toBe(0);
    let searched = 0;
    for (let leavingIn = 2; searched <= maxAnswers + 20; leavingIn += 1) {
      for (let days = 1; days <= 10; days += 1) {
        await search(app, searchUrl(searchParams(tripDates(days, leavingIn))));
        searched += 1;
        expect(cache.answerCount()).toBeLessThanOrEqual(maxAnswers);
      }
    }
    expect(cache.answerCount()).toBe(maxAnswers);
  });
});

// Registered only where a Redis server is named, like the PostgreSQL runs (support/harness.ts).
if (redisUrl) {
  describe('the invalidation hook across instances, with REDIS_URL', () => {
    let database: DatabaseHandle;
    let first: FastifyInstance;
    let second: FastifyInstance;
    const channel = `travesia-test:read-cache:${randomUUID()}`;

    const instance = (url: string) =>
      buildApp({
        config: loadConfig({ NODE_ENV: 'test', REDIS_URL: url, REDIS_CHANNEL: channel, ADMIN_TOKEN: adminToken }),
        db: database.db,
      });

    beforeAll(async () => {
      database = await openSeeded();
      // Two instances of the store on one database, as two processes behind a load balancer would be.
      first = await instance(redisUrl);
      second = await instance(redisUrl);
      await Promise.all([first.ready(), second.ready()]);
    });
    afterAll(async () => {
      await first?.close();
      await second?.close();
      await database?.close();
    });

    it('invalidating on one instance makes the other answer fresh', async () => {
      const before = await firstMenuOf(second);
      await firstMenuOf(first);
      await renameFirstFooterMenu(database, 'Visto por las dos');
      expect(await firstMenuOf(second)).toBe(before);
      expect(await invalidateReadCache(first)).toStrictEqual({ broadcast: true });
      expect(await eventually(() => firstMenuOf(second), 'Visto por las dos')).toBe('Visto por las dos');
      expect(await firstMenuOf(first)).toBe('Visto por las dos');
    });

    it('the admin API on one instance clears the other one too', async () => {
      await firstMenuOf(second);
      await renameFirstFooterMenu(database, 'Por la API');
      const done = await call(first, {
        method: 'POST',
        url: '/api/admin/cache/invalidate',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(done.json()).toStrictEqual({ broadcast: true });
      expect(await eventually(() => firstMenuOf(second), 'Por la API')).toBe('Por la API');
    });

    it('Redis unreachable at start-up: the instance starts, serves, and its invalidations stay local', async () => {
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(redisUrl).port || 6379) });
      await proxy.refuse();
      const cutOff = await instance(`redis://127.0.0.1:${proxy.port}`);
      try {
        await cutOff.ready();
        await renameFirstFooterMenu(database, 'Sin Redis');
        expect(await invalidateReadCache(cutOff)).toStrictEqual({ broadcast: false });
        expect(await firstMenuOf(cutOff)).toBe('Sin Redis');
      } finally {
        await cutOff.close();
        await proxy.close();
      }
    });

    it('a Redis connection that drops leaves the instance up; back, it hears invalidations again (and starts afresh)', async () => {
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(redisUrl).port || 6379) });
      const listener = await instance(`redis://127.0.0.1:${proxy.port}`);
      try {
        await listener.ready();
        await firstMenuOf(listener);
        await proxy.refuse();
        await renameFirstFooterMenu(database, 'Durante el corte');
        // The message is lost for the cut-off instance: it keeps its entry (its TTL still applies) and keeps serving.
        await invalidateReadCache(first);
        expect(await firstMenuOf(listener)).not.toBe('Durante el corte');
        await proxy.restore();
        // Reconnected, it clears what it may have missed...
        expect(await eventually(() => firstMenuOf(listener), 'Durante el corte')).toBe('Durante el corte');
        // ...and hears the next invalidation.
        await renameFirstFooterMenu(database, 'Después del corte');
        await invalidateReadCache(first);
        expect(await eventually(() => firstMenuOf(listener), 'Después del corte')).toBe('Después del corte');
      } finally {
        await listener.close();
        await proxy.close();
      }
    });
  });
}
