import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenConsents, invoiceBody, passengersBody, referencePlanId } from './support/checkout.ts';
import { databaseKinds } from './support/harness.ts';
import {
  isRunning,
  type ProcessRequestBody,
  processRequest,
  type Started,
  startProcess,
  stopProcess,
} from './support/processes.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';
import { quotationBody } from './support/trips.ts';

/**
 * Scale-out from nothing: three real server processes and a worker alone, started at the same moment against one
 * brand-new, empty PostgreSQL database. Each would create the schema and load the demo company; the start-up
 * advisory lock makes them take turns, so all of them come up and serve. The servers run WORKER=off, so the
 * certificate e-mail of a purchase can only be sent by the worker.
 */

const journalPath = fileURLToPath(new URL('../src/db/migrations/meta/_journal.json', import.meta.url));

/** Environment shared by every process: production settings, the test gateway on, one database. */
function environment(databaseUrl: string, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    COOKIE_SECRET: 'concurrent-start-cookie-secret-32-chars',
    PREVIEW_SECRET: 'a-test-preview-secret-of-32-characters',
    // A production deployment keeps the console on a host of its own (config.ts); nothing here opens it.
    BACKOFFICE_ORIGIN: 'https://consola.travesia.invalid',
    RECAPTCHA_SITE_KEY: 'production-site-key',
    RECAPTCHA_SECRET_KEY: 'production-secret-key',
    TAX_DOCUMENTS_PROVIDER: 'external',
    PAYMENTS_SANDBOX: 'true',
    WEBPAY_ENVIRONMENT: 'integration',
    WEBPAY_COMMERCE_CODE: '597012345678',
    WEBPAY_API_KEY: 'a-staging-webpay-api-key',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    WEB_BUILD_DIR: join(dataDir, 'no-storefront'),
    LOG_LEVEL: 'warn',
  };
}

/** `path` on `server` (the gateway's URLs name PUBLIC_URL; the request goes to the process under test). */
const on = (server: Started, url: string) => {
  const parsed = new URL(url, server.baseUrl);
  return new URL(`${parsed.pathname}${parsed.search}`, server.baseUrl);
};

async function send(server: Started, method: string, url: string, body?: ProcessRequestBody) {
  const response = await fetch(on(server, url), processRequest(method, body, 20_000));
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

/** A whole purchase through the test gateway on one server; resolves with the paid sale's id. */
async function purchase(server: Started): Promise<number> {
  const created = await send(server, 'POST', '/api/quotations/1', { json: quotationBody({ planId: referencePlanId }) });
  expect(created.status, created.text).toBe(201);
  const { id } = JSON.parse(created.text) as { id: string };
  const saved = await send(server, 'PUT', `/api/quotations/${id}/passangers`, { json: passengersBody() });
  expect(saved.status, saved.text).toBe(204);
  const invoiced = await send(server, 'POST', `/api/quotations/${id}/invoice-details`, { json: invoiceBody() });
  expect(invoiced.status, invoiced.text).toBe(204);
  const started = await send(server, 'POST', '/api/payments', {
    json: { quotationId: id, gatewayId: 'sandbox', consents: givenConsents },
  });
  expect(started.status, started.text).toBe(201);
  const { redirectUrl } = JSON.parse(started.text) as { redirectUrl: string };
  const decided = await send(server, 'POST', redirectUrl, { form: 'decision=approve&instalments=1' });
  expect(decided.status, decided.text).toBe(303);
  const back = await send(server, 'GET', decided.location ?? '');
  expect(back.status, back.text).toBe(303);
  const sale = new URL(back.location ?? '', server.baseUrl).searchParams.get('venta');
  expect(back.location).toMatch(/^\/exito\?/);
  return Number(sale);
}

if (databaseKinds.includes('postgres')) {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const databaseName = `travesia_start_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;

  /** One statement on the server's own database (creating and dropping ours). */
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  /** One query on the database under test. */
  const query = async <Row extends pg.QueryResultRow>(text: string) => {
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    return client.query<Row>(text).finally(() => client.end());
  };

  describe('three servers and a worker started at once on a brand-new PostgreSQL database [postgres]', () => {
    let smtp: FakeSmtp;
    let dataDir: string;
    const servers: Started[] = [];
    let worker: Started | undefined;

    beforeAll(async () => {
      await admin(`CREATE DATABASE ${databaseName}`);
      smtp = await startFakeSmtp();
      dataDir = await mkdtemp(join(tmpdir(), 'travesia-start-'));
    });

    afterAll(async () => {
      await Promise.all([...servers, worker].map((started) => stopProcess(started)));
      await smtp?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    });

    it('all three servers and the worker become ready, each server serves, and the schema and demo company exist once', async () => {
      const env = environment(databaseUrl.toString(), dataDir);
      // Nothing in the database yet: each process finds it empty, and they all start now.
      expect(
        (await query('SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema()')).rows,
      ).toEqual([]);
      const starting = [
        startProcess('server', { ...env, WORKER: 'off' }, 150_000),
        startProcess('server', { ...env, WORKER: 'off' }, 150_000),
        startProcess('server', { ...env, WORKER: 'off' }, 150_000),
        startProcess('worker', { ...env, SMTP_URL: smtp.url, JOBS_INTERVAL_MS: '200' }, 150_000),
      ];
      const outcomes = await Promise.allSettled(starting);
      const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.status !== 'fulfilled') continue;
        if (index < 3) servers.push(outcome.value);
        else worker = outcome.value;
      }
      expect(failures, 'processes that did not start').toStrictEqual([]);

      for (const server of servers) {
        const footer = await fetch(new URL('/api/companies/1/footer', server.baseUrl));
        expect(footer.status, server.output()).toBe(200);
        expect(footer.headers.get('content-type')).toMatch(/^application\/json/);
      }
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: unknown[] };
      const migrations = await query<{ count: number }>(
        'SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations',
      );
      expect(migrations.rows[0]?.count).toBe(journal.entries.length);
      const companies = await query<{ count: number }>('SELECT count(*)::int AS count FROM companies');
      expect(companies.rows[0]?.count).toBe(1);
      const seeded = servers.filter((server) => server.output().includes('Loaded the demo company'));
      expect(seeded, 'servers that loaded the demo company').toHaveLength(1);
    }, 180_000);

    it('the worker alone sends the certificate e-mail of a sale paid on a server that runs no worker', async () => {
      const [server] = servers;
      if (!server || !worker) throw new Error('the processes did not start');
      const saleId = await purchase(server);
      const jobsOfSale = async () =>
        (
          await query<{ status: string }>(
            `SELECT status FROM jobs WHERE kind = 'certificate-email' AND payload->>'saleId' = '${saleId}'`,
          )
        ).rows;
      await expect.poll(jobsOfSale, { timeout: 15_000 }).toStrictEqual([{ status: 'done' }]);
      // The job's e-mails: the buyer's (Message-ID <outbox-{job}@…>) once, and each other traveller's own (-t{seq}).
      const mails = smtp.received.filter((mail) => mail.parsed.subject?.includes(`venta N° ${saleId}`));
      expect(mails.filter((mail) => !/-t\d+@/.test(mail.parsed.messageId ?? ''))).toHaveLength(1);
      expect(isRunning(worker), worker.output()).toBe(true);
    });

    it('SIGTERM: the worker and each server close cleanly and exit 0', async () => {
      const ended = await Promise.all([worker, ...servers].map((started) => stopProcess(started, 10_000)));
      expect(ended).toStrictEqual(Array.from({ length: 4 }, () => ({ code: 0, signal: null })));
    });
  });
}
