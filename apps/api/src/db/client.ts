import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type DatabaseTimeouts, defaultDatabaseTimeouts } from '#app/config.ts';
import * as schema from './schema.ts';
import { databaseUnavailable } from './unavailable.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Brings the schema up to date, then runs `setup` (the demo seed) if given, on one connection holding the start-up
   * lock: instances starting at once on PostgreSQL take turns, so each finds the schema and the seed either absent
   * or complete. Safe to run on every start.
   */
  migrate(setup?: (db: Database) => Promise<void>): Promise<void>;
  close(): Promise<void>;
  /**
   * PGlite only: the whole data directory as an uncompressed tarball (~40 MB), to start other instances from (tests):
   * loading it skips a gunzip, about 40 % of each copy's opening time.
   */
  dump?(): Promise<Blob>;
};

/** Beside this file in the sources, beside server.js in the bundle (the build copies the folder). */
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export class DatabaseStartError extends Error {}

/**
 * The PostgreSQL advisory lock that migrations and the seed run under ("travesia" in ASCII, as a bigint). Advisory
 * locks are per database, so only another application sharing the database could pick the same number.
 */
const startupLockKey = '8390891540925867361';

/** The largest value of an `integer` column: a larger id names no row (and must not reach the database). */
export const maxIntegerId = 2_147_483_647;

/** Shows where we tried to connect without leaking a password into logs. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured DATABASE_URL';
  }
}

export type PostgresOptions = {
  timeouts?: DatabaseTimeouts;
  /** Told about every connection the server or the network drops (to log it); the pool replaces it by itself. */
  onConnectionError?: (error: Error) => void;
};

/**
 * A client that closes its connection when a query gets no answer in time (query_timeout). node-postgres would keep
 * the connection waiting for that answer, so every later query on it would time out too.
 */
class Client extends pg.Client {
  // `any`: it forwards each of pg's query overloads unchanged.
  // biome-ignore lint/suspicious/noExplicitAny: forwards pg's overloads unchanged
  override query(...args: any[]): any {
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const result = (super.query as (...forwarded: any[]) => any)(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (databaseUnavailable(error) === 'query-timeout') void this.end().catch(() => {});
      });
    }
    return result;
  }
}

/**
 * A pool that survives its connections dying. pg emits 'error' on a checked-out client whose connection drops, and
 * an 'error' event nobody listens to ends the process, so every client gets a listener. drizzle-orm does not release
 * a client whose transaction's BEGIN failed (lost connection, query timeout): a client whose connection ends while
 * still checked out is released here, or the pool would run out of clients for good.
 */
function resilientPool(url: string, timeouts: DatabaseTimeouts, onConnectionError: (error: Error) => void) {
  const pool = new pg.Pool({
    connectionString: url,
    Client,
    max: 10,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // TCP keep-alive notices a peer that vanished without closing (a crashed host, a dropped route).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', onConnectionError);
    client.once('end', () => {
      if (!checkedOut.has(client)) return;
      const release = client.release;
      // Its holder may still release it (drizzle's finally): that second release must do nothing.
      client.release = () => {};
      release(new Error('Connection terminated'));
    });
  });
  // Errors of idle clients are also the clients' own 'error' events, reported above; the pool drops those clients.
  pool.on('error', () => {});
  return pool;
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<DatabaseHandle> {
  const timeouts = options.timeouts ?? defaultDatabaseTimeouts;
  const pool = resilientPool(url, timeouts, options.onConnectionError ?? (() => {}));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseStartError(`Cannot connect to PostgreSQL at ${describeDatabaseUrl(url)}: ${reason}`);
  }
  const db = drizzleNodePg({ client: pool, schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    migrate: (setup) => migratePostgres(url, timeouts, setup),
    close: () => pool.end(),
  };
}

/**
 * Migrations run on a connection of their own, without the statement and query timeouts of the API's requests: a
 * migration that rewrites a large table may take minutes, and an instance waits for the lock as long as another
 * one migrates. The lock is the session's: it goes when the connection ends, however this one ends (a process
 * killed mid-migration included; its migration's transaction is rolled back).
 */
async function migratePostgres(url: string, timeouts: DatabaseTimeouts, setup?: (db: Database) => Promise<void>) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs });
  client.on('error', () => {}); // a dropped connection fails the migration's query, which start-up reports
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [startupLockKey]);
    const db = drizzleNodePg({ client, schema });
    await migrateNodePg(db, { migrationsFolder });
    await setup?.(db as unknown as Database);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Counts or inspects the SQL a handle sends (tests and benchmarks measure queries per request with it). */
