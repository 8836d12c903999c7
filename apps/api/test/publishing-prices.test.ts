import { randomUUID } from 'node:crypto';
import { chileWallTimeOf, chileWallTimeToInstant } from '@travesia/domain/dates';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { Database, DatabaseHandle } from '#app/db/client.ts';
import { auditEntries, companies, products, publications, sales } from '#app/db/schema.ts';
import { type PlanPrices, pricesKindOf } from '#app/modules/plans/prices.ts';
import { applyScheduled } from '#app/modules/publishing/service.ts';
import { publishingKindsOf } from '#app/workflows/publishing.ts';
import { asOperator, enrolledOperator, minute, type Operator, signedIn, TestClock } from './support/backoffice.ts';
import {
  decideOnSandbox,
  followReturn,
  paymentResult,
  readyToPay,
  referencePlanId,
  startPayment,
} from './support/checkout.ts';
import { describeOnEachDatabase, openTestDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';
import { publishingWorker } from './support/publishing-worker.ts';
import { createQuotation, searchParams, searchUrl, tripDates } from './support/trips.ts';

/**
 * The publishing model applied to plan prices (issue 25): drafts with an optimistic version check, the impact table,
 * publish now or at a time (the worker's job queue, applied once however many workers), audit rows with before and
 * after, history with a readable diff, rollback to the peso, preview links, the caches of another instance cleared,
 * and prices that move forward only (a payment under way keeps its amount).
 */

/** The draft and live body of the kind `prices`, as the console's API sends and takes it. */
type Prices = PlanPrices;
type Item = { live: Prices; draft: { body: Prices; version: number } | null; changes: string[] };
type ComparatorPlan = { id: number; totalAmount: number; montoConversion: number; precioActualizado?: boolean };
type ImpactRow = {
  destinationId: number;
  passengerTypeId: number;
  days: number;
  todayCents: number | null;
  newCents: number | null;
  todayClp: number | null;
  newClp: number | null;
  changePercent: number | null;
};

/** Every rate 10 % up, rounded to the cent. */
const raised = (prices: Prices): Prices => ({
  ...prices,
  rates: prices.rates.map((rate) => ({ ...rate, rateCents: Math.round(rate.rateCents * 1.1) })),
});

async function comparatorPlan(app: FastifyInstance, quotationId: string, planId: number, headers = {}) {
  const answer = await app.inject({
    method: 'GET',
    url: `/api/1/plans-comparador?quotationId=${quotationId}`,
    headers,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const plan = answer.json<ComparatorPlan[]>().find((candidate) => candidate.id === planId);
  if (!plan) throw new Error(`plan ${planId} not in the comparator`);
  return { plan, headers: answer.headers };
}

const path = (planId: number, rest = '') => `/api/backoffice/prices/${planId}${rest}`;

async function readItem(ctx: TestContext, operator: Operator, planId: number) {
  const answer = await asOperator(ctx, operator, 'GET', path(planId));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Item>();
}

async function saveDraft(ctx: TestContext, operator: Operator, planId: number, body: Prices, baseVersion: number) {
  return asOperator(ctx, operator, 'PUT', path(planId, '/draft'), { body, baseVersion });
}

async function publishNow(ctx: TestContext, operator: Operator, planId: number, baseVersion: number) {
  const answer = await asOperator(ctx, operator, 'POST', path(planId, '/publish'), { baseVersion });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ publication: { id: number; status: string }; version: number }>();
}

/** Saves `body` as the plan's draft from whatever version it is at, and publishes it now. */
async function publishPrices(ctx: TestContext, operator: Operator, planId: number, body: Prices) {
  const item = await readItem(ctx, operator, planId);
  const saved = await saveDraft(ctx, operator, planId, body, item.draft?.version ?? 0);
  expect(saved.status, saved.text).toBe(200);
  return publishNow(ctx, operator, planId, saved.json<{ version: number }>().version);
}

const clock = new TestClock();

describeOnEachDatabase(
  'Publishing prices (issue 25)',
  (ctx, kind) => {
    let pricing: Operator;
    let admin: Operator;
    let finance: Operator;
    beforeAll(async () => {
      pricing = await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], clock);
      admin = await enrolledOperator(ctx, 'jefa@travesia.cl', ['admin'], clock);
      finance = await enrolledOperator(ctx, 'finanzas@travesia.cl', ['finance'], clock);
    });

    it('a second save from a stale version is refused (409) saying who saved and what differs', async () => {
      const item = await readItem(ctx, pricing, 410);
      expect(item.draft).toBeNull();
      const first = await saveDraft(ctx, pricing, 410, raised(item.live), 0);
      expect(first.status, first.text).toBe(200);
      expect(first.json<{ version: number }>().version).toBe(1);
      // The administrator had opened the same plan before that save: their save is stale.
      const stale = await saveDraft(ctx, admin, 410, { ...item.live, promotionBp: 2500 }, 0);
      expect(stale.status, stale.text).toBe(409);
      const detail = stale.json<{ detail: string; errors: { field: string; code: string }[] }>();
      expect(detail.detail).toContain('precios@travesia.cl guardó este borrador');
      expect(detail.detail).toMatch(/Descuento del plan: 25 % → 15 %/);
      expect(detail.detail).toMatch(/Europa · [^:]+: USD [\d,.]+ → USD [\d,.]+/);
      expect(detail.errors[0]).toMatchObject({ field: 'version', code: 'stale' });
      // Finance reads the draft but cannot save one.
      expect((await saveDraft(ctx, finance, 410, item.live, 1)).status).toBe(403);
      expect((await readItem(ctx, finance, 410)).draft?.version).toBe(1);
      // A draft that does not parse, or prices a region the plan is not sold to, is a 400 in words.
      const bad = await saveDraft(ctx, pricing, 410, { ...item.live, promotionBp: -5 }, 1);
      expect(bad.status, bad.text).toBe(400);
      expect(bad.text).toContain('El descuento no puede ser negativo');
      // Concurrent saves from one version, several rounds: exactly one wins each round, the others are told.
      for (let round = 0; round < 3; round += 1) {
        const { draft } = await readItem(ctx, pricing, 410);
        const answers = await Promise.all(
          [pricing, admin, pricing, admin].map((who, index) =>
            saveDraft(ctx, who, 410, { ...item.live, promotionBp: 100 * (round * 4 + index) }, draft?.version ?? 0),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toStrictEqual([200, 409, 409, 409]);
      }
    });

    it('the impact table prices sample trips with the storefront pricing: today and the draft, USD and CLP', async () => {
      const item = await readItem(ctx, pricing, 412);
      const saved = await saveDraft(ctx, pricing, 412, raised(item.live), 0);
      expect(saved.status, saved.text).toBe(200);
      const answer = await asOperator(ctx, pricing, 'GET', path(412, '/impact'));
      expect(answer.status, answer.text).toBe(200);
      const rows = answer.json<{ rows: ImpactRow[] }>().rows;
      expect(new Set(rows.map((row) => row.days))).toStrictEqual(new Set([7, 15, 30]));
      expect(new Set(rows.map((row) => row.destinationId)).size).toBeGreaterThan(1);
      for (const row of rows) {
        expect(row.newCents ?? 0).toBeGreaterThan(row.todayCents ?? 0);
        expect(row.newClp ?? 0).toBeGreaterThan(row.todayClp ?? 0);
        expect(row.changePercent).toBeGreaterThanOrEqual(9.8);
        expect(row.changePercent).toBeLessThanOrEqual(10.2);
      }
      // «Today» is exactly what the storefront's plan search answers for the same trip.
      const sample = rows.find((row) => row.destinationId === 3 && row.passengerTypeId === 1 && row.days === 15);
      const { departureDate, returnDate } = await (async () => {
        const { addDays, todayInChile } = await import('@travesia/domain/dates');
        const from = addDays(todayInChile(), 30);
        return { departureDate: from, returnDate: addDays(from, 14) };
      })();
      const search = await get(ctx.app, searchUrl(searchParams({ departureDate, returnDate, passengers: '1:1' })));
      const listed = search.json<{ id: number; totalAmount: number; montoConversion: number }[]>();
      const plan = listed.find((candidate) => candidate.id === 412);
      expect(Math.round((plan?.totalAmount ?? 0) * 100)).toBe(sample?.todayCents);
      expect(plan?.montoConversion).toBe(sample?.todayClp);
    });

    it('prices by length of trip: from 16 days a lower daily rate applies to the whole trip; bands are validated', async () => {
      const planId = 413;
      const item = await readItem(ctx, pricing, planId);
      const europe = item.live.rates.filter((rate) => rate.destinationId === 3);
      expect(europe.every((rate) => rate.minDays === 1)).toBe(true);
      // 20 % less per day from 16 days on, in Europe, for every band.
      const banded: Prices = {
        ...item.live,
        rates: [
          ...item.live.rates,
          ...europe.map((rate) => ({ ...rate, minDays: 16, rateCents: Math.round(rate.rateCents * 0.8) })),
        ],
      };
      const [firstRate] = europe;
      if (!firstRate) throw new Error('no rate in Europe');
      const planTotal = async (days: number) => {
        const passengers = `${firstRate.passengerTypeId}:1`;
        const search = await get(ctx.app, searchUrl(searchParams({ ...tripDates(days), passengers })));
        expect(search.status, search.text).toBe(200);
        const plan = search.json<{ id: number; totalAmount: number }[]>().find((p) => p.id === planId);
        return Math.round((plan?.totalAmount ?? 0) * 100);
      };
      const [before15, before16] = [await planTotal(15), await planTotal(16)];

      // A band without its price from the first day, a repeated band, and a band on a flat-rated plan: refused.
      const version = () => readItem(ctx, pricing, planId).then((i) => i.draft?.version ?? 0);
      const orphan = await saveDraft(
        ctx,
        pricing,
        planId,
        { ...item.live, rates: [{ ...firstRate, minDays: 8 }] },
        await version(),
      );
      expect(orphan.status, orphan.text).toBe(400);
      expect(orphan.text).toContain('desde el primer día');
      const twice = await saveDraft(
        ctx,
        pricing,
        planId,
        { ...item.live, rates: [...item.live.rates, { ...firstRate }] },
        await version(),
      );
      expect(twice.status, twice.text).toBe(400);
      // A flat-rated plan (a price per term) has no length bands: its publication is refused in words.
      const flat = await readItem(ctx, pricing, 414);
      const flatRate = flat.live.rates[0];
      if (!flatRate) throw new Error('plan 414 has no rate');
      const refusal = await ctx.app.db
        .transaction((tx) =>
          pricesKindOf(1).apply(tx as unknown as Database, '414', {
            ...flat.live,
            rates: [...flat.live.rates, { ...flatRate, minDays: 30 }],
          }),
        )
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refusal).toMatchObject({
        status: 400,
        fieldErrors: [{ message: expect.stringContaining('no tiene tramos') }],
      });

      const saved = await saveDraft(ctx, pricing, planId, banded, await version());
      expect(saved.status, saved.text).toBe(200);
      // The impact table adds the band's first day to its sample lengths.
      const impact = await asOperator(ctx, pricing, 'GET', path(planId, '/impact'));
      const rows = impact.json<{ rows: ImpactRow[] }>().rows.filter((r) => r.destinationId === 3);
      expect(new Set(rows.map((row) => row.days))).toStrictEqual(new Set([7, 15, 16, 30]));
      for (const row of rows) {
        if (row.days < 16) expect(row.changePercent).toBe(0);
        else expect(row.changePercent).toBeCloseTo(-20, 0);
      }
      const published = await publishNow(ctx, pricing, planId, saved.json<{ version: number }>().version);
      const history = await asOperator(ctx, pricing, 'GET', path(planId, '/history'));
      const [latest] = history.json<{ publications: { id: number; changes: string[] }[] }>().publications;
      expect(
        latest?.changes.some((line) => /^Europa · .+ · desde 16 días: sin precio → USD [\d,.]+ por día$/.test(line)),
      ).toBe(true);
      expect(latest?.changes).toContain('Nuevo tramo por duración: desde 16 días');

      // 15 days: the day-1 rate as before; 16 days: the lower rate on every day of the trip.
      expect(await planTotal(15)).toBe(before15);
      const after16 = await planTotal(16);
      expect(after16).toBeLessThan(before16);
      expect(after16 / before16).toBeCloseTo(0.8, 2);
      expect((await readItem(ctx, pricing, planId)).live.rates).toHaveLength(banded.rates.length);

      const rolled = await asOperator(ctx, pricing, 'POST', path(planId, '/rollback'), {
        publicationId: published.publication.id,
        to: 'before',
      });
      expect(rolled.status, rolled.text).toBe(200);
      expect(await planTotal(16)).toBe(before16);
    });

    it('publish now: the comparator answers the new prices at once, one audit row with before and after; rollback restores them to the peso', async () => {
      const quotationId = await createQuotation(ctx);
      const before = (await comparatorPlan(ctx.app, quotationId, 412)).plan;
      const item = await readItem(ctx, pricing, 412);
      const saved = await saveDraft(ctx, pricing, 412, raised(item.live), item.draft?.version ?? 0);
      const version = saved.json<{ version: number }>().version;
      const published = await publishNow(ctx, pricing, 412, version);
      expect(published.publication.status).toBe('published');
      // The same publish again, from the version it consumed, is stale.
      expect((await asOperator(ctx, pricing, 'POST', path(412, '/publish'), { baseVersion: version })).status).toBe(
        409,
      );
      const after = (await comparatorPlan(ctx.app, quotationId, 412)).plan;
      expect(after.montoConversion).toBeGreaterThan(before.montoConversion);
      expect(after.totalAmount / before.totalAmount).toBeCloseTo(1.1, 2);
      const audit = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetId, '412')));
      expect(audit).toHaveLength(1);
      expect(audit[0]?.actorLabel).toBe('precios@travesia.cl');
      expect(audit[0]?.before).toStrictEqual(item.live);
      expect(audit[0]?.after).toStrictEqual(raised(item.live));

      // History: the publication with its readable diff, and finance may read it.
      const history = await asOperator(ctx, finance, 'GET', path(412, '/history'));
      expect(history.status, history.text).toBe(200);
      const [latest] = history.json<{ publications: { id: number; changes: string[] }[] }>().publications;
      expect(latest?.id).toBe(published.publication.id);
      expect(latest?.changes.some((line) => /Europa · .+: USD [\d,.]+ → USD [\d,.]+ por día/.test(line))).toBe(true);

      // Rollback to the state before that publication: a publication itself, audited, to the peso.
      expect(
        (await asOperator(ctx, finance, 'POST', path(412, '/rollback'), { publicationId: latest?.id, to: 'before' }))
          .status,
      ).toBe(403);
      const rolled = await asOperator(ctx, pricing, 'POST', path(412, '/rollback'), {
        publicationId: latest?.id,
        to: 'before',
      });
      expect(rolled.status, rolled.text).toBe(200);
      const restored = (await comparatorPlan(ctx.app, quotationId, 412)).plan;
      expect(restored.montoConversion).toBe(before.montoConversion);
      expect(restored.totalAmount).toBe(before.totalAmount);
      expect((await readItem(ctx, pricing, 412)).live).toStrictEqual(item.live);
      const rollbacks = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.rolled_back'), eq(auditEntries.targetId, '412')));
      expect(rollbacks).toHaveLength(1);
      expect(rollbacks[0]?.before).toStrictEqual(raised(item.live));
      // And forward again to the raised version (rollback to any earlier published version).
      const forward = await asOperator(ctx, pricing, 'POST', path(412, '/rollback'), { publicationId: latest?.id });
      expect(forward.status, forward.text).toBe(200);
      expect((await comparatorPlan(ctx.app, quotationId, 412)).plan.montoConversion).toBe(after.montoConversion);
    });

    it('a payment under way keeps its price; an unpaid quotation is repriced', async () => {
      const item = await readItem(ctx, pricing, referencePlanId);
      const paying = await readyToPay(ctx);
      const unpaid = await readyToPay(ctx);
      const quoted = (await comparatorPlan(ctx.app, paying, referencePlanId)).plan;
      const payment = await startPayment(ctx, paying);
      await publishPrices(ctx, pricing, referencePlanId, raised(item.live));
      // The buyer at the gateway pays what they were shown, and the sale records it.
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve');
      await followReturn(ctx, back);
      const result = await paymentResult(ctx, payment);
      expect(result.resultTransaction).toBe('AUTHORIZED');
      expect(result.amountClp).toBe(quoted.montoConversion);
      const [sale] = await ctx.app.db.select().from(sales).where(eq(sales.id, payment.idVenta));
      expect(sale?.amountClp).toBe(quoted.montoConversion);
      expect(sale?.purchase?.price.totalClp).toBe(quoted.montoConversion);
      // An older unpaid quotation is priced anew, and told so (precioActualizado); a newer one is not told.
      const repriced = (await comparatorPlan(ctx.app, unpaid, referencePlanId)).plan;
      expect(repriced.montoConversion).toBeGreaterThan(quoted.montoConversion);
      expect(repriced.precioActualizado).toBe(true);
      const fresh = (await comparatorPlan(ctx.app, await createQuotation(ctx), referencePlanId)).plan;
      expect(fresh.precioActualizado).toBe(false);
      expect(fresh.montoConversion).toBe(repriced.montoConversion);
      await publishPrices(ctx, pricing, referencePlanId, item.live);
    });

    it('a preview link shows the draft on the comparator, never kept nor indexed; a forged or expired one is refused', async () => {
      const item = await readItem(ctx, pricing, 418);
      const saved = await saveDraft(ctx, pricing, 418, raised(item.live), 0);
      expect(saved.status).toBe(200);
      const link = await asOperator(ctx, pricing, 'POST', path(418, '/preview-link'));
      expect(link.status, link.text).toBe(200);
      const url = new URL(link.json<{ url: string }>().url);
      const quotationId = url.pathname.split('/').at(-1) as string;
      const token = url.searchParams.get('vista-previa') as string;
      expect(url.pathname).toMatch(/^\/comparador\/[0-9a-f-]{36}$/);
      const live = await comparatorPlan(ctx.app, quotationId, 418);
      const preview = await comparatorPlan(ctx.app, quotationId, 418, { 'x-vista-previa': token });
      expect(preview.plan.totalAmount / live.plan.totalAmount).toBeCloseTo(1.1, 2);
      expect(preview.headers['cache-control']).toBe('no-store');
      expect(preview.headers['x-robots-tag']).toBe('noindex');
      // Nothing of the preview was kept: the plain comparator still answers the live price.
      expect((await comparatorPlan(ctx.app, quotationId, 418)).plan.totalAmount).toBe(live.plan.totalAmount);
      // The link opens its own sample quotation only: a buyer's real quotation is never priced with the draft.
      const real = await createQuotation(ctx);
      for (const url of [`/api/1/plans-comparador?quotationId=${real}`, `/api/1/plans-unavailable/${real}`]) {
        const elsewhere = await ctx.app.inject({ method: 'GET', url, headers: { 'x-vista-previa': token } });
        expect(elsewhere.statusCode, elsewhere.body).toBe(403);
        expect(elsewhere.headers['cache-control']).toBe('no-store');
      }
      const forged = await ctx.app.inject({
        method: 'GET',
        url: `/api/1/plans-comparador?quotationId=${quotationId}`,
        headers: { 'x-vista-previa': `${token.split('.')[0]}.${'A'.repeat(43)}` },
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.json<{ detail: string }>().detail).toContain('vista previa no es válido');
      // A draft that prices nothing has no sample trip to preview: said in words, not a 500.
      const empty = await readItem(ctx, pricing, 414);
      const emptied = await saveDraft(ctx, pricing, 414, { ...empty.live, rates: [] }, 0);
      expect(emptied.status, emptied.text).toBe(200);
      const none = await asOperator(ctx, pricing, 'POST', path(414, '/preview-link'));
      expect(none.status, none.text).toBe(400);
      expect(none.text).toContain('No pudimos armar un viaje de ejemplo');
      clock.advance(61 * minute);
      const expired = await ctx.app.inject({
        method: 'GET',
        url: `/api/1/plans-comparador?quotationId=${quotationId}`,
        headers: { 'x-vista-previa': token },
      });
      expect(expired.statusCode).toBe(403);
      // An hour later the console sessions have ended too: sign in again for the tests that follow.
      pricing = await signedIn(ctx, pricing, clock);
      admin = await signedIn(ctx, admin, clock);
      finance = await signedIn(ctx, finance, clock);
    });

    it('a scheduled publication is applied by the job queue when due, once, however many workers run it', async () => {
      const quotationId = await createQuotation(ctx);
      const item = await readItem(ctx, pricing, 410);
      const base = (await comparatorPlan(ctx.app, quotationId, 410)).plan;
      const saved = await saveDraft(ctx, pricing, 410, raised(item.live), item.draft?.version ?? 0);
      const publishAt = new Date(Date.now() + 2_500);
      const scheduled = await asOperator(ctx, pricing, 'POST', path(410, '/publish'), {
        baseVersion: saved.json<{ version: number }>().version,
        publishAt: publishAt.toISOString(),
      });
      expect(scheduled.status, scheduled.text).toBe(200);
      const { publication } = scheduled.json<{ publication: { id: number; status: string; publishAtChile: string } }>();
      expect(publication.status).toBe('scheduled');
      expect(publication.publishAtChile).toBe(chileWallTimeOf(publishAt));
      const workers = [0, 1].map(() => publishingWorker(ctx));
      // Not yet due: nothing changes.
      await Promise.all(workers.map((worker) => worker.runJobs()));
      expect((await comparatorPlan(ctx.app, quotationId, 410)).plan.totalAmount).toBe(base.totalAmount);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, publishAt.getTime() - Date.now() + 300)));
      await Promise.all(workers.map((worker) => worker.runJobs()));
      expect((await comparatorPlan(ctx.app, quotationId, 410)).plan.totalAmount).toBeGreaterThan(base.totalAmount);
      const applied = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetId, '410')));
      expect(applied).toHaveLength(1);
      expect(applied[0]?.actorLabel).toBe('programado por precios@travesia.cl');
      const [row] = await ctx.app.db.select().from(publications).where(eq(publications.id, publication.id));
      expect(row?.status).toBe('published');
      await Promise.all(workers.map((worker) => worker.close()));

      // The same publication applied by several runs at once, several rounds (on PostgreSQL, real parallel
      // transactions): exactly one applies it.
      const deps = {
        db: ctx.app.db,
        kinds: publishingKindsOf(ctx.config.companyId, ctx.config.features),
        invalidate: (scope?: string) => ctx.app.invalidateReadCache(scope),
      };
      for (let round = 0; round < 3; round += 1) {
        const current = await readItem(ctx, pricing, 410);
        const draft = await saveDraft(ctx, pricing, 410, raised(current.live), current.draft?.version ?? 0);
        const next = await asOperator(ctx, pricing, 'POST', path(410, '/publish'), {
          baseVersion: draft.json<{ version: number }>().version,
          publishAt: new Date(Date.now() + 60 * minute).toISOString(),
        });
        const id = next.json<{ publication: { id: number } }>().publication.id;
        const outcomes = await Promise.all([0, 1, 2, 3].map(() => applyScheduled(deps, id, new Date())));
        expect(outcomes.filter(Boolean), `round ${round} on ${kind}`).toHaveLength(1);
      }
    });

    it('publishAt is Chile time, daylight saving included; a past time or one that does not exist is refused', async () => {
      // Summer (UTC−3) and winter (UTC−4).
      expect(chileWallTimeToInstant('2027-01-15T10:00')?.toISOString()).toBe('2027-01-15T13:00:00.000Z');
      expect(chileWallTimeToInstant('2027-07-15T10:00')?.toISOString()).toBe('2027-07-15T14:00:00.000Z');
      // Clocks go forward on the first Sunday of September 2027 at 00:00: 00:30 does not exist that night.
      expect(chileWallTimeToInstant('2027-09-05T00:30')).toBeNull();
      // They go back on the first Sunday of April 2027 at 00:00 (to 23:00 of the Saturday): the first 23:30 is taken.
      expect(chileWallTimeToInstant('2027-04-03T23:30')?.toISOString()).toBe('2027-04-04T02:30:00.000Z');
      const item = await readItem(ctx, pricing, 412);
      const version = item.draft?.version ?? 0;
      const skipped = await asOperator(ctx, pricing, 'POST', path(412, '/publish'), {
        baseVersion: version,
        publishAt: '2027-09-05T00:30',
      });
      expect(skipped.status, skipped.text).toBe(400);
      expect(skipped.text).toContain('Esa hora no existe en Chile');
      const past = await asOperator(ctx, pricing, 'POST', path(412, '/publish'), {
        baseVersion: version,
        publishAt: chileWallTimeOf(new Date(clock.at.getTime() - 60 * minute)),
      });
      expect(past.status, past.text).toBe(400);
      expect(past.text).toContain('ya pasó');
      const winter = await asOperator(ctx, pricing, 'POST', path(412, '/publish'), {
        baseVersion: version,
        publishAt: '2027-07-15T10:00',
      });
      expect(winter.status, winter.text).toBe(200);
      expect(winter.json<{ publication: { publishAt: string } }>().publication.publishAt).toBe(
        '2027-07-15T14:00:00.000Z',
      );
      const cancelled = await asOperator(ctx, pricing, 'DELETE', path(412, '/scheduled'));
      expect(cancelled.status, cancelled.text).toBe(200);
    });

    it("another company's plan is none of this console's: reading, saving, publishing, history and its preview answer 404", async () => {
      const { db } = ctx.database;
      await db
        .insert(companies)
        .values({ id: 2, name: 'Otra', legalName: 'Otra SpA', rut: '76.543.210-3', address: 'Santiago' })
        .onConflictDoNothing();
      const live = (await readItem(ctx, pricing, 414)).live;
      await db.update(products).set({ companyId: 2 }).where(eq(products.id, 414));
      try {
        expect((await asOperator(ctx, pricing, 'GET', path(414))).status).toBe(404);
        expect((await asOperator(ctx, pricing, 'GET', path(414, '/history'))).status).toBe(404);
        expect((await asOperator(ctx, pricing, 'GET', path(414, '/impact'))).status).toBe(404);
        expect((await saveDraft(ctx, pricing, 414, raised(live), 0)).status).toBe(404);
        expect((await asOperator(ctx, pricing, 'POST', path(414, '/publish'), { baseVersion: 1 })).status).toBe(404);
        expect((await asOperator(ctx, pricing, 'POST', path(414, '/preview-link'))).status).toBe(404);
        expect((await asOperator(ctx, pricing, 'DELETE', path(414, '/scheduled'))).status).toBe(404);
        expect((await asOperator(ctx, pricing, 'POST', path(414, '/rollback'), { publicationId: 1 })).status).toBe(404);
        const [row] = await db.select().from(products).where(eq(products.id, 414));
        expect(row?.promotionBp).toBe(live.promotionBp);
      } finally {
        await db.update(products).set({ companyId: ctx.config.companyId }).where(eq(products.id, 414));
      }
    });

    it('a rollback cancels the scheduled publication: it is never applied over the prices rolled back to', async () => {
      const item = await readItem(ctx, pricing, 418);
      const published = await publishPrices(ctx, pricing, 418, raised(item.live));
      const next = await readItem(ctx, pricing, 418);
      const saved = await saveDraft(ctx, pricing, 418, raised(next.live), next.draft?.version ?? 0);
      const scheduled = await asOperator(ctx, pricing, 'POST', path(418, '/publish'), {
        baseVersion: saved.json<{ version: number }>().version,
        publishAt: new Date(clock.at.getTime() + 60 * minute).toISOString(),
      });
      expect(scheduled.status, scheduled.text).toBe(200);
      const pending = scheduled.json<{ publication: { id: number } }>().publication.id;
      const rolled = await asOperator(ctx, pricing, 'POST', path(418, '/rollback'), {
        publicationId: published.publication.id,
        to: 'before',
      });
      expect(rolled.status, rolled.text).toBe(200);
      expect((await readItem(ctx, pricing, 418)).live).toStrictEqual(item.live);
      const [row] = await ctx.app.db.select().from(publications).where(eq(publications.id, pending));
      expect(row?.status).toBe('cancelled');
      const deps = {
        db: ctx.app.db,
        kinds: publishingKindsOf(ctx.config.companyId, ctx.config.features),
        invalidate: (scope?: string) => ctx.app.invalidateReadCache(scope),
      };
      expect(await applyScheduled(deps, pending, new Date())).toBe(false);
      expect((await readItem(ctx, pricing, 418)).live).toStrictEqual(item.live);
      const [audit] = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.rolled_back'), eq(auditEntries.targetId, '418')));
      expect(audit?.after).toMatchObject({ cancelledPublication: pending });
    });
  },
  {},
  { now: clock.now },
);

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('a publication clears the caches of another instance sharing Redis', () => {
  let database: DatabaseHandle;
  let first: FastifyInstance;
  let second: FastifyInstance;
  const channel = `travesia-test:publishing:${randomUUID()}`;
  const sharedClock = new TestClock();

  beforeAll(async () => {
    database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
    const instance = () =>
      buildApp({
        config: loadConfig({
          NODE_ENV: 'test',
          REDIS_URL: redisUrl,
          REDIS_CHANNEL: channel,
          RATE_LIMIT_FACTOR: '1000',
        }),
        db: database.db,
        now: sharedClock.now,
      });
    first = await instance();
    second = await instance();
    await Promise.all([first.ready(), second.ready()]);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
  });

  it("the second instance's kept plan search answers the new price right after a publish on the first", async () => {
    const ctx = { app: first, database, config: first.config } as TestContext;
    const operator = await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], sharedClock);
    const url = searchUrl(searchParams());
    const priceOn = async (app: FastifyInstance) => {
      const answer = await get(app, url);
      expect(answer.status, answer.text).toBe(200);
      return answer.json<ComparatorPlan[]>().find((plan) => plan.id === referencePlanId)?.totalAmount ?? 0;
    };
    const before = await priceOn(second);
    expect(await priceOn(second)).toBe(before);
    const item = await readItem(ctx, operator, referencePlanId);
    await publishPrices(ctx, operator, referencePlanId, raised(item.live));
    const deadline = Date.now() + 2_000;
    let seen = await priceOn(second);
    while (seen === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await priceOn(second);
    }
    expect(seen / before).toBeCloseTo(1.1, 2);
  });
});
