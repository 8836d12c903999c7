import { errorMessages } from '@travesia/domain/messages';
import { formatClp } from '@travesia/domain/money';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { invalidateReadCache } from '#app/app.ts';
import { addOns } from '#app/modules/plans/tables.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { get } from './support/http.ts';

/**
 * Issue #13: the covid upgrade's modal states its price before any trip is quoted. The demo plans charge USD 0.90
 * to 1.50 per passenger and per day for it (db/seed/demo-plans.ts); the pesos are the stored rate's conversion.
 */
describeOnEachDatabase('GET /companies/:companyId/covid-upgrade', (ctx) => {
  it('the lowest and highest fee per passenger per day among the plans offering it, in USD and CLP', async () => {
    const answer = await get(ctx.app, '/api/companies/1/covid-upgrade');
    expect(answer.status).toBe(200);
    const pesos = async (usd: string) =>
      (await get(ctx.app, `/api/companies/1/exchange-rate?amount=${usd}`)).json<{ amount: number }>().amount;
    expect(answer.json()).toEqual({
      offered: true,
      perPassengerPerDay: {
        fromUsd: '0.90',
        toUsd: '1.50',
        fromClp: await pesos('0.90'),
        toClp: await pesos('1.50'),
        formatted: {
          fromUsd: 'USD 0,90',
          toUsd: 'USD 1,50',
          fromClp: formatClp(await pesos('0.90')),
          toClp: formatClp(await pesos('1.50')),
        },
      },
    });
    // Public catalogue data: a browser may keep it a minute and revalidate it by ETag.
    expect(String(answer.headers['cache-control'])).toContain('public');
  });

  const covidOfDemo = and(eq(addOns.companyId, 1), eq(addOns.code, 'covid'));

  it('the covid add-on taken off sale: offered false, and no price', async () => {
    await ctx.database.db.update(addOns).set({ active: false }).where(covidOfDemo);
    await invalidateReadCache(ctx.app);
    expect((await get(ctx.app, '/api/companies/1/covid-upgrade')).json()).toEqual({
      offered: false,
      perPassengerPerDay: null,
    });
    await ctx.database.db.update(addOns).set({ active: true }).where(covidOfDemo);
    await invalidateReadCache(ctx.app);
    expect((await get(ctx.app, '/api/companies/1/covid-upgrade')).json()).toMatchObject({ offered: true });
  });

  it('no plan offering it: offered false, and no price', async () => {
    await ctx.database.db.update(addOns).set({ planPrices: {}, productIds: [] }).where(covidOfDemo);
    await invalidateReadCache(ctx.app);
    expect((await get(ctx.app, '/api/companies/1/covid-upgrade')).json()).toEqual({
      offered: false,
      perPassengerPerDay: null,
    });
  });

  it('an unknown company is the §8 404', async () => {
    const answer = await get(ctx.app, '/api/companies/999/covid-upgrade');
    expect(answer.status).toBe(404);
    expect(answer.json()).toMatchObject({ detail: errorMessages.companyNotFound });
  });
});
