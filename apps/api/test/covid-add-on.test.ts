import { mkdtempSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DatabaseHandle, openPglite, openPostgres } from '#app/db/client.ts';
import { addOns } from '#app/db/schema.ts';
import { covidAddOn } from '#app/modules/plans/covid-add-on.ts';
import type { PlanPrices } from '#app/modules/plans/prices.ts';
import { listProductsByIds, replacePrices } from '#app/modules/plans/repository.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { databaseKinds, describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';
import { adminQuery } from './support/postgres-admin.ts';
import { searchParams, searchUrl } from './support/trips.ts';

/**
 * Issue 27 §1: the covid upgrade is the add-on `covid` of every company, priced per plan (`plan_prices`), while the
 * store answers exactly as when the fee was a column of the plan (plans.test.ts, covid-upgrade-price.test.ts and
 * publishing-prices.test.ts keep proving those answers).
 */

const covidOf = (companyId: number) => and(eq(addOns.companyId, companyId), eq(addOns.code, 'covid'));

async function covidRow(db: Database, companyId = 1) {
  const [row] = await db.select().from(addOns).where(covidOf(companyId));
  return row;
}

type Item = { live: PlanPrices; draft: { version: number } | null };
const pricesPath = (planId: number, rest = '') => `/api/backoffice/prices/${planId}${rest}`;

async function livePrices(ctx: TestContext, operator: Operator, planId: number) {
  const answer = await asOperator(ctx, operator, 'GET', pricesPath(planId));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Item>();
}

/** Saves the prices as the plan's draft and publishes them now, as the console does. */
async function publish(ctx: TestContext, operator: Operator, planId: number, change: Partial<PlanPrices>) {
  const item = await livePrices(ctx, operator, planId);
  const saved = await asOperator(ctx, operator, 'PUT', pricesPath(planId, '/draft'), {
    body: { ...item.live, ...change },
    baseVersion: item.draft?.version ?? 0,
  });
  expect(saved.status, saved.text).toBe(200);
  const published = await asOperator(ctx, operator, 'POST', pricesPath(planId, '/publish'), {
    baseVersion: saved.json<{ version: number }>().version,
  });
  expect(published.status, published.text).toBe(200);
}

type ListingPlan = { id: number; isCovidupgrade: boolean; covidUpgradeAvailable: boolean; montoCovid: number };

async function listing(ctx: TestContext, upgradeCovid: boolean) {
  const answer = await get(ctx.app, searchUrl(searchParams({ upgradeCovid: String(upgradeCovid) })));
  expect(answer.status).toBe(200);
  return answer.json<ListingPlan[]>();
}

const clock = new TestClock();

