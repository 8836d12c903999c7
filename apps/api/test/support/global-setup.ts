import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '#app/db/client.ts';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { seedCompany } from '#app/db/seed/index.ts';
import { adminQuery } from './postgres-admin.ts';

/**
 * Migrating and seeding a database takes seconds (a new PGlite initialises, ~21 migrations, the demo company), so
 * each engine's migrated and seeded database is built once per run, through the real migrate path, and every suite
 * starts from a copy of it: PGlite loads the dumped data directory, PostgreSQL copies a template database
 * (`CREATE DATABASE … TEMPLATE`, ~0.2 s instead of ~3 s). Tests of the migrations themselves migrate their own.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${project.name.replace(/\W/g, '_')}`;
  const pglitePath = join(tmpdir(), `travesia-seeded-${runId}.tar`);
  await writeFile(pglitePath, await seededPgliteDump());
  project.provide('seededPgliteDump', pglitePath);

  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = adminUrl ? `travesia_template_${runId}` : '';
  if (adminUrl) await createSeededTemplate(adminUrl, template);
  project.provide('seededPostgresTemplate', template);

  return async () => {
    await rm(pglitePath, { force: true });
    if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  };
}

async function seededPgliteDump(): Promise<Buffer> {
  const database = await openPglite({});
  try {
    await database.migrate();
    await seedCompany(database.db, demoCompany);
    if (!database.dump) throw new Error('PGlite handle cannot dump');
    return Buffer.from(await (await database.dump()).arrayBuffer());
  } finally {
    await database.close();
  }
}

async function createSeededTemplate(adminUrl: string, template: string) {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const database = await openPostgres(url.toString());
  try {
    await database.migrate();
    await seedCompany(database.db, demoCompany);
  } finally {
    // A template is copied only while nobody is connected to it.
    await database.close();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the tarred data directory of a migrated PGlite holding the demo company. */
    seededPgliteDump: string;
    /** Name of the migrated PostgreSQL database holding the demo company ('' without TEST_DATABASE_URL). */
    seededPostgresTemplate: string;
  }
}
