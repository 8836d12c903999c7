import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '#app/db/client.ts';
import { demoCompany } from '#app/db/seed/demo-company.ts';
import { seedCompany } from '#app/db/seed/index.ts';

/**
 * A brand-new PGlite takes seconds to initialise, so the migrated and seeded database is built once per run
 * and every suite starts from a copy of it.
 */
export default async function setup(project: TestProject) {
  const database = await openPglite({});
  await database.migrate();
  await seedCompany(database.db, demoCompany);
  const dump = await dumpOf(database);
  const path = join(tmpdir(), `travesia-seeded-${process.pid}.tar.gz`);
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('seededPgliteDump', path);
}

async function dumpOf(database: Awaited<ReturnType<typeof openPglite>>) {
  if (!database.dump) throw new Error('PGlite handle cannot dump');
  return database.dump();
}

declare module 'vitest' {
  export interface ProvidedContext {
    seededPgliteDump: string;
  }
}
