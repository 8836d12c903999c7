import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite, openPostgres } from '#app/db/client.ts';
import { jobs } from '#app/db/schema.ts';
import { certificateEmailKind, certificateMessageId } from '#app/modules/certificates/service.ts';
import { enqueue } from '#app/modules/jobs/service.ts';
import { databaseKinds } from './support/harness.ts';

/**
 * Migration 0006 on a database that used the certificate e-mail outbox: every row moves into the job queue with its
 * id (the e-mail's Message-ID is made from it), status, attempts, schedule, error and dedupe key, and the outbox goes.
 */

const migrationsFolder = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
const firstJobsMigration = '0006_jobs_queue';
const saleId = 123_456_789;
const quotationId = '5b0d7c1e-2f7a-4c55-9a43-6f1d9c0b8e21';
const sentAt = '2026-05-04T03:02:01.000Z';
const retryAt = '2026-05-04T05:00:00.000Z';

/** The migrations folder as it was before the job queue: the journal ends before `firstJobsMigration`. */
async function migrationsBeforeJobs(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'travesia-migrations-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === firstJobsMigration);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

for (const kind of databaseKinds) {
  describe(`Migration ${firstJobsMigration}: the e-mail outbox becomes the job queue [${kind}]`, () => {
    let database: DatabaseHandle;
    let dropDatabase = async () => {};

    beforeAll(async () => {
      const oldMigrations = await migrationsBeforeJobs();
      if (kind === 'pglite') {
        database = await openPglite({});
        await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: oldMigrations });
      } else {
        const adminUrl = process.env.TEST_DATABASE_URL ?? '';
        const name = `travesia_jobs_migration_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
        const admin = async (statement: string) => {
          const client = new pg.Client({ connectionString: adminUrl });
          await client.connect();
          await client.query(statement).finally(() => client.end());
        };
        await admin(`CREATE DATABASE ${name}`);
        dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        database = await openPostgres(url.toString());
        await migrateNodePg(database.db as unknown as NodePgDatabase, { migrationsFolder: oldMigrations });
      }
      await rm(oldMigrations, { recursive: true, force: true });

      // A paid sale with its three outbox e-mails: one waiting for a retry, one sent, one given up.
      // The catalogue as the schema of that time holds it (today's seed writes columns added later).
      await database.db.execute(sql`
        INSERT INTO companies (id, name, legal_name, rut, address)
        VALUES (1, 'Travesía', 'Travesía Asistencia en Viaje SpA', '77.345.678-K', 'Santiago')`);
      await database.db.execute(sql`INSERT INTO origins (id, company_id, label) VALUES (1, 1, 'Chile')`);
      await database.db.execute(
        sql`INSERT INTO destinations (id, company_id, code, label) VALUES (1, 1, 'EU', 'Europa')`,
      );
      await database.db.execute(sql`
        INSERT INTO modalities (id, company_id, code, label, add_days, return_date_enabled, return_add_days, min_days, max_days)
        VALUES (1, 1, 'V', 'Por viaje', 0, true, 0, 1, 180)`);
      await database.db.execute(sql`INSERT INTO products (id, company_id, code, label) VALUES (1, 1, 'P', 'Plan')`);
      await database.db.execute(sql`
        INSERT INTO quotations (id, company_id, origin_id, destination_id, modality_id, departure_date, return_date)
        SELECT ${quotationId}, 1, min(o.id), min(d.id), min(m.id), '2027-01-10', '2027-01-19'
        FROM origins o, destinations d, modalities m`);
      await database.db.execute(sql`
        INSERT INTO sales (id, company_id, quotation_id, product_id, amount_usd_cents, amount_clp, status)
        SELECT ${saleId}, 1, ${quotationId}, min(id), 8500, 80625, 'paid' FROM products`);
      await database.db.execute(sql`
        INSERT INTO outbox_emails (id, kind, sale_id, dedupe_key, status, attempts, run_after, last_error, sent_at)
        VALUES
          (7, 'certificate', ${saleId}, ${`certificate:auto:${saleId}`}, 'pending', 1, ${retryAt}, 'timeout', NULL),
          (8, 'certificate', ${saleId}, ${`certificate:manual:${saleId}:1`}, 'sent', 1, ${sentAt}, NULL, ${sentAt}),
          (9, 'certificate', ${saleId}, ${`certificate:manual:${saleId}:2`}, 'failed', 5, ${retryAt}, 'refused', NULL)`);

      await database.migrate();
    });

    afterAll(async () => {
      await database?.close();
      await dropDatabase();
    });

    it('every outbox row is a certificate-email job with its id, status, attempts, schedule, error and key', async () => {
      const rows = await database.db.select().from(jobs).orderBy(asc(jobs.id));
      expect(
        rows.map((row) => [
          row.id,
          row.kind,
          row.payload,
          row.dedupeKey,
          row.status,
          row.attempts,
          row.runAfter.toISOString(),
          row.lastError,
        ]),
      ).toStrictEqual([
        [7, 'certificate-email', { saleId }, `certificate:auto:${saleId}`, 'pending', 1, retryAt, 'timeout'],
        [8, 'certificate-email', { saleId }, `certificate:manual:${saleId}:1`, 'done', 1, sentAt, null],
        [9, 'certificate-email', { saleId }, `certificate:manual:${saleId}:2`, 'failed', 5, retryAt, 'refused'],
      ]);
      expect(rows[0]?.kind).toBe(certificateEmailKind);
      expect(rows[1]?.updatedAt.toISOString()).toBe(sentAt);
    });

    it('the waiting e-mail keeps the Message-ID the outbox gave it, so a second copy is the same message', () => {
      expect(certificateMessageId(7, 'Travesía <certificados@travesia.cl>')).toBe('<outbox-7@travesia.cl>');
    });

    it('new jobs are numbered after the moved ones, the dedupe keys still hold, and the outbox table is gone', async () => {
      expect(await enqueue(database.db, certificateEmailKind, { saleId }, `certificate:manual:${saleId}:3`)).toBe(true);
      const [last] = await database.db.select({ id: jobs.id }).from(jobs).orderBy(sql`${jobs.id} desc`).limit(1);
      expect(last?.id).toBe(10);
      expect(await enqueue(database.db, certificateEmailKind, { saleId }, `certificate:auto:${saleId}`)).toBe(false);
      const result = await database.db.execute(sql`SELECT to_regclass('outbox_emails')::text AS outbox`);
      expect((result as unknown as { rows: { outbox: string | null }[] }).rows).toStrictEqual([{ outbox: null }]);
    });
  });
}
