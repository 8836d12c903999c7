import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPostgres } from '#app/db/client.ts';
import { databaseUnavailable } from '#app/db/unavailable.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { type Outcome, type Sent, sendRequest, whatIsWrong } from './support/answers.ts';
import { givenConsents, invoiceBody, passengersBody, referencePlanId } from './support/checkout.ts';
import { databaseKinds, stagingWebpay } from './support/harness.ts';
import { isRunning, type ProcessRequestBody, type Started, startProcess, stopProcess } from './support/processes.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { quotationBody } from './support/trips.ts';

/**
 * The real server process (`node --import tsx apps/api/src/server.ts`) on PostgreSQL behind a TCP proxy, driven over
 * HTTP by parallel checkouts while the proxy cuts, refuses and freezes the database's connections. A dropped
 * connection must never end the process; every answer is a success or the spec §8 body; the server serves again by
 * itself once the database is back; a frozen database answers within the configured timeouts.
 */

/** Short timeouts, so the suite proves them in seconds (the defaults are longer). */
const timeouts = { connectMs: 1_000, statementMs: 1_500, queryMs: 2_000, idleInTransactionMs: 2_000 };
/** The API's pool of PostgreSQL clients (db/client.ts). */
const poolSize = 10;
/** What a machine under load may add to a configured timeout before the answer arrives. */
const marginMs = 3_000;
/** A request still unanswered after this long is a hang. */
const hangMs = 20_000;

type Server = Started;

/** Starts the server as production does (same entry point, configuration from the environment), ready to serve. */
const startServer = (env: Record<string, string>) => startProcess('server', env);

/** Resolves once `condition` holds; fails after `withinMs`. */
async function until(condition: () => boolean, withinMs = 10_000) {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > withinMs) throw new Error(`still waiting after ${withinMs} ms`);
    await sleep(20);
  }
}

