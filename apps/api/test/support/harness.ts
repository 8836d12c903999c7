import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { buildApp } from '#app/app.ts';
import { type Config, loadConfig } from '#app/config.ts';
import { type DatabaseHandle, openPglite, openPostgres } from '#app/db/client.ts';
import { adminQuery } from './postgres-admin.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A fresh, migrated database holding the demo company, private to the calling suite: a copy of the one global-setup.ts
 * built for this run (PGlite: its dumped data directory; PostgreSQL: its template database).
 */
export async function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    const dump = await readFile(inject('seededPgliteDump'));
    return openPglite({ loadDataDir: new Blob([dump]) });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  // Unique across the files running at once (each in its own worker process) and across runs sharing the server.
  const name = `travesia_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${inject('seededPostgresTemplate')}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export type TestContext = { app: FastifyInstance; database: DatabaseHandle; config: Config };

/**
 * Runs `suite` once per database kind, each with its own app on its own fresh database.
 * The context object is filled in beforeAll, so read it inside tests.
 */
export function describeOnEachDatabase(
  title: string,
  suite: (context: TestContext, kind: DatabaseKind) => void,
  env: NodeJS.ProcessEnv = {},
  options: { now?: () => Date } = {},
) {
  for (const kind of databaseKinds) {
    describe(`${title} [${kind}]`, () => {
      const context = {} as TestContext;
      beforeAll(async () => {
        // Suites make many calls from one address; the rate-limit tests set RATE_LIMIT_FACTOR back to 1.
        // Tax documents only where a suite asks for them (TAX_DOCUMENTS_PROVIDER: 'local' or a fake OpenFactura).
        context.config = loadConfig({
          NODE_ENV: 'test',
          RATE_LIMIT_FACTOR: '1000',
          TAX_DOCUMENTS_PROVIDER: 'external',
          ...env,
        });
        context.database = await openTestDatabase(kind);
        context.app = await buildApp({ config: context.config, db: context.database.db, now: options.now });
        await context.app.ready();
      });
      afterAll(async () => {
        await context.app?.close();
        await context.database?.close();
      });
      suite(context, kind);
    });
  }
}

/** A real store's Webpay Plus: its environment named, with credentials of its own (not Transbank's public ones). */
export const productionWebpay = {
  WEBPAY_ENVIRONMENT: 'production',
  WEBPAY_COMMERCE_CODE: '597012345678',
  WEBPAY_API_KEY: 'a-production-webpay-api-key',
} as const;

/**
 * A staging deployment's Webpay: Transbank's integration environment with credentials of its own, so its payments
 * are test payments and the sandbox may run beside it (a production Webpay refuses the sandbox).
 */
export const stagingWebpay = { ...productionWebpay, WEBPAY_ENVIRONMENT: 'integration' } as const;

/** The least a production deployment needs (config.ts refuses to start without each of these). */
export const productionEnv: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://tienda.travesia.cl',
  BACKOFFICE_ORIGIN: 'https://consola.travesia.cl',
  COOKIE_SECRET: 'x'.repeat(32),
  RECAPTCHA_SITE_KEY: 'production-site-key',
  PREVIEW_SECRET: 'a-production-preview-secret-of-32-chars',
  RECAPTCHA_SECRET_KEY: 'production-secret-key',
  TAX_DOCUMENTS_PROVIDER: 'external',
  ...productionWebpay,
};
