import { errorMessages } from '@travesia/domain/messages';
import { expect, it } from 'vitest';
import { subscriptions } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/rate-limit.ts';
import { inProcessFetch } from '#app/web.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call } from './support/http.ts';

const url = '/api/companies/1/subscriptions';
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
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const stored = await ctx.database.db.select({ email: subscriptions.email }).from(subscriptions);
      expect(stored.map((row) => row.email)).not.toContain('uno.mas@example.cl');
    });

    it('another client is not limited by the first one', async () => {
      expect((await call(ctx.app, from('198.51.100.9', 'otra@example.cl'))).status).toBe(204);
    });
  },
  { RATE_LIMIT_FACTOR: '1' },
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
  { RATE_LIMIT_FACTOR: '1', TRUST_PROXY: '10.0.0.0/8' },
);