describe('databaseUnavailable: which failures are a 503 (the database cannot serve now)', () => {
  const drizzleWrapped = (cause: unknown) =>
    Object.assign(new Error('Failed query: select "id" from "quotations" where "id" = $1\nparams: 1'), { cause });

  it.each([
    ['Connection terminated unexpectedly', 'connection-lost'],
    ['Client has encountered a connection error and is not queryable', 'connection-lost'],
    ['Connection terminated due to connection timeout', 'connect-timeout'],
    ['timeout exceeded when trying to connect', 'connect-timeout'],
    ['Query read timeout', 'query-timeout'],
  ])('node-postgres "%s", itself or as a query\'s cause → %s', (message, reason) => {
    expect(databaseUnavailable(new Error(message))).toBe(reason);
    expect(databaseUnavailable(drizzleWrapped(new Error(message)))).toBe(reason);
  });

  it.each([
    ['ECONNREFUSED', 'unreachable'],
    ['ECONNRESET', 'unreachable'],
    ['57014', 'statement-timeout'],
    ['08006', 'connection-lost'],
    ['25P03', 'connection-lost'],
    ['57P01', 'shutting-down'],
    ['53300', 'too-many-connections'],
  ])('code %s → %s', (code, reason) => {
    expect(databaseUnavailable(drizzleWrapped(Object.assign(new Error('x'), { code })))).toBe(reason);
  });

  it('a fault of the request or of the code is not: constraint violations, type errors, a message merely quoting', () => {
    expect(databaseUnavailable(drizzleWrapped(Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(
      undefined,
    );
    expect(databaseUnavailable(new TypeError('cannot read properties of undefined'))).toBeUndefined();
    expect(databaseUnavailable(new Error('params: Query read timeout'))).toBeUndefined();
    expect(databaseUnavailable('Query read timeout')).toBeUndefined();
    expect(databaseUnavailable(undefined)).toBeUndefined();
  });
});

// PostgreSQL only: PGlite runs inside the process, there is no connection to lose.
if (databaseKinds.includes('postgres')) {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const databaseName = `travesia_outage_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${databaseName}`);
  });
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  describe('the server while PostgreSQL goes away [postgres]', () => {
    let proxy: TcpProxy;
    let server: Server;
    let dataDir: string;

    beforeAll(async () => {
      const target = new URL(adminUrl);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(adminUrl);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      viaProxy.pathname = `/${databaseName}`;
      dataDir = await mkdtemp(join(tmpdir(), 'travesia-outage-'));
      server = await startServer({
        NODE_ENV: 'production',
        // Dozens of checkouts from this one address: the per-client limits are not what this suite is about.
        RATE_LIMIT_FACTOR: '100',
        PUBLIC_URL: 'http://127.0.0.1:3000',
        COOKIE_SECRET: 'outage-test-cookie-secret-of-32-chars',
        PREVIEW_SECRET: 'a-test-preview-secret-of-32-characters',
        TAX_DOCUMENTS_PROVIDER: 'external',
        // A production deployment keeps the console on a host of its own (config.ts); nothing here opens it.
        BACKOFFICE_ORIGIN: 'https://consola.travesia.invalid',
        RECAPTCHA_SITE_KEY: 'production-site-key',
        RECAPTCHA_SECRET_KEY: 'production-secret-key',
        ...stagingWebpay,
        PAYMENTS_SANDBOX: 'true',
        HOST: '127.0.0.1',
        DATABASE_URL: viaProxy.toString(),
        DATA_DIR: dataDir,
        WEB_BUILD_DIR: join(dataDir, 'no-storefront'),
        WORKER: 'off',
        LOG_LEVEL: 'warn',
        DATABASE_CONNECT_TIMEOUT_MS: String(timeouts.connectMs),
        DATABASE_STATEMENT_TIMEOUT_MS: String(timeouts.statementMs),
        DATABASE_QUERY_TIMEOUT_MS: String(timeouts.queryMs),
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(timeouts.idleInTransactionMs),
      });
    });

    afterAll(async () => {
      await stopProcess(server);
      await proxy?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** One HTTP request to the server; never throws (a failure is what the assertions look at). */
    const send = (step: string, method: string, path: string, body?: ProcessRequestBody) =>
      sendRequest(server.baseUrl, { step, method, path, body, timeoutMs: hangMs });

    /** Every answer the suite got, and every request that got none. */
    const outcomes: Outcome[] = [];
    const failures: string[] = [];
    const record = (sent: Sent): Outcome | undefined => {
      if ('failure' in sent) {
        failures.push(sent.failure);
        return undefined;
      }
      outcomes.push(sent.outcome);
      return sent.outcome;
    };
    /** The answer when it is the expected success; undefined (the journey stops) otherwise. */
    const expectStatus = async (expected: number, sending: Promise<Sent>) => {
      const outcome = record(await sending);
      return outcome?.status === expected ? outcome : undefined;
    };

    const pathOf = (url: string) => {
      const parsed = new URL(url, server.baseUrl);
      return `${parsed.pathname}${parsed.search}`;
    };

    /** A visitor's whole purchase through the sandbox gateway; answers the page it ends on, if it got that far. */
    async function purchase(): Promise<string | undefined> {
      const created = await expectStatus(
        201,
        send('create quotation', 'POST', '/api/quotations/1', { json: quotationBody({ planId: referencePlanId }) }),
      );
      if (!created) return undefined;
      const { id } = JSON.parse(created.text) as { id: string };
      const saved = await expectStatus(
        204,
        send('save passengers', 'PUT', `/api/quotations/${id}/passangers`, { json: passengersBody() }),
      );
      if (!saved) return undefined;
      const invoiced = await expectStatus(
        204,
        send('save invoice details', 'POST', `/api/quotations/${id}/invoice-details`, { json: invoiceBody() }),
      );
      if (!invoiced) return undefined;
      const started = await expectStatus(
        201,
        send('start payment', 'POST', '/api/payments', {
          json: { quotationId: id, gatewayId: 'sandbox', consents: givenConsents },
        }),
      );
      if (!started) return undefined;
      const { redirectUrl } = JSON.parse(started.text) as { redirectUrl: string };
      const decided = await expectStatus(
        303,
        send('sandbox decision', 'POST', pathOf(redirectUrl), { form: 'decision=approve&instalments=3' }),
      );
      if (!decided?.location) return undefined;
      const back = await expectStatus(303, send('payment return', 'GET', pathOf(decided.location)));
      return back?.location ?? undefined;
    }

    /** A visitor who quotes, changes the trip and reads the quotation back. */
    async function requote(): Promise<boolean> {
      const created = await expectStatus(
        201,
        send('create quotation', 'POST', '/api/quotations/1', { json: quotationBody() }),
      );
      if (!created) return false;
      const { id } = JSON.parse(created.text) as { id: string };
      const updated = await expectStatus(
        200,
        send('update quotation', 'PUT', `/api/quotations/1/${id}`, {
          json: quotationBody({ planId: referencePlanId }),
        }),
      );
      if (!updated) return false;
      return (await expectStatus(200, send('read quotation', 'GET', `/api/quotations/1/${id}`))) !== undefined;
    }

    /** Visitors buying and quoting in parallel until told to stop. */
    function startVisitors(count: number) {
      let running = true;
      const visitors = Array.from({ length: count }, async (_, index) => {
        for (let round = 0; running; round += 1) {
          const done = (index + round) % 2 === 0 ? (await purchase()) !== undefined : await requote();
          // A visitor who got an error page waits a moment before trying again.
          if (!done) await sleep(100);
        }
      });
      return async () => {
        running = false;
        await Promise.all(visitors);
      };
    }

    /** A quotation to read while probing whether the server serves. */
    async function aQuotation(): Promise<string> {
      const created = await send('create quotation', 'POST', '/api/quotations/1', { json: quotationBody() });
      if (!('outcome' in created) || created.outcome.status !== 201) throw new Error(JSON.stringify(created));
      return (JSON.parse(created.outcome.text) as { id: string }).id;
    }

    /** Milliseconds until a read of `id` succeeds again, polling; fails after `withinMs`. */
    async function msUntilServing(id: string, withinMs: number): Promise<number> {
      const started = performance.now();
      while (performance.now() - started < withinMs) {
        const sent = record(await send('read quotation', 'GET', `/api/quotations/1/${id}`));
        if (sent?.status === 200) return performance.now() - started;
        await sleep(100);
      }
      throw new Error(`still not serving ${withinMs} ms after the database came back`);
    }

    const expectSound = () => {
      expect(isRunning(server), `the server exited:\n${server.output().slice(-4_000)}`).toBe(true);
      expect(failures, 'requests without an answer').toStrictEqual([]);
      const wrong = outcomes.flatMap((outcome) => {
        const problem = whatIsWrong(outcome);
        return problem ? [`${outcome.step}: ${outcome.status} ${problem}: ${outcome.text.slice(0, 300)}`] : [];
      });
      expect(wrong, 'answers that are neither a success nor a §8 body').toStrictEqual([]);
    };

    it('connections cut under load, then refused: the process stays up, answers 503 §8 bodies, serves again by itself', async () => {
      const probeId = await aQuotation();

      // First a cut under transactions surely in flight on checked-out clients: each waits on its BEGIN, then the
      // connections are cut. (A plain read's client is guarded by pg-pool itself; a transaction's is not.)
      const others = [await aQuotation(), await aQuotation()];
      proxy.freezeWhen('begin');
      const inFlight = [
        send('save passengers', 'PUT', `/api/quotations/${probeId}/passangers`, { json: passengersBody() }),
        send('save passengers', 'PUT', `/api/quotations/${others[0]}/passangers`, { json: passengersBody() }),
        send('update quotation', 'PUT', `/api/quotations/1/${others[1]}`, { json: quotationBody() }),
      ];
      await until(() => proxy.waitingConnections >= inFlight.length);
      proxy.cut();
      await proxy.restore();
      const cutUnder = await Promise.all(inFlight);
      await sleep(200); // an 'error' event without a listener ends the process a moment later
      expect(isRunning(server), `the server exited:\n${server.output().slice(-4_000)}`).toBe(true);
      for (const sent of cutUnder) {
        const outcome = record(sent);
        expect(outcome?.status, outcome?.text).toBe(503);
      }

      const stopVisitors = startVisitors(4);
      await sleep(1_500);

      // Cuts wherever they fall among the visitors' requests.
      for (let cut = 0; cut < 4; cut += 1) {
        await sleep(600);
        proxy.cut();
      }

      // The database is down: every request is a 503 with Retry-After, quickly.
      await proxy.refuse();
      await sleep(300);
      const whileDown = record(await send('read quotation', 'GET', `/api/quotations/1/${probeId}`));
      expect(whileDown?.status, whileDown?.text).toBe(503);
      expect(whileDown?.ms).toBeLessThan(timeouts.connectMs + marginMs);
      // A load balancer asking: the process is alive, but not ready to serve (the §8 503, Retry-After).
      const alive = record(await send('liveness', 'GET', '/api/health'));
      expect(alive?.status, alive?.text).toBe(200);
      const notReady = record(await send('readiness', 'GET', '/api/ready'));
      expect(notReady?.status, notReady?.text).toBe(503);
      expect(notReady?.retryAfter).not.toBeNull();
      await sleep(1_000);

      await proxy.restore();
      const backAfterMs = await msUntilServing(probeId, 5_000);
      const ready = record(await send('readiness', 'GET', '/api/ready'));
      expect(ready?.status, ready?.text).toBe(200);
      await stopVisitors();

      expectSound();
      expect(backAfterMs).toBeLessThan(5_000);
      expect(outcomes.filter((outcome) => outcome.status === 503).length).toBeGreaterThanOrEqual(4);
      // The visitors were really at work, and a purchase goes through again from start to finish.
      expect(outcomes.filter((outcome) => outcome.status < 400).length).toBeGreaterThan(10);
      expect(await purchase()).toMatch(/^\/exito\?venta=\d+&transaccion=\d+$/);
      expectSound();
    });

    it('a frozen database: reads and writes answer 503 within the configured timeouts, then it serves again', async () => {
      const id = await aQuotation();
      // A full pool first (slow answers make parallel reads use every client), so that the frozen requests hold
      // checked-out clients, as under load.
      proxy.delay(100);
      const warmUp = await Promise.all(
        Array.from({ length: poolSize }, () => send('read quotation', 'GET', `/api/quotations/1/${id}`)),
      );
      proxy.delay(0);
      for (const sent of warmUp) expect(record(sent)?.status).toBe(200);
      expect(proxy.liveConnections).toBe(poolSize);

      proxy.freeze();
      // More transactions than the pool has clients: none may keep its client once its BEGIN got no answer.
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, () =>
          send('save passengers', 'PUT', `/api/quotations/${id}/passangers`, { json: passengersBody() }),
        ),
        send('read quotation', 'GET', `/api/quotations/1/${id}`),
        send('create quotation', 'POST', '/api/quotations/1', { json: quotationBody() }),
        send('read company', 'GET', '/api/companies/1'),
      ]);
      // A new connection gives up after the connect timeout, a query sent after the query timeout.
      const bound = Math.max(timeouts.connectMs, timeouts.queryMs) + marginMs;
      for (const sent of answers) {
        const outcome = record(sent);
        expect(outcome?.status, outcome?.text).toBe(503);
        expect(outcome?.ms).toBeLessThan(bound);
      }
      // Still frozen: a new request does not wait behind the stuck ones either.
      const again = record(await send('read quotation', 'GET', `/api/quotations/1/${id}`));
      expect(again?.status).toBe(503);
      expect(again?.ms).toBeLessThan(bound);

      await proxy.restore();
      expect(await msUntilServing(id, 5_000)).toBeLessThan(5_000);
      // The whole pool is back: as many parallel requests as it has clients, and more, all served.
      const afterwards = await Promise.all(
        Array.from({ length: 12 }, () => send('read quotation', 'GET', `/api/quotations/1/${id}`)),
      );
      for (const sent of afterwards) expect(record(sent)?.status).toBe(200);
      expectSound();
    });

    it('transactions whose BEGIN gets no answer give their clients back: the pool serves on meanwhile', async () => {
      const ids = await Promise.all(Array.from({ length: poolSize + 2 }, () => aQuotation()));
      proxy.freezeWhen('begin');
      const saves = await Promise.all(
        ids.map((id) => send('save passengers', 'PUT', `/api/quotations/${id}/passangers`, { json: passengersBody() })),
      );
      for (const sent of saves) {
        const outcome = record(sent);
        expect(outcome?.status, outcome?.text).toBe(503);
        expect(outcome?.ms).toBeLessThan(timeouts.connectMs + timeouts.queryMs + marginMs);
      }
      // Every BEGIN is still unanswered, yet reads get clients: none is held by a transaction that gave up.
      const reads = await Promise.all(ids.map((id) => send('read quotation', 'GET', `/api/quotations/1/${id}`)));
      for (const sent of reads) expect(record(sent)?.status).toBe(200);

      await proxy.restore();
      const saved = record(
        await send('save passengers', 'PUT', `/api/quotations/${ids[0]}/passangers`, { json: passengersBody() }),
      );
      expect(saved?.status, saved?.text).toBe(204);
      expectSound();
    });
  });

  describe('the PostgreSQL timeouts of the pool [postgres]', () => {
    const lost: Error[] = [];
    let database: DatabaseHandle;

    beforeAll(async () => {
      const url = new URL(adminUrl);
      url.pathname = `/${databaseName}`;
      database = await openPostgres(url.toString(), {
        timeouts: { connectMs: 2_000, statementMs: 300, queryMs: 5_000, idleInTransactionMs: 500 },
        onConnectionError: (error) => lost.push(error),
      });
    });
    afterAll(async () => {
      await database?.close();
    });

    // node-postgres' result: the handle's type is the driver-neutral one.
    const selectOne = async () => ((await database.db.execute(sql`select 1 as one`)) as unknown as pg.QueryResult).rows;

    it('statement_timeout: the server cancels a long statement (57014, a 503), and the connection serves on', async () => {
      const started = performance.now();
      const error = await database.db.execute(sql`select pg_sleep(3)`).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(loggableError(error)).toMatchObject({ type: 'DrizzleQueryError', causeCode: '57014' });
      expect(databaseUnavailable(error)).toBe('statement-timeout');
      expect(await selectOne()).toStrictEqual([{ one: 1 }]);
      expect(lost).toStrictEqual([]);
    });

    it('idle_in_transaction_session_timeout: a transaction left open is ended, reported, and its client replaced', async () => {
      const error = await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await sleep(1_500);
          await tx.execute(sql`select 1`);
        })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      expect(databaseUnavailable(error)).toBe('connection-lost');
      expect(lost.map((reported) => loggableError(reported).code)).toContain('25P03');
      expect(await selectOne()).toStrictEqual([{ one: 1 }]);
    });
  });
}
