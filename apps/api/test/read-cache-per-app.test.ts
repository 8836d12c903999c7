import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import { type DatabaseHandle, openPglite } from '#app/db/client.ts';
import { modalities } from '#app/db/schema.ts';
import { get } from './support/http.ts';

/**
 * The catalogue read cache belongs to the app that buildApp made, with that app's CATALOG_CACHE_TTL_MS: two apps
 * built in one process with different settings, even on one database handle, neither share entries nor each
 * other's time to live (it used to be one module-level setting, so the last app built set it for every app).
 */
describe('the catalogue read cache is per app', () => {
  let database: DatabaseHandle;
  let uncached: FastifyInstance;
  let cached: FastifyInstance;
  let sent = 0;

  beforeAll(async () => {
    const dump = await readFile(inject('seededPgliteDump'));
    database = await openPglite({ loadDataDir: new Blob([dump]), onQuery: () => (sent += 1) });
    // The app that must read every time is built first, so a process-wide setting would be the second app's.
    uncached = await buildApp({ config: loadConfig({ NODE_ENV: 'test', CATALOG_CACHE_TTL_MS: '0' }), db: database.db });
    cached = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', CATALOG_CACHE_TTL_MS: '600000' }),
      db: database.db,
    });
    await Promise.all([uncached.ready(), cached.ready()]);
  });
  afterAll(async () => {
    await uncached?.close();
    await cached?.close();
    await database?.close();
  });

  const labelsOf = async (app: FastifyInstance) => {
    const answer = await get(app, '/api/companies/1/modalities');
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ id: number; label: string }[]>().map((modality) => modality.label);
  };
  const queriesOf = async (app: FastifyInstance) => {
    const before = sent;
    await labelsOf(app);
    return sent - before;
  };

  it('CATALOG_CACHE_TTL_MS=0 reads the database on every request while the other app, on the same handle, reads it once', async () => {
    await labelsOf(cached);
    expect(await queriesOf(cached)).toBe(0);
    expect(await queriesOf(uncached)).toBeGreaterThan(0);
    expect(await queriesOf(uncached)).toBeGreaterThan(0);
  });

  it('a catalogue change shows at once on the uncached app and only after its time to live on the cached one', async () => {
    const before = await labelsOf(cached);
    const [first] = await database.db.select().from(modalities).where(eq(modalities.companyId, 1)).limit(1);
    if (!first) throw new Error('the demo seed has no modality');
    await database.db.update(modalities).set({ label: 'Renombrada' }).where(eq(modalities.id, first.id));
    expect(await labelsOf(uncached)).toContain('Renombrada');
    expect(await labelsOf(cached)).toStrictEqual(before);
  });
});
