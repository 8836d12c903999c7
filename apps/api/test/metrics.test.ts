import { errorMessages } from '@travesia/domain/messages';
import { expect, it } from 'vitest';
import { readyToPay, startPayment } from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call, expectError, get } from './support/http.ts';

/** GET /api/metrics (observability/metrics.ts): Prometheus text behind the admin token. */

const adminToken = 'a-metrics-admin-token-of-32-characters!';
const admin = { authorization: `Bearer ${adminToken}` };

/** The value of one sample of `text` (the line `name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return undefined;
}

describeOnEachDatabase(
  'metrics',
  (ctx) => {
    const scrape = async () => {
      const answer = await call(ctx.app, { method: 'GET', url: '/api/metrics', headers: admin });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.headers['cache-control']).toBe('no-store');
      return answer.text;
    };

    it('refuses without the admin token, or with another: the catch-all 404, as the admin API', async () => {
      expectError(await get(ctx.app, '/api/metrics'), 404, errorMessages.resourceNotFound, '/api/metrics');
      const wrong = { authorization: `Bearer ${'x'.repeat(adminToken.length)}` };
      const refused = await call(ctx.app, { method: 'GET', url: '/api/metrics', headers: wrong });
      expectError(refused, 404, errorMessages.resourceNotFound, '/api/metrics');
    });

    it('counts a request by its route pattern, never its path', async () => {
      const route = { method: 'GET', route: '/api/companies/:companyId', status: '200' };
      const before = sample(await scrape(), 'travesia_http_requests_total', route) ?? 0;
      expect((await get(ctx.app, '/api/companies/1')).status).toBe(200);
      const text = await scrape();
      expect(sample(text, 'travesia_http_requests_total', route)).toBe(before + 1);
      expect(
        sample(text, 'travesia_http_request_duration_seconds_count', { method: 'GET', route: route.route }),
      ).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain('route="/api/companies/1"');
    });

    it('counts a 4xx as an error of its route', async () => {
      const labels = { method: 'GET', route: '/api/quotations/:companyId/:quotationId', class: '4xx' };
      const before = sample(await scrape(), 'travesia_http_errors_total', labels) ?? 0;
      const missing = '/api/quotations/1/00000000-0000-4000-8000-000000000000';
      expect((await get(ctx.app, missing)).status).toBe(404);
      const text = await scrape();
      expect(sample(text, 'travesia_http_errors_total', labels)).toBe(before + 1);
      expect(text).not.toContain('00000000-0000-4000-8000-000000000000');
    });

    it('reports payments by status after one is created, and the database as up', async () => {
      const before = sample(await scrape(), 'travesia_payments', { status: 'pending' }) ?? 0;
      await startPayment(ctx, await readyToPay(ctx));
      const text = await scrape();
      expect(sample(text, 'travesia_payments', { status: 'pending' })).toBe(before + 1);
      expect(sample(text, 'travesia_payments_oldest_age_seconds', { status: 'pending' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'travesia_database_up')).toBe(1);
      expect(sample(text, 'travesia_sale_refunds', { state: 'held' })).toBe(0);
      expect(sample(text, 'travesia_sale_refunds', { state: 'pending' })).toBe(0);
      expect(sample(text, 'travesia_payment_refunds_pending')).toBe(0);
      expect(sample(text, 'travesia_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(0);
    });

    it('reports cache lookups, e-mails, the event loop and the process', async () => {
      await get(ctx.app, '/api/companies/1');
      await get(ctx.app, '/api/companies/1');
      const text = await scrape();
      expect(sample(text, 'travesia_cache_lookups_total', { cache: 'catalogue', result: 'hit' })).toBeGreaterThan(0);
      expect(sample(text, 'travesia_cache_lookups_total', { cache: 'catalogue', result: 'miss' })).toBeGreaterThan(0);
      expect(sample(text, 'travesia_emails_total', { result: 'sent' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'travesia_emails_total', { result: 'failed' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(text).toContain('# TYPE travesia_http_request_duration_seconds histogram');
    });

    it('a database that fails or hangs: the scrape answers without its figures, and travesia_database_up 0', async () => {
      // The app's own handle (buildApp's withReadCache copy) is what the scrape queries: shadowed here, then restored.
      const handle = ctx.app.db as unknown as { execute?: unknown };
      for (const execute of [() => Promise.reject(new Error('connection refused')), () => new Promise(() => {})]) {
        handle.execute = execute;
        try {
          const text = await scrape();
          expect(sample(text, 'travesia_database_up')).toBe(0);
          expect(sample(text, 'travesia_payments', { status: 'pending' })).toBeUndefined();
          expect(sample(text, 'travesia_jobs_oldest_due_age_seconds')).toBeUndefined();
          expect(text).toContain('travesia_http_requests_total');
        } finally {
          delete handle.execute;
        }
      }
      expect(sample(await scrape(), 'travesia_database_up')).toBe(1);
    });
  },
  { ADMIN_TOKEN: adminToken, WORKER: 'off' },
);
