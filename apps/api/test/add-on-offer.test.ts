import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { invalidateReadCache } from '#app/app.ts';
import { pricesKindOf } from '#app/modules/plans/prices.ts';
import type { ComparatorPlan, PlanAddOn } from '#app/modules/plans/schemas.ts';
import { addOns } from '#app/modules/plans/tables.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { get } from './support/http.ts';
import {
  annualDates,
  createQuotation,
  inDays,
  insertDiscountCode,
  listing,
  planOf,
  searchParams,
  tripDates,
} from './support/trips.ts';

/*
 * Issue 27 §1: the plan search listing and the comparator offer, per plan, the add-ons a travelling age band may buy
 * with it («adicionales»), priced for one traveller of each band. By hand from the seed (demo-plans.ts) at
 * 948.53 CLP per USD; the reference trip is Europe, 10 days, 2 adults (band 1) + 1 senior (band 2), single trip.
 *
 *   Esencial (410, no IVA): one adult 25.00 − 15 % = 21.25 net; one senior 50.00 − 15 % = 42.50 net.
 *   Protección Especial (418, IVA 19 %): one adult 48.00 net; one senior 96.00 net.
 *
 *   add-on                        price            bands   modalities
 *   deportes-aventura             USD 2,50 a day   1       1, 3
 *   preexistencias-plus           30 % of net      1, 2    all
 *   embarazo                      USD 3,00 a day   1       1, 3
 *   cancelacion-cualquier-motivo  40 % of net      1, 2    1
 *   electronica-equipaje-plus     USD 1,50 a day   all     1, 3
 */

const addOnOf = (plan: { adicionales: PlanAddOn[] }, code: string): PlanAddOn => {
  const found = plan.adicionales.find((addOn) => addOn.code === code);
  if (!found) throw new Error(`${code} is not offered (${plan.adicionales.map((a) => a.code).join(', ')})`);
  return found;
};

/** One traveller of a band: [passengerTypeId, quantity, USD, CLP], with both formatted es-CL style. */
function one(passengerTypeId: number, quantity: number, amountUsd: number, amountClp: number) {
  const formattedUsd = `USD ${amountUsd.toFixed(2).replace('.', ',')}`;
  const formatted = `$${amountClp.toLocaleString('de-DE')}`;
  return { passengerTypeId, quantity, amountClp, formatted, amountUsd, formattedUsd };
}

const lowest = (price: ReturnType<typeof one>) => ({
  amountClp: price.amountClp,
  formatted: price.formatted,
  amountUsd: price.amountUsd,
  formattedUsd: price.formattedUsd,
});

