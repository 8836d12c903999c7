import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { addOns } from '#app/modules/plans/tables.ts';
import { describeOnEachDatabase } from './support/harness.ts';

/** Issue 27 §1: the add-ons catalogue, seeded for the demo company. */
describeOnEachDatabase('add-ons catalogue', (ctx) => {
  it('seeds the demo company with the five add-ons the issue lists and the covid upgrade, each priced, with benefits', async () => {
    const rows = await ctx.database.db
      .select()
      .from(addOns)
      .where(eq(addOns.companyId, 1))
      .orderBy(asc(addOns.sortOrder));
    expect(rows.map((row) => row.name)).toEqual([
      'Deportes y aventura',
      'Preexistencias ampliadas',
      'Embarazo hasta la semana 32',
      'Cancelación por cualquier motivo',
      'Electrónica y equipaje plus',
      // Priced per plan (its plan prices: the plans' covid fees); covid-add-on.test.ts.
      'Upgrade covid',
    ]);
    for (const row of rows) {
      expect(row.active).toBe(true);
      expect(row.benefits.length).toBeGreaterThan(0);
      const perDay = row.code === 'covid' ? Math.min(...Object.values(row.planPrices)) : row.priceCentsPerDay;
      expect(row.pricing === 'daily' ? perDay : row.planPercentBp).toBeGreaterThan(0);
    }
  });

  it('refuses an add-on without a price of its kind', async () => {
    const base = { companyId: 1, name: 'Sin precio', code: 'sin-precio' };
    await expect(ctx.database.db.insert(addOns).values({ ...base, pricing: 'daily' })).rejects.toThrow();
    await expect(
      ctx.database.db.insert(addOns).values({ ...base, pricing: 'percent', planPercentBp: 500, priceCentsPerDay: 100 }),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.insert(addOns).values({ ...base, pricing: 'percent', planPercentBp: 500 }),
    ).resolves.toBeDefined();
  });
});