export type QueryListener = (sql: string) => void;

/**
 * PGlite keeps its buffers inside the process's WebAssembly memory, which never shrinks. The stock 128 MB of shared
 * buffers would hold the demo company many times over; 16 MB keeps every hot page cached (catalogue reads are also
 * cached above the database) and takes the store's resident memory after start from ~340 to ~230 MB.
 */
const pgliteSettings = ['shared_buffers=16MB'];

/**
 * A new data directory is made by PostgreSQL's initdb, which PGlite runs as a second WebAssembly program; the ~500 MB
 * it touches would stay resident for the life of the process (WebAssembly memory is never given back). It runs in a
 * short-lived child process instead, and this process then opens the finished directory.
 */
async function createPgliteDataDirElsewhere(dataDir: string, compiler: PgliteCompiler) {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `import { PGlite } from ${JSON.stringify(pglite)};
const db = await PGlite.create({ dataDir: process.argv[1] });
await db.close();`;
  const flags = compiler === 'baseline' ? [liftoffOnly] : [];
  await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', script, dataDir], {
    timeout: 120_000,
  });
}

/** `baseline`: V8 compiles PGlite's WebAssembly with Liftoff only (PGLITE_COMPILER, config.ts). */
export type PgliteCompiler = 'baseline' | 'optimizing';
const liftoffOnly = '--liftoff-only';

/**
 * V8's optimising tier recompiles PostgreSQL's hot WebAssembly functions in the background, and its code and
 * compilation memory stay resident: about 60 MB of the store's memory after start, for SQL ~20 % faster once warm.
 * The hot pages are served from the read cache with no SQL, so the embedded database compiles with Liftoff only
 * unless asked. The flag is read when a module is compiled, so it must be set before PGlite compiles its own.
 */
function chooseWasmCompiler(compiler: PgliteCompiler) {
  setFlagsFromString(compiler === 'baseline' ? liftoffOnly : '--no-liftoff-only');
}

export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob;
  onQuery?: QueryListener;
  compiler?: PgliteCompiler;
}): Promise<DatabaseHandle> {
  const compiler = options.compiler ?? 'baseline';
  chooseWasmCompiler(compiler);
  // Loaded here, not at start-up: a store on PostgreSQL never holds PGlite or its drizzle driver (issue #10's memory).
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  let client: PGlite;
  try {
    if (options.dataDir) {
      await mkdir(options.dataDir, { recursive: true });
      if (!options.loadDataDir) await createPgliteDataDirElsewhere(options.dataDir, compiler);
    }
    client = await PGlite.create({
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir,
      postgresqlconf: pgliteSettings,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseStartError(`Cannot open the embedded database in ${options.dataDir ?? 'memory'}: ${reason}`);
  }
  const { onQuery } = options;
  const db = drizzlePglite({
    client,
    schema,
    ...(onQuery ? { logger: { logQuery: (sql: string) => onQuery(sql) } } : {}),
  });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    // One process has the embedded database to itself: nobody to take turns with.
    migrate: async (setup) => {
      await migratePglite(db, { migrationsFolder });
      await setup?.(db as unknown as Database);
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  };
}

export function openDatabase(
  config: {
    databaseUrl: string | undefined;
    dataDir: string;
    pgliteCompiler?: PgliteCompiler;
    database: DatabaseTimeouts;
  },
  options: Omit<PostgresOptions, 'timeouts'> = {},
): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { ...options, timeouts: config.database })
    : openPglite({ dataDir: config.dataDir, compiler: config.pgliteCompiler ?? 'baseline' });
}