describeOnEachDatabase(
  'the covid upgrade as an add-on (issue 27 §1)',
  (ctx, kind) => {
    let pricing: Operator;
    beforeAll(async () => {
      pricing = await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], clock);
    });

    it("the seed gives the demo company its covid add-on: the spec's upgrade modal table, the plans' fees", async () => {
      const covid = await covidRow(ctx.database.db);
      expect(covid).toMatchObject({
        name: 'Upgrade covid',
        description: covidAddOn.description,
        pricing: 'daily',
        priceCentsPerDay: null,
        planPercentBp: null,
        planPrices: { 410: 90, 411: 110, 412: 130, 413: 150 },
        productIds: [410, 411, 412, 413],
        passengerTypeIds: [],
        modalityIds: [],
        destinationIds: [],
        active: true,
      });
      // The seven rows of spec §3's upgrade modal, in its order, worded as the storefront's modal (UpgradeCovid.tsx).
      expect(covid?.benefits).toStrictEqual(covidAddOn.benefits);
      expect(covid?.benefits.map((benefit) => benefit.value)).toStrictEqual([
        'USD 3.000',
        'Hasta USD 3.000',
        'USD 180 por día, hasta USD 3.000',
        'USD 2.000',
        'Hasta USD 1.500',
        'USD 180 por día, hasta USD 1.000',
        'USD 10.000',
      ]);
      // The plans read their fee from it.
      const plans = await listProductsByIds(ctx.database.db, [410, 413, 414, 418]);
      expect(new Map(plans.map((plan) => [plan.id, plan.covidFeeCentsPerDay]))).toStrictEqual(
        new Map([
          [410, 90],
          [413, 150],
          [414, null],
          [418, null],
        ]),
      );
    });

    it("a price publish sets the plan's entry (and the storefront prices it at once); null takes the plan out", async () => {
      await publish(ctx, pricing, 418, { covidFeeCentsPerDay: 100 });
      expect(await covidRow(ctx.database.db)).toMatchObject({
        planPrices: { 410: 90, 411: 110, 412: 130, 413: 150, 418: 100 },
        productIds: [410, 411, 412, 413, 418],
      });
      expect((await livePrices(ctx, pricing, 418)).live.covidFeeCentsPerDay).toBe(100);
      const upgraded = (await listing(ctx, true)).find((plan) => plan.id === 418);
      // 100 ¢ × 3 travellers × 10 days (searchParams' trip)
      expect(upgraded).toMatchObject({ isCovidupgrade: true, covidUpgradeAvailable: true, montoCovid: 30 });

      await publish(ctx, pricing, 418, { covidFeeCentsPerDay: null });
      await publish(ctx, pricing, 410, { covidFeeCentsPerDay: 95 });
      expect(await covidRow(ctx.database.db)).toMatchObject({
        planPrices: { 410: 95, 411: 110, 412: 130, 413: 150 },
        productIds: [410, 411, 412, 413],
      });
      const plans = await listing(ctx, true);
      expect(plans.find((plan) => plan.id === 418)).toMatchObject({
        isCovidupgrade: false,
        covidUpgradeAvailable: false,
      });
      expect((await get(ctx.app, '/api/companies/1/covid-upgrade')).json()).toMatchObject({
        perPassengerPerDay: { fromUsd: '0.95', toUsd: '1.50' },
      });
      // Back to the seed's fee for the tests after.
      await publish(ctx, pricing, 410, { covidFeeCentsPerDay: 90 });
    });

    it('plan prices are whole, non-negative cents of plan ids; a percent add-on has none', async () => {
      const { db } = ctx.database;
      const base = { companyId: 1, name: 'Por plan', pricing: 'daily' as const };
      for (const [index, planPrices] of [
        { 410: -1 },
        { 410: 1.5 },
        { 410: '90' },
        { plan: 90 },
        { 410: 10_000_001 },
      ].entries()) {
        await expect(
          db
            .insert(addOns)
            .values({ ...base, code: `bad-${index}`, planPrices: planPrices as unknown as Record<string, number> }),
        ).rejects.toThrow();
      }
      await expect(
        db.insert(addOns).values({ ...base, code: 'array', planPrices: sql`'[]'::jsonb` }),
      ).rejects.toThrow();
      await expect(
        db
          .insert(addOns)
          .values({ ...base, code: 'percent', pricing: 'percent', planPercentBp: 1000, planPrices: { 410: 100 } }),
      ).rejects.toThrow();
      // Priced per plan only, or per plan over a price per day: both fine.
      await expect(db.insert(addOns).values({ ...base, code: 'only', planPrices: { 410: 0 } })).resolves.toBeDefined();
      await expect(
        db.insert(addOns).values({ ...base, code: 'both', priceCentsPerDay: 200, planPrices: { 413: 300 } }),
      ).resolves.toBeDefined();
      // Neither a price per day nor plan prices: refused (only the covid add-on may be left with no plan).
      await expect(db.insert(addOns).values({ ...base, code: 'empty' })).rejects.toThrow();
      await db.delete(addOns).where(and(eq(addOns.companyId, 1), sql`${addOns.code} in ('only', 'both')`));
    });

    // Row locks and parallel transactions are the server's (PGlite runs one statement at a time).
    if (kind === 'postgres') {
      it("publishes of different plans at once keep each other's entry, round after round", async () => {
        const plans = [410, 411, 412, 413, 418];
        for (let round = 1; round <= 8; round += 1) {
          // Each round every plan gets its own new fee, or (every third round, some plans) none.
          const fees = plans.map((_, index) => ((round + index) % 3 === 0 ? null : 100 * round + index));
          await Promise.all(
            plans.map((planId, index) => publish(ctx, pricing, planId, { covidFeeCentsPerDay: fees[index] ?? null })),
          );
          const expected = Object.fromEntries(
            plans.flatMap((planId, index) => (fees[index] === null ? [] : [[String(planId), fees[index]]])),
          );
          const covid = await covidRow(ctx.database.db);
          expect(covid?.planPrices, `round ${round}`).toStrictEqual(expected);
          expect(covid?.productIds, `round ${round}`).toStrictEqual(plans.filter((_, index) => fees[index] !== null));
        }
      }, 120_000);

      it('the same, straight on the repository in parallel transactions: no entry is ever lost', async () => {
        const { db } = ctx.database;
        const plans = [410, 411, 412, 413, 414, 418];
        for (let round = 1; round <= 25; round += 1) {
          await Promise.all(
            plans.map((planId, index) =>
              db.transaction(async (tx) => {
                const rates = await tx.execute(
                  sql`select destination_id as "destinationId", passenger_type_id as "passengerTypeId", min_days as "minDays", rate_cents as "rateCents" from product_rates where product_id = ${planId}`,
                );
                await replacePrices(tx, planId, {
                  promotionBp: 0,
                  covidFeeCentsPerDay: round * 10 + index,
                  rates: (rates as unknown as { rows: PlanPrices['rates'] }).rows,
                });
              }),
            ),
          );
          const covid = await covidRow(db);
          expect(covid?.planPrices, `round ${round}`).toStrictEqual(
            Object.fromEntries(plans.map((planId, index) => [String(planId), round * 10 + index])),
          );
          expect(covid?.productIds).toStrictEqual(plans);
        }
      }, 120_000);
    }
  },
  {},
  { now: clock.now },
);

