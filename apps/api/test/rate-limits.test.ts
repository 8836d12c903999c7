import { randomUUID } from 'node:crypto';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import { type DatabaseHandle, openPglite } from '#app/db/client.ts';
import { subscriptions } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/http/rate-limit.ts';
import { inProcessFetch } from '#app/web.ts';
import { givenConsents, readyToPay, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { anyRequestId, call } from './support/http.ts';
import { startTcpProxy } from './support/tcp-proxy.ts';
import { quotationBody, searchParams, searchUrl } from './support/trips.ts';

const url = '/api/companies/1/subscriptions';
/** Every subscription queues a confirmation e-mail: the local catcher writes them in a temporary DATA_DIR. */
const env: NodeJS.ProcessEnv = { RATE_LIMIT_FACTOR: '1' };
useTemporaryDataDir(env);
const from = (remoteAddress: string, email: string) => ({
  method: 'POST' as const,
  url,
  payload: { email },
  remoteAddress,
});

describeOnEachDatabase(
  'per-client rate limits',
  (ctx) => {
    it('a client over the form limit gets 429 in the §8 body with Retry-After; nothing more is stored', async () => {
      const { max } = defaultRateLimits.formSubmit;
      for (let i = 0; i < max; i++) {
        expect((await call(ctx.app, from('203.0.113.7', `lector${i}@example.cl`))).status).toBe(204);
      }
      const refused = await call(ctx.app, from('203.0.113.7', 'uno.mas@example.cl'));
      expect(refused.status).toBe(429);
      expect(refused.json()).toStrictEqual({
        status: 429,
        detail: errorMessages.tooManyRequests,
        instance: url,
        errors: [],
        requestId: anyRequestId,
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const stored = await ctx.database.db.select({ email: subscriptions.email }).from(subscriptions);
      expect(stored.map((row) => row.email)).not.toContain('uno.mas@example.cl');
    });

    it('another client is not limited by the first one', async () => {
      expect((await call(ctx.app, from('198.51.100.9', 'otra@example.cl'))).status).toBe(204);
    });
  },
  env,
);

describeOnEachDatabase(
  'rate limits behind a trusted proxy, through the storefront’s in-process calls',
  (ctx) => {
    const subscribeVia = (peer: string, forwardedFor: string | null, email: string) =>
      inProcessFetch(
        ctx.app,
        peer,
        forwardedFor,
      )('http://in-process/api/companies/1/subscriptions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });

    it('each visitor is counted as itself: one visitor over the limit does not block the next', async () => {
      const { max } = defaultRateLimits.formSubmit;
      for (let i = 0; i < max; i++) {
        expect((await subscribeVia('10.1.2.3', '203.0.113.20', `primero${i}@example.cl`)).status).toBe(204);
      }
      expect((await subscribeVia('10.1.2.3', '203.0.113.20', 'primero.mas@example.cl')).status).toBe(429);
      expect((await subscribeVia('10.1.2.3', '203.0.113.21', 'segundo@example.cl')).status).toBe(204);
    });

    it('an untrusted peer is counted by its own address whatever X-Forwarded-For it sends', async () => {
      const { max } = defaultRateLimits.formSubmit;
      for (let i = 0; i < max; i++) {
        expect((await subscribeVia('198.51.100.30', `192.0.2.${i}`, `rotando${i}@example.cl`)).status).toBe(204);
      }
      expect((await subscribeVia('198.51.100.30', '192.0.2.99', 'rotando.mas@example.cl')).status).toBe(429);
    });
  },
  {
    RATE_LIMIT_FACTOR: '1',
    TRUST_PROXY: '10.0.0.0/8',
    // Read when the suite starts, once the temporary DATA_DIR exists.
    get DATA_DIR() {
      return env.DATA_DIR;
    },
  },
);

const tooMany = (instance: string) => ({
  status: 429,
  detail: errorMessages.tooManyRequests,
  instance,
  errors: [],
  requestId: anyRequestId,
});

describeOnEachDatabase(
  'rate limits of payments and discount codes',
  (ctx) => {
    it('starting payments: over the limit a client gets 429 in the §8 body with Retry-After', async () => {
      const { max } = defaultRateLimits.paymentStart;
      const quotationId = await readyToPay(ctx);
      const start = () =>
        call(ctx.app, {
          method: 'POST',
          url: '/api/payments',
          payload: { quotationId, gatewayId: 'sandbox', consents: givenConsents },
          remoteAddress: '203.0.113.40',
        });
      for (let i = 0; i < max; i++) expect((await start()).status).not.toBe(429);
      const refused = await start();
      expect(refused.status).toBe(429);
      expect(refused.json()).toStrictEqual(tooMany('/api/payments'));
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('plan searches with a discount code are limited; plain searches from the same client are not', async () => {
      const { max } = defaultRateLimits.discountCode;
      const search = (discountCode?: string) =>
        call(ctx.app, { method: 'GET', url: searchUrl(searchParams({ discountCode })), remoteAddress: '203.0.113.41' });
      for (let i = 0; i < max; i++) expect((await search(`PRUEBA${i}`)).status).toBe(200);
      const refused = await search('UNOMAS');
      expect(refused.status).toBe(429);
      expect(refused.json()).toMatchObject({ status: 429, detail: errorMessages.tooManyRequests, errors: [] });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The hot path: a search without a code (or with a blank one) is never counted nor refused.
      for (let i = 0; i < max + 2; i++) expect((await search()).status).toBe(200);
      expect((await search('   ')).status).toBe(200);
    });

    it('quotations that carry a discount code share that limit per client; without a code they are not counted', async () => {
      const { max } = defaultRateLimits.discountCode;
      const create = (discountCode?: string) =>
        call(ctx.app, {
          method: 'POST',
          url: '/api/quotations/1',
          payload: quotationBody(discountCode === undefined ? {} : { discountCode }),
          remoteAddress: '203.0.113.42',
        });
      const created = await create();
      expect(created.status).toBe(201);
      const id = created.json<{ id: string }>().id;
      const update = (discountCode: string) =>
        call(ctx.app, {
          method: 'PUT',
          url: `/api/quotations/1/${id}`,
          payload: quotationBody({ discountCode }),
          remoteAddress: '203.0.113.42',
        });
      for (let i = 0; i < max; i++) expect((await update(`CODIGO${i}`)).status).toBe(200);
      const refused = await update('CODIGOMAS');
      expect(refused.status).toBe(429);
      expect(refused.json()).toStrictEqual(tooMany(`/api/quotations/1/${id}`));
      expect((await update('')).status).toBe(200);
      for (let i = 0; i < max + 1; i++) expect((await create()).status).toBe(201);
    });
  },
  env,
);

/**
 * REDIS_URL set: the counters live in Redis, so every instance counts against one limit. Runs where TEST_REDIS_URL
 * names a Redis server (as the read-cache invalidation suite does); each run uses a key prefix of its own.
 */
const redisUrl = process.env.TEST_REDIS_URL;

async function openSeeded() {
  const { readFile } = await import('node:fs/promises');
  const dump = await readFile(inject('seededPgliteDump'));
  return openPglite({ loadDataDir: new Blob([dump]) });
}

if (redisUrl) {
  describe('rate limits shared through Redis by two instances', () => {
    const prefix = `travesia-test:rate-limit:${randomUUID()}:`;
    let database: DatabaseHandle;
    const apps: FastifyInstance[] = [];
    const instance = async (url: string) => {
      const app = await buildApp({
        config: loadConfig({
          NODE_ENV: 'test',
          RATE_LIMIT_FACTOR: '1',
          REDIS_URL: url,
          REDIS_RATE_LIMIT_PREFIX: prefix,
          DATA_DIR: env.DATA_DIR,
        }),
        db: database.db,
      });
      await app.ready();
      apps.push(app);
      return app;
    };
    const subscribeOn = (app: FastifyInstance, remoteAddress: string, email: string) =>
      call(app, { method: 'POST', url, payload: { email }, remoteAddress });

    beforeAll(async () => {
      database = await openSeeded();
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await database?.close();
    });

    it('a client that spreads its calls over two instances is refused once their sum reaches the limit', async () => {
      const [first, second] = [await instance(redisUrl), await instance(redisUrl)];
      const { max } = defaultRateLimits.formSubmit;
      for (let i = 0; i < max; i++) {
        const app = i % 2 === 0 ? first : second;
        expect((await subscribeOn(app, '203.0.113.50', `compartido${i}@example.cl`)).status).toBe(204);
      }
      for (const app of [first, second]) {
        const refused = await subscribeOn(app, '203.0.113.50', 'compartido.mas@example.cl');
        expect(refused.status).toBe(429);
        expect(refused.json()).toStrictEqual(tooMany(url));
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Another client still has its whole allowance, on either instance.
      expect((await subscribeOn(second, '203.0.113.51', 'vecino@example.cl')).status).toBe(204);
    });

    it('with Redis down or frozen the limits fail open: requests are served promptly, never a 500', async () => {
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(redisUrl).port || 6379) });
      try {
        const app = await instance(`redis://127.0.0.1:${proxy.port}`);
        const { max } = defaultRateLimits.formSubmit;
        await proxy.refuse();
        for (let i = 0; i < max + 1; i++) {
          expect((await subscribeOn(app, '203.0.113.60', `sin.redis${i}@example.cl`)).status).toBe(204);
        }
        await proxy.restore();
        proxy.freeze();
        const started = Date.now();
        expect((await subscribeOn(app, '203.0.113.61', 'congelado@example.cl')).status).toBe(204);
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        await proxy.close();
      }
    });
  });
}
