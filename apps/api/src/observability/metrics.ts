import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '#app/db/client.ts';
import { adminOnly } from '#app/lib/security/admin-token.ts';
import { type CacheSignal, cacheChannel, type MailSignal, mailChannel } from './signals.ts';

export const metricsPath = '/api/metrics';

/** How long one scrape-time query may take before its figures are left out of the scrape. */
const queryTimeoutMs = 2_000;

/**
 * Node's own figures (event-loop lag, heap, GC, handles, CPU), once per process: several apps built in one process
 * (tests) share them, and each collector would otherwise add its own observers for the life of the process.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

type Row = Record<string, unknown>;
type Pool = { totalCount: number; idleCount: number; waitingCount: number };

const poolOf = (db: Database): Pool | undefined => {
  const client = (db as { $client?: Partial<Pool> }).$client;
  return typeof client?.totalCount === 'number' ? (client as Pool) : undefined;
};

const number = (value: unknown) => (value === null || value === undefined ? undefined : Number(value));

async function rowsOf(db: Database, query: ReturnType<typeof sql>): Promise<Row[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`metrics query took over ${queryTimeoutMs} ms`)), queryTimeoutMs);
  });
  try {
    const result = (await Promise.race([db.execute(query), timeout])) as unknown as { rows: Row[] };
    return result.rows;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The store's vital signs for Prometheus at GET /api/metrics (docs/operations.md, «Vital signs»), behind the admin
 * API's token. HTTP figures are labelled by the route's pattern (`/api/quotations/:companyId/:quotationId`), never
 * the path, so ids never become label values. Database figures are read when scraped, one query each with a time
 * limit; when the database does not answer they are left out and `travesia_database_up` says 0.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  // Each database reading has a registry of its own, merged into a scrape only when that reading answered: a gauge
  // without labels would otherwise still print its 0 when the database is down.
  const paymentsRegistry = new Registry();
  const saleRefundsRegistry = new Registry();
  const jobsRegistry = new Registry();
  const labelled = <T extends string>(name: string, help: string, labelNames: readonly T[], into = registry) =>
    new Gauge({ name, help, labelNames, registers: [into] });

  const requests = new Counter({
    name: 'travesia_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'travesia_http_errors_total',
    help: 'HTTP requests answered with a 4xx or 5xx, by method, route pattern and class',
    labelNames: ['method', 'route', 'class'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'travesia_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? '(no route)';
    const status = reply.statusCode;
    requests.inc({ method: request.method, route, status: String(status) });
    if (status >= 400) errors.inc({ method: request.method, route, class: status >= 500 ? '5xx' : '4xx' });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const emails = new Counter({
    name: 'travesia_emails_total',
    help: 'E-mails handed to the mail server (or the local outbox) by this process: result sent or failed',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: 'travesia_cache_lookups_total',
    help: 'Lookups of the catalogue read cache, the kept answers and the kept pages: result hit or miss',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
  });
  // Both results exist from the first scrape, so rates and ratios have a series to work on.
  for (const result of ['sent', 'failed']) emails.inc({ result }, 0);
  for (const cache of ['catalogue', 'answer', 'page']) {
    for (const result of ['hit', 'miss']) cacheLookups.inc({ cache, result }, 0);
  }
  const onMail = (message: unknown) => emails.inc({ result: (message as MailSignal).ok ? 'sent' : 'failed' });
  const onCache = (message: unknown) => {
    const { cache, hit } = message as CacheSignal;
    cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
  };
  subscribe(mailChannel.name, onMail);
  subscribe(cacheChannel.name, onCache);
  app.addHook('onClose', async () => {
    unsubscribe(mailChannel.name, onMail);
    unsubscribe(cacheChannel.name, onCache);
  });

  const databaseUp = labelled(
    'travesia_database_up',
    'Whether the scrape-time database queries answered (1) or not (0)',
    [],
  );
  const pool = labelled(
    'travesia_database_pool_connections',
    'PostgreSQL pool connections: total, idle, and requests waiting for one (absent on embedded PGlite)',
    ['state'],
  );
  const payments = labelled('travesia_payments', 'Payment attempts by status', ['status'], paymentsRegistry);
  const oldestPayment = labelled(
    'travesia_payments_oldest_age_seconds',
    'Age of the oldest payment attempt still pending or confirming, by status',
    ['status'],
    paymentsRegistry,
  );
  const paymentRefunds = labelled(
    'travesia_payment_refunds_pending',
    'Authorizations we could not honour whose money is still to be given back',
    [],
    paymentsRegistry,
  );
  const saleRefunds = labelled(
    'travesia_sale_refunds',
    'Money refunds of sales not yet given back: pending (the sweeper retries them) or held (to be paid by transfer)',
    ['state'],
    saleRefundsRegistry,
  );
  const oldestSaleRefund = labelled(
    'travesia_sale_refunds_oldest_age_seconds',
    'Age of the oldest sale refund not yet given back (pending: since requested; held: since put on hold)',
    ['state'],
    saleRefundsRegistry,
  );
  const jobsDue = labelled('travesia_jobs_due', 'Queued jobs due now, by kind', ['kind'], jobsRegistry);
  const jobsRetrying = labelled(
    'travesia_jobs_retrying',
    'Pending jobs whose last attempt failed, by kind',
    ['kind'],
    jobsRegistry,
  );
  const jobsFailed = labelled(
    'travesia_jobs_failed',
    'Jobs given up after their attempts, by kind',
    ['kind'],
    jobsRegistry,
  );
  const oldestJob = labelled(
    'travesia_jobs_oldest_due_age_seconds',
    'How long the oldest due job has been waiting to run',
    [],
    jobsRegistry,
  );

  const db = app.db;
  const readings: { registry: Registry; read: () => Promise<void> }[] = [
    {
      registry: paymentsRegistry,
      read: async () => {
        const rows = await rowsOf(
          db,
          sql`SELECT status, count(*)::int AS n,
              extract(epoch FROM now() - min(created_at))::float8 AS oldest,
              count(*) FILTER (WHERE refund_status = 'pending')::int AS refunds
            FROM payments GROUP BY status`,
        );
        let refunds = 0;
        for (const row of rows) {
          const status = String(row.status);
          payments.set({ status }, Number(row.n));
          if (status === 'pending' || status === 'confirming') oldestPayment.set({ status }, number(row.oldest) ?? 0);
          refunds += Number(row.refunds);
        }
        paymentRefunds.set(refunds);
      },
    },
    {
      registry: saleRefundsRegistry,
      read: async () => {
        const [row] = await rowsOf(
          db,
          sql`SELECT count(*) FILTER (WHERE held_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE held_at IS NOT NULL)::int AS held,
              extract(epoch FROM now() - min(created_at) FILTER (WHERE held_at IS NULL))::float8 AS oldest_pending,
              extract(epoch FROM now() - min(held_at))::float8 AS oldest_held
            FROM sale_refunds WHERE status = 'pending'`,
        );
        saleRefunds.set({ state: 'pending' }, Number(row?.pending ?? 0));
        saleRefunds.set({ state: 'held' }, Number(row?.held ?? 0));
        oldestSaleRefund.set({ state: 'pending' }, number(row?.oldest_pending) ?? 0);
        oldestSaleRefund.set({ state: 'held' }, number(row?.oldest_held) ?? 0);
      },
    },
    {
      registry: jobsRegistry,
      read: async () => {
        const rows = await rowsOf(
          db,
          sql`SELECT kind,
              count(*) FILTER (WHERE status = 'pending' AND run_after <= now())::int AS due,
              count(*) FILTER (WHERE status = 'pending' AND last_error IS NOT NULL)::int AS retrying,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              extract(epoch FROM now() - min(run_after) FILTER (WHERE status = 'pending' AND run_after <= now()))::float8 AS oldest
            FROM jobs WHERE status IN ('pending', 'failed') GROUP BY kind`,
        );
        let oldest = 0;
        for (const row of rows) {
          const kind = String(row.kind);
          jobsDue.set({ kind }, Number(row.due));
          jobsRetrying.set({ kind }, Number(row.retrying));
          jobsFailed.set({ kind }, Number(row.failed));
          oldest = Math.max(oldest, number(row.oldest) ?? 0);
        }
        oldestJob.set(oldest);
      },
    },
  ];

  /** Reads the database figures now; a reading that fails or times out leaves its figures out of this scrape. */
  const readDatabase = async () => {
    const results = await Promise.all(
      readings.map(async ({ registry: figures, read }) => {
        figures.resetMetrics();
        try {
          await read();
          return figures;
        } catch {
          return undefined;
        }
      }),
    );
    const answered = results.filter((figures) => figures !== undefined);
    const failed = results.length - answered.length;
    databaseUp.set(failed === 0 ? 1 : 0);
    if (failed > 0) app.log.warn({ failed }, 'metrics: database figures left out of this scrape');
    const connections = poolOf(db);
    pool.reset();
    if (connections) {
      pool.set({ state: 'total' }, connections.totalCount);
      pool.set({ state: 'idle' }, connections.idleCount);
      pool.set({ state: 'waiting' }, connections.waitingCount);
    }
    return answered.filter((figures) => figures !== undefined);
  };

  app.get(
    metricsPath,
    { onRequest: adminOnly(app.config.refunds.adminToken), schema: { hide: true } },
    async (_request, reply) => {
      const databaseFigures = await readDatabase();
      const merged = Registry.merge([processMetrics(), registry, ...databaseFigures]);
      return reply
        .header('cache-control', 'no-store')
        .type(merged.contentType)
        .send(await merged.metrics());
    },
  );
}