/**
 * Migration 0043 replayed on a store of the version before it: every migration before it on a new database, plans
 * with and without a covid fee in that version's column, then the rest of the migrations.
 */
describe('migration 0043: the plans’ covid fees move into each company’s covid add-on', () => {
  let migrations: string;
  beforeAll(async () => {
    migrations = mkdtempSync(join(tmpdir(), 'travesia-migrations-'));
    await cp(fileURLToPath(new URL('../src/db/migrations', import.meta.url)), migrations, { recursive: true });
    const journalPath = join(migrations, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
    // Every migration before this one (whatever number it is given when merged).
    journal.entries = journal.entries.slice(
      0,
      journal.entries.findIndex((entry) => entry.tag.endsWith('_covid_add_on')),
    );
    expect(journal.entries.length).toBeGreaterThan(40);
    await writeFile(journalPath, JSON.stringify(journal));
  });
  afterAll(async () => {
    await rm(migrations, { recursive: true, force: true });
  });

  const migrationsFolder = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
  const engines: Record<
    (typeof databaseKinds)[number],
    () => Promise<{ database: DatabaseHandle; migrate: (folder: string) => Promise<void> }>
  > = {
    pglite: async () => {
      const database = await openPglite({});
      const migrate = (folder: string) =>
        migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
      return { database, migrate };
    },
    postgres: async () => {
      const adminUrl = process.env.TEST_DATABASE_URL ?? '';
      const name = `travesia_test_${process.pid}_covid_${Math.random().toString(36).slice(2, 8)}`;
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const database = await openPostgres(url.toString());
      const migrate = (folder: string) =>
        migrateNodePg(database.db as unknown as Parameters<typeof migrateNodePg>[0], { migrationsFolder: folder });
      return {
        database: {
          ...database,
          async close() {
            await database.close();
            await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          },
        },
        migrate,
      };
    },
  };

  for (const kind of databaseKinds) {
    it(`[${kind}] each company gets the add-on with its plans' fees; the column is gone`, async () => {
      const { database, migrate } = await engines[kind]();
      try {
        const { db } = database;
        await migrate(migrations);
        await db.execute(sql`INSERT INTO companies (id, name, legal_name, rut, address) VALUES
          (1, 'Travesía', 'Travesía SpA', '76.123.456-7', 'Santiago'),
          (2, 'Otra', 'Otra SpA', '76.765.432-1', 'Valparaíso'),
          (3, 'Sin planes con covid', 'Tercera SpA', '77.111.222-3', 'Concepción')`);
        await db.execute(sql`INSERT INTO products (id, company_id, code, label, covid_fee_cents_per_day) VALUES
          (412, 1, 'plus', 'Plus', 130), (410, 1, 'esencial', 'Esencial', 90), (411, 1, 'gratis', 'Gratis', 0),
          (414, 1, 'anual', 'Anual', NULL), (510, 2, 'otra', 'Otra', 120), (610, 3, 'sin', 'Sin covid', NULL)`);
        // An add-on of that version: the covid one comes after it.
        await db.execute(sql`INSERT INTO add_ons (company_id, code, name, pricing, price_cents_per_day, sort_order)
          VALUES (1, 'deportes', 'Deportes', 'daily', 250, 4)`);

        await migrate(migrationsFolder);

        const rows = await db.select().from(addOns).where(eq(addOns.code, 'covid')).orderBy(addOns.companyId);
        expect(
          rows.map((row) => [row.companyId, row.planPrices, row.productIds, row.sortOrder, row.active]),
        ).toStrictEqual([
          [1, { 410: 90, 411: 0, 412: 130 }, [410, 411, 412], 5, true],
          [2, { 510: 120 }, [510], 0, true],
          [3, {}, [], 0, true],
        ]);
        for (const row of rows) {
          expect(row).toMatchObject({
            name: covidAddOn.name,
            description: covidAddOn.description,
            benefits: covidAddOn.benefits,
            pricing: 'daily',
            priceCentsPerDay: null,
            planPercentBp: null,
          });
        }
        // The other add-on is untouched, and the plans read the same fees as before.
        expect(await db.select({ code: addOns.code }).from(addOns).where(eq(addOns.companyId, 1))).toHaveLength(2);
        const plans = await listProductsByIds(db, [410, 411, 412, 414, 510, 610]);
        expect(Object.fromEntries(plans.map((plan) => [plan.id, plan.covidFeeCentsPerDay]))).toStrictEqual({
          410: 90,
          411: 0,
          412: 130,
          414: null,
          510: 120,
          610: null,
        });
        const columns = await db.execute(
          sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'products' AND column_name = 'covid_fee_cents_per_day'`,
        );
        expect((columns as unknown as { rows: unknown[] }).rows).toStrictEqual([]);
      } finally {
        await database.close();
      }
    }, 120_000);
  }
});
