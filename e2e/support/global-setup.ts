import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../../apps/api/src/db/client.ts';
import { demoCompany } from '../../apps/api/src/db/seed/demo-company.ts';
import { seedCompany } from '../../apps/api/src/db/seed/index.ts';

/** Where the seeded store's dump is: set here, read by each worker's storefront fixture (support/fixtures.ts). */
export const seededStoreDumpVariable = 'TRAVESIA_E2E_SEEDED_DUMP';

/**
 * Migrates and seeds one in-memory store and dumps its data directory, once per run: each worker's storefront loads
 * that dump instead of initialising, migrating and seeding a database of its own.
 */
export default async function globalSetup() {
  const database = await openPglite({});
  await database.migrate();
  await seedCompany(database.db, demoCompany);
  if (!database.dump) throw new Error('PGlite handle cannot dump');
  const path = join(tmpdir(), `travesia-e2e-seeded-${process.pid}.tar`);
  await writeFile(path, Buffer.from(await (await database.dump()).arrayBuffer()));
  await database.close();
  // Workers inherit the runner's environment.
  process.env[seededStoreDumpVariable] = path;
  return async () => {
    await rm(path, { force: true });
  };
}
