import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, type DatabaseHandle, DatabaseStartError, openDatabase } from './db/client.ts';
import { databaseUnavailable } from './db/unavailable.ts';
import { createDocumentStore } from './integrations/document-store/index.ts';
import { loggableError } from './lib/loggable-error.ts';
import { moveDocumentsToStore } from './modules/claims/documents-migration.ts';
import { stopTracing } from './observability/tracing.ts';

/**
 * A command-line tool's configuration and database (`npm run refunds`, `npm run operators`): those a test hands it,
 * else the environment's, opened and migrated like the server's, with a logger that says only warnings.
 */
export async function openCliDatabase(opened?: { db: Database; config: Config }) {
  const config = opened?.config ?? loadConfig();
  const log = pino({ level: 'warn' });
  const database = opened
    ? { db: opened.db, close: async () => {} }
    : await openMigratedDatabase(config, { log: () => log });
  return { config, log, database };
}

/**
 * What the server and the worker both do first: open the configured database and migrate it, then run `setup` (the
 * demo seed), under the start-up lock. Lost connections are logged by whatever `log()` answers by then: the logger
 * may come later (the server's comes with its app); until then a lost connection is simply replaced.
 */
export async function openMigratedDatabase(
  config: Config,
  options: { log: () => FastifyBaseLogger | undefined; setup?: (db: Database) => Promise<void> },
): Promise<DatabaseHandle> {
  const database = await openDatabase(config, {
    onConnectionError: (error) => {
      // pg's socket frames say nothing the reason does not.
      const { stack: _frames, ...safe } = loggableError(error);
      options.log()?.warn({ reason: databaseUnavailable(error), error: safe }, 'database connection lost');
    },
  });
  try {
    // The document store next: one that cannot be written is a start-up error, not a failed upload later.
    const store = await checkedDocumentStore(config);
    await database.migrate(async (db) => {
      // Documents of before the store, still in the database, move to it once the schema allows (under the lock).
      const moved = await moveDocumentsToStore(db, store);
      if (moved > 0) console.log(`Moved ${moved} refund document(s) from the database to the ${store.location}.`);
      await options.setup?.(db);
    });
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}

/** The configured document store cannot be reached or written (config.ts DOCUMENT_STORE). */
export class DocumentStoreStartError extends Error {}

/** The configured document store, once it has answered a write (DocumentStoreStartError, naming it, otherwise). */
export async function checkedDocumentStore(config: Config) {
  const store = createDocumentStore(config.documents);
  await store.check().catch((error: unknown) => {
    throw new DocumentStoreStartError(
      `Cannot use the document store (${store.location}): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return store;
}

/** Runs a process's main: a start-up problem is one clear line and exit code 1, not a stack trace. */
export function runMain(name: string, main: () => Promise<void>) {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DatabaseStartError || error instanceof DocumentStoreStartError)
      console.error(`Error: ${error.message}`);
    else console.error(`Error: ${name} could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

/**
 * On the first SIGTERM or SIGINT: `close` (stop taking work, finish what is in flight, close the database), then exit
 * 0. The same signal again ends the process at once.
 */
export function closeOnSignal(log: FastifyBaseLogger, close: () => Promise<void>) {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received, closing`);
    close()
      .then(stopTracing)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ error: loggableError(error) }, 'closing failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