describeOnEachDatabase('plan search: the add-ons offered with each plan', (ctx) => {
  beforeAll(async () => {
    await insertDiscountCode(ctx, { code: 'PRUEBA20', percentBp: 2000, validFrom: inDays(-30), validTo: inDays(30) });
  });

  it('Esencial on the reference trip: the five add-ons in order, priced per traveller of each band', async () => {
    const esencial = planOf(await listing(ctx), 410);
    // Per day × 10 days; percent of the band's plan net, half up: 30 % × 21.25 = 6.375 → 6.38; 40 % × 42.50 = 17.00.
    const deportes = one(1, 2, 25, 23_713); // 25.00 × 948.53 = 23 713.25
    const preexAdult = one(1, 2, 6.38, 6_052); // 6.38 × 948.53 = 6 051.6214
    const preexSenior = one(2, 1, 12.75, 12_094); // 12.75 × 948.53 = 12 093.7575
    const embarazo = one(1, 2, 30, 28_456); // 28 455.9
    const cancelAdult = one(1, 2, 8.5, 8_063); // 8 062.505, half up
    const cancelSenior = one(2, 1, 17, 16_125); // 16 125.01
    const electronica = [one(1, 2, 15, 14_228), one(2, 1, 15, 14_228)]; // 14 227.95
    expect(esencial.adicionales).toStrictEqual([
      {
        id: expect.any(Number),
        code: 'deportes-aventura',
        name: 'Deportes y aventura',
        description: expect.stringContaining('esquí'),
        perPassenger: [deportes],
        from: lowest(deportes),
        // Sold to 0–74 only: the senior of 75–84 cannot take it.
        unavailableFor: [2],
      },
      {
        id: expect.any(Number),
        code: 'preexistencias-plus',
        name: 'Preexistencias ampliadas',
        description: expect.any(String),
        perPassenger: [preexAdult, preexSenior],
        from: lowest(preexAdult),
        unavailableFor: [],
      },
      {
        id: expect.any(Number),
        code: 'embarazo',
        name: 'Embarazo hasta la semana 32',
        description: expect.any(String),
        perPassenger: [embarazo],
        from: lowest(embarazo),
        unavailableFor: [2],
      },
      {
        id: expect.any(Number),
        code: 'cancelacion-cualquier-motivo',
        name: 'Cancelación por cualquier motivo',
        description: expect.any(String),
        perPassenger: [cancelAdult, cancelSenior],
        from: lowest(cancelAdult),
        unavailableFor: [],
      },
      {
        id: expect.any(Number),
        code: 'electronica-equipaje-plus',
        name: 'Electrónica y equipaje plus',
        description: expect.any(String),
        perPassenger: electronica,
        from: lowest(electronica[0] as ReturnType<typeof one>),
        unavailableFor: [],
      },
    ]);
  });

  it('a plan with IVA adds its 19 % to the add-on too: Protección Especial (418)', async () => {
    const special = planOf(await listing(ctx), 418);
    // 2.50 × 10 = 25.00 + 19 % (4.75) = 29.75 → 28 218.7675 → $28.219
    expect(addOnOf(special, 'deportes-aventura').perPassenger).toStrictEqual([one(1, 2, 29.75, 28_219)]);
    // 30 % × 48.00 = 14.40 + 19 % (2.736 → 2.74) = 17.14 → 16 257.8042 → $16.258
    // 30 % × 96.00 = 28.80 + 19 % (5.472 → 5.47) = 34.27 → 32 506.1231 → $32.506
    expect(addOnOf(special, 'preexistencias-plus').perPassenger).toStrictEqual([
      one(1, 2, 17.14, 16_258),
      one(2, 1, 34.27, 32_506),
    ]);
  });

  it('a percent add-on is a share of the plan net after a discount code; a per-day one does not move', async () => {
    const esencial = planOf(await listing(ctx, searchParams({ discountCode: 'PRUEBA20' })), 410);
    // 15 % + 20 % off: one adult 25.00 − 35 % = 16.25, 30 % = 4.875 → 4.88 → 4 628.8264 → $4.629;
    // one senior 50.00 − 35 % = 32.50, 30 % = 9.75 → 9 248.1675 → $9.248
    expect(addOnOf(esencial, 'preexistencias-plus').perPassenger).toStrictEqual([
      one(1, 2, 4.88, 4_629),
      one(2, 1, 9.75, 9_248),
    ]);
    expect(addOnOf(esencial, 'deportes-aventura').perPassenger).toStrictEqual([one(1, 2, 25, 23_713)]);
  });

  it('the annual plan takes no per-day add-on: Anual (414) offers only «Preexistencias ampliadas»', async () => {
    const anual = planOf(
      await listing(ctx, searchParams({ modality: 2, destination: 1, passengers: '1:1', ...annualDates() })),
      414,
    );
    // 199.20 flat − 10 % = 179.28 net; 30 % = 53.784 → 53.78 → 51 011.9434 → $51.012
    expect(anual.adicionales.map((addOn) => addOn.code)).toStrictEqual(['preexistencias-plus']);
    expect(addOnOf(anual, 'preexistencias-plus').perPassenger).toStrictEqual([one(1, 1, 53.78, 51_012)]);
  });

  it('an add-on no travelling band may buy is not offered; a long stay has no «Cancelación…»', async () => {
    const seniors = await listing(ctx, searchParams({ passengers: '2:2' }));
    for (const plan of seniors) {
      // Only 0–74 may buy these two; a seniors' trip is offered neither.
      expect(plan.adicionales.map((a) => a.code)).not.toContain('deportes-aventura');
      expect(plan.adicionales.map((a) => a.code)).not.toContain('embarazo');
      expect(plan.adicionales.every((a) => a.unavailableFor.length === 0)).toBe(true);
    }
    const longStay = await listing(ctx, searchParams({ modality: 3, passengers: '1:1', ...tripDates(61) }));
    for (const plan of longStay) {
      expect(plan.adicionales.map((a) => a.code)).toStrictEqual([
        'deportes-aventura',
        'preexistencias-plus',
        'embarazo',
        'electronica-equipaje-plus',
      ]);
    }
  });

  it("the comparator offers the quotation's plans the same add-ons as the listing", async () => {
    const id = await createQuotation(ctx);
    const answer = await get(ctx.app, `/api/1/plans-comparador?quotationId=${id}`);
    expect(answer.status, answer.text).toBe(200);
    const compared = answer.json<ComparatorPlan[]>();
    const listed = await listing(ctx);
    expect(compared.map((plan) => [plan.id, plan.adicionales])).toStrictEqual(
      listed.map((plan) => [plan.id, plan.adicionales]),
    );
  });
});

