import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery } from './support/postgres-admin.ts';
import { freePort, type Started, startProcess, stopProcess } from './support/processes.ts';

/**
 * The worker alone (`npm run worker`, worker-main.ts) as it is deployed: with WORKER_METRICS_PORT it serves the
 * server's metrics registry at GET /api/metrics behind ADMIN_TOKEN (the jobs it works on, read from the database,
 * and its own process figures), and with the OTEL_* variables it sends its spans (its database queries) to the
 * collector. Needs PostgreSQL (the worker alone refuses the embedded database).
 */

const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const adminToken = `worker-metrics-admin-${'t'.repeat(32)}`;

type Span = { name: string; attributes: { key: string; value: { stringValue?: string } }[] };
type Batch = { service: string[]; spans: Span[] };

describe.skipIf(!adminUrl)('the worker alone: metrics and tracing [postgres]', () => {
  const databaseName = `travesia_worker_metrics_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const databaseUrl = new URL(adminUrl || 'postgres://unused');
  databaseUrl.pathname = `/${databaseName}`;
  const batches: Batch[] = [];
  let collector: Server;
  let dataDir: string;
  let worker: Started | undefined;
  let metricsUrl: string;

  beforeAll(async () => {
    await adminQuery(adminUrl, `CREATE DATABASE ${databaseName} TEMPLATE ${inject('seededPostgresTemplate')}`);
    // A job given up after its attempts: what the scrape reads from the database.
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    await client
      .query(`INSERT INTO jobs (kind, status, attempts, last_error) VALUES ('certificate_email', 'failed', 5, 'x')`)
      .finally(() => client.end());
    collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          resourceSpans?: {
            resource?: { attributes: Span['attributes'] };
            scopeSpans: { spans: Span[] }[];
          }[];
        };
        for (const resource of body.resourceSpans ?? []) {
          batches.push({
            service: (resource.resource?.attributes ?? [])
              .filter((attribute) => attribute.key === 'service.name')
              .map((attribute) => attribute.value.stringValue ?? ''),
            spans: resource.scopeSpans.flatMap((scope) => scope.spans),
          });
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    dataDir = await mkdtemp(join(tmpdir(), 'travesia-worker-metrics-'));
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/api/metrics`;
    worker = await startProcess(
      'worker',
      {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl.toString(),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        JOBS_INTERVAL_MS: '200',
        ADMIN_TOKEN: adminToken,
        WORKER_METRICS_PORT: String(metricsPort),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
      150_000,
    );
  });

  afterAll(async () => {
    await stopProcess(worker);
    await new Promise((resolve) => collector?.close(resolve));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  it('GET /api/metrics without the admin token is the §8 404, as on the server; any other path too', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const answer = await fetch(metricsUrl, { headers });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ status: 404, instance: '/api/metrics', errors: [] });
    }
    const elsewhere = await fetch(new URL('/api/quotations', metricsUrl));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ status: 404, instance: '/api/quotations' });
  });

  it("with the token: the server's registry, the jobs read from the database and the worker's own process", async () => {
    const answer = await fetch(metricsUrl, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const text = await answer.text();
    expect(text).toContain('travesia_database_up 1');
    expect(text).toMatch(/^travesia_jobs_failed\{kind="certificate_email"\} 1$/m);
    expect(text).toMatch(/^travesia_jobs_oldest_due_age_seconds \d/m);
    expect(text).toMatch(/^travesia_emails_total\{result="sent"\} 0$/m);
    expect(text).toMatch(/^travesia_database_pool_connections\{state="total"\} \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('sends its spans, as travesia-worker, with the database queries of its job runs', async () => {
    const deadline = Date.now() + 30_000;
    const workerSpans = () => batches.filter((batch) => batch.service.includes('travesia-worker'));
    const queries = () =>
      workerSpans()
        .flatMap((batch) => batch.spans)
        .filter((span) =>
          span.attributes.some(
            (attribute) => attribute.key === 'db.system.name' && attribute.value.stringValue === 'postgresql',
          ),
        );
    while (queries().length === 0 && Date.now() < deadline) await sleep(200);
    expect(workerSpans().length).toBeGreaterThan(0);
    expect(queries().length).toBeGreaterThan(0);
  });
});
