import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PassengerType } from '../../packages/domain/src/ids.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const serverEntry = join(root, 'apps/api/dist/server.js');
const webBuild = join(root, 'apps/web/build/server/index.js');
const instrument = new URL('./instrument.mjs', import.meta.url).href;

export type DatabaseKind = 'pglite' | 'postgres';

/** PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL names a server (a fresh database is made on it), else PGlite. */
export function benchDatabaseUrl(): string | undefined {
  return process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

export type BenchServer = {
  kind: DatabaseKind;
  base: string;
  /** Asks the instrumented process (bench/support/instrument.mjs). */
  ask<T>(type: string, payload?: Record<string, unknown>): Promise<T>;
  stats(): Promise<{ statements: number; rss: number }>;
  stop(): Promise<void>;
};

export function requireBuild() {
  if (!existsSync(serverEntry) || !existsSync(webBuild)) {
    throw new Error('No build: run `npm run build` first (the bench:* scripts do)');
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A brand-new database on the server `adminUrl` names, dropped by the answer's `drop`. */
export async function freshPostgres(adminUrl: string) {
  const name = `travesia_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * Starts the built store (`node apps/api/dist/server.js`, as `npm start` does, with NODE_ENV=production) on a fresh
 * database of `kind`, with the bench's instrumentation preloaded. Answers once it says it is ready.
 */
export async function startServer(kind: DatabaseKind): Promise<BenchServer> {
  requireBuild();
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'travesia-bench-'));
  const adminUrl = benchDatabaseUrl();
  if (kind === 'postgres' && !adminUrl) throw new Error('PostgreSQL needs BENCH_DATABASE_URL or DATABASE_URL');
  const postgres = kind === 'postgres' && adminUrl ? await freshPostgres(adminUrl) : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    COOKIE_SECRET: 'bench-only-cookie-secret-with-32-characters',
    // Production signs the console's preview links with it (issue 25); the bench opens none.
    PREVIEW_SECRET: 'bench-only-preview-secret-with-32-characters',
    // A production deployment keeps the console on a host of its own (config.ts); nothing here opens it.
    BACKOFFICE_ORIGIN: 'https://consola.travesia.invalid',
    // Production refuses Google's test keys; the bench never submits the contact form.
    RECAPTCHA_SITE_KEY: 'bench-site-key-never-used',
    RECAPTCHA_SECRET_KEY: 'bench-secret-key-never-used',
    // Production names who issues tax documents (issue 26); the bench sells nothing.
    TAX_DOCUMENTS_PROVIDER: 'external',
    // Production names its Webpay (issue 22); the bench never pays, so these reach no gateway.
    WEBPAY_ENVIRONMENT: 'production',
    WEBPAY_COMMERCE_CODE: '597000000001',
    WEBPAY_API_KEY: 'bench-webpay-api-key-never-used',
    RATE_LIMIT_FACTOR: '100000',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  if (postgres) env.DATABASE_URL = postgres.url;

  const child: ChildProcess = spawn(process.execPath, ['--import', instrument, serverEntry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const cleanup = async () => {
    await rm(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the store did not start within 180 s:\n${output}`)), 180_000);
      const onData = () => {
        if (output.includes('is ready at')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the store exited (${code}) while starting:\n${output}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    await cleanup();
    throw error;
  }

  let nextId = 0;
  const ask = <T>(type: string, payload: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      nextId += 1;
      const id = nextId;
      const onMessage = (message: { id?: number; error?: string }) => {
        if (message?.id !== id) return;
        child.off('message', onMessage);
        if (message.error) reject(new Error(message.error));
        else resolve(message as T);
      };
      child.on('message', onMessage);
      child.send({ id, type, ...payload });
    });

  return {
    kind,
    base: `http://127.0.0.1:${port}`,
    ask,
    stats: () => ask('stats'),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      await cleanup();
    },
  };
}

/** Chile → Europe, 10 days leaving in 10, 2 adults (0–74) + 1 senior (75–84), plan 411 chosen. */
export function quotationBody(departureDate: string, returnDate: string) {
  return {
    origin: 1,
    destination: 3,
    modality: 1,
    departureDate,
    returnDate,
    passangerTypes: [
      { passengerTypeId: PassengerType.upTo74, quantity: 2 },
      { passengerTypeId: PassengerType.from75To84, quantity: 1 },
    ],
    planId: 411,
  };
}

/** Creates the quotation every page and call of the benchmarks uses; answers its id. */
export async function createQuotation(base: string, body: ReturnType<typeof quotationBody>): Promise<string> {
  const answer = await fetch(`${base}/api/quotations/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`creating the quotation: HTTP ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { id: string }).id;
}