describeOnEachDatabase('plan search: which add-ons are offered', (ctx) => {
  const base = { companyId: 1, description: 'Prueba', pricing: 'daily' as const, priceCentsPerDay: 100 };

  beforeAll(async () => {
    await ctx.database.db.insert(addOns).values([
      // (The covid upgrade is seeded as the add-on `covid`: chosen by the trip's upgradeCovid, never offered per
      // traveller.)
      { ...base, code: 'retirado', name: 'Adicional retirado', active: false, sortOrder: 11 },
      // Sold with Premium (412) only: the plans that cannot take it simply lack it.
      { ...base, code: 'solo-premium', name: 'Solo con Premium', productIds: [412], sortOrder: 12 },
      // Sold for Asia (4) only: not on a trip to Europe.
      { ...base, code: 'solo-asia', name: 'Solo Asia', destinationIds: [4], sortOrder: 13 },
    ]);
    await invalidateReadCache(ctx.app);
  });

  it('never the covid upgrade nor an inactive add-on; one limited to a plan or a region only there', async () => {
    const plans = await listing(ctx);
    for (const plan of plans) {
      const codes = plan.adicionales.map((a) => a.code);
      expect(codes).not.toContain('covid');
      expect(codes).not.toContain('retirado');
      expect(codes).not.toContain('solo-asia');
      expect(codes.includes('solo-premium'), `plan ${plan.id}`).toBe(plan.id === 412);
    }
    const asia = await listing(ctx, searchParams({ destination: 4 }));
    expect(asia.every((plan) => plan.adicionales.some((a) => a.code === 'solo-asia'))).toBe(true);
  });

  it('is read through the read cache, cleared by the prices and plans writers (`add-ons:`)', async () => {
    const before = planOf(await listing(ctx, searchParams({ passengers: '1:1' })), 410);
    await ctx.database.db.update(addOns).set({ priceCentsPerDay: 200 }).where(eq(addOns.code, 'solo-asia'));
    await ctx.database.db.update(addOns).set({ destinationIds: [] }).where(eq(addOns.code, 'solo-asia'));
    // Kept: the cached add-ons still say Asia only.
    const kept = planOf(await listing(ctx, searchParams({ passengers: '1:2' })), 410);
    expect(kept.adicionales.map((a) => a.code)).toStrictEqual(before.adicionales.map((a) => a.code));
    // Publishing prices clears its scopes on every instance: the add-ons are among them.
    for (const scope of pricesKindOf(1).cacheScopes()) await invalidateReadCache(ctx.app, scope);
    const fresh = planOf(await listing(ctx, searchParams({ passengers: '1:3' })), 410);
    expect(addOnOf(fresh, 'solo-asia').perPassenger).toStrictEqual([one(1, 3, 20, 18_971)]); // 20.00 × 948.53 = 18 970.6
  });
});
