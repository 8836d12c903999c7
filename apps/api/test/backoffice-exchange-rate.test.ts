import { randomUUID } from 'node:crypto';
import { addDays, todayInChile } from '@travesia/domain/dates';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { DatabaseHandle } from '#app/db/client.ts';
import { auditEntries, exchangeRates, jobs, payments, sales } from '#app/db/schema.ts';
import { businessDaysSince, fetchExchangeRate } from '#app/modules/catalog/service.ts';
import { exchangeRateFigure } from '#app/modules/operators/today.ts';
import { exchangeRateFetchKind } from '#app/worker.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { readyToPay, startPayment } from './support/checkout.ts';
import { type FakeExchangeRates, startFakeExchangeRates } from './support/fake-exchange-rates.ts';
import { describeOnEachDatabase, openTestDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';

/**
 * «Tipo de cambio» (issue 25, item 4): a rate entered by hand with a reason (validated in the §8 body, audited with
 * the before and after, in the storefront's pesos at once), «Actualizar ahora» against a source on loopback, the
 * worker's daily job (one job per slot, one row per published day however many workers run it at once, an outage
 * retried and visible as a failing job, a nonsense jump refused), «Hoy»'s warning, and the rate each sale records.
 */

let fake: FakeExchangeRates;
const env: NodeJS.ProcessEnv = { EXCHANGE_RATE_SOURCE: 'mindicador', EXCHANGE_RATE_TIMEOUT_MS: '500' };
beforeAll(async () => {
  fake = await startFakeExchangeRates();
  env.MINDICADOR_URL = fake.mindicadorUrl;
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.mode = 'ok';
});

// Behind the real clock, so every rate recorded at the test's time is in force for the storefront too.
const clock = new TestClock();
clock.at = new Date(Date.now() - 60 * 60_000);
const today = () => todayInChile(clock.at);
const day = (offset: number) => addDays(today(), offset);

type RateView = { id: number; clpPerUsd: string; source: string; day: string | null; reason: string | null };
type Screen = {
  current: RateView | null;
  source: { id: string } | null;
  history: RateView[];
  nextBefore: number | null;
};

const enter = (ctx: TestContext, operator: Operator, body: unknown) =>
  asOperator(ctx, operator, 'POST', '/api/backoffice/exchange-rates', body);

const storefrontRate = async (ctx: Pick<TestContext, 'app'>) => {
  const answer = await get(ctx.app, '/api/companies/1/exchange-rate?amount=100');
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ amount: number; type: number }>();
};

describeOnEachDatabase(
  'Operator console: «Tipo de cambio»',
  (ctx) => {
    let pricing: Operator;
    let finance: Operator;
    const operators = async () => {
      pricing ??= await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], clock);
      finance ??= await enrolledOperator(ctx, 'finanzas@travesia.cl', ['finance'], clock);
      return { pricing, finance };
    };

    it('refuses a bad rate or a missing reason in the §8 body, in words, and writes nothing', async () => {
      const { pricing } = await operators();
      const before = await ctx.database.db.select().from(exchangeRates);
      const cases: [unknown, string, string][] = [
        [{ clpPerUsd: 'abc', reason: 'Cierre del día' }, 'clpPerUsd', 'Escribe el valor del dólar en pesos'],
        [{ clpPerUsd: '0', reason: 'Cierre del día' }, 'clpPerUsd', 'mayor que 0'],
        [{ clpPerUsd: '-950', reason: 'Cierre del día' }, 'clpPerUsd', 'mayor que 0'],
        [{ clpPerUsd: '950.123456', reason: 'Cierre del día' }, 'clpPerUsd', 'hasta 4 decimales'],
        [{ clpPerUsd: '1.950,5', reason: 'Cierre del día' }, 'clpPerUsd', 'Escribe el valor del dólar'],
        [{ clpPerUsd: '950,5' }, 'reason', 'Escribe por qué cambias el tipo de cambio'],
        [{ clpPerUsd: '950,5', reason: '  ' }, 'reason', 'al menos 3 caracteres'],
        [{ clpPerUsd: '950,5', reason: 'x'.repeat(301) }, 'reason', 'como máximo 300'],
      ];
      for (const [body, field, message] of cases) {
        const answer = await enter(ctx, pricing, body);
        expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(400);
        const error = answer.json<{ status: number; detail: string; errors: { field: string; message: string }[] }>();
        expect(error.status).toBe(400);
        expect(error.detail).toBe('Revisa el tipo de cambio ingresado.');
        expect(error.errors.find((e) => e.field === field)?.message, JSON.stringify(body)).toContain(message);
      }
      expect(await ctx.database.db.select().from(exchangeRates)).toHaveLength(before.length);
    });

    it('records a rate entered by hand with its reason: in force at once on the storefront, audited with before and after', async () => {
      const { pricing } = await operators();
      const seeded = await storefrontRate(ctx);
      expect(seeded.type).toBe(948.53);
      const answer = await enter(ctx, pricing, { clpPerUsd: '951,5', reason: 'Cierre del Banco Central del viernes' });
      expect(answer.status, answer.text).toBe(201);
      const { rate } = answer.json<{ rate: RateView }>();
      expect(rate).toMatchObject({
        clpPerUsd: '951.5000',
        source: 'manual',
        day: today(),
        reason: 'Cierre del Banco Central del viernes',
      });
      // The read cache was cleared: the storefront converts at the new rate right away, not after its TTL.
      expect(await storefrontRate(ctx)).toStrictEqual({ amount: 95150, type: 951.5 });
      const audit = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'exchange_rate.manual'), eq(auditEntries.targetId, String(rate.id))));
      expect(audit).toMatchObject([
        {
          actorOperatorId: pricing.id,
          actorLabel: 'precios@travesia.cl',
          before: { clpPerUsd: '948.5300', source: 'seed' },
          after: { clpPerUsd: '951.5000', source: 'manual', reason: 'Cierre del Banco Central del viernes' },
        },
      ]);
      const screen = await asOperator(ctx, pricing, 'GET', '/api/backoffice/exchange-rates');
      expect(screen.status, screen.text).toBe(200);
      const shown = screen.json<Screen>();
      expect(shown.current).toMatchObject({ id: rate.id, clpPerUsd: '951.5000' });
      expect(shown.source).toMatchObject({ id: 'mindicador' });
      expect(shown.history[0]).toMatchObject({ id: rate.id });
      expect(shown.history.at(-1)).toMatchObject({ source: 'seed' });
    });

    it('refuses a jump of more than 20 % unless confirmed, saying how big it is', async () => {
      const { pricing } = await operators();
      const refused = await enter(ctx, pricing, { clpPerUsd: '1250', reason: 'Error de tipeo probable' });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json<{ errors: { code: string; message: string }[] }>().errors).toMatchObject([
        { code: 'rate_jump', message: expect.stringMatching(/cambia 31,4 % respecto del vigente/) },
      ]);
      expect((await storefrontRate(ctx)).type).toBe(951.5);
      const confirmed = await enter(ctx, pricing, {
        clpPerUsd: '1250',
        reason: 'Devaluación confirmada',
        confirmJump: true,
      });
      expect(confirmed.status, confirmed.text).toBe(201);
      expect((await storefrontRate(ctx)).type).toBe(1250);
      const back = await enter(ctx, pricing, { clpPerUsd: '951.5', reason: 'Vuelta al valor', confirmJump: true });
      expect(back.status, back.text).toBe(201);
    });

    it('finance reads the screen but cannot change the rate; history pages by keyset', async () => {
      const { finance } = await operators();
      const read = await asOperator(ctx, finance, 'GET', '/api/backoffice/exchange-rates');
      expect(read.status, read.text).toBe(200);
      const refused = await enter(ctx, finance, { clpPerUsd: '950', reason: 'No debería poder' });
      expect(refused.status).toBe(403);
      const first = read.json<Screen>();
      const older = await asOperator(
        ctx,
        finance,
        'GET',
        `/api/backoffice/exchange-rates?before=${first.history[1]?.id}`,
      );
      expect(older.json<Screen>().history.map((r) => r.id)).toStrictEqual(first.history.slice(2).map((r) => r.id));
      const bad = await asOperator(ctx, finance, 'GET', '/api/backoffice/exchange-rates?before=abc');
      expect(bad.status).toBe(400);
    });

    it('«Actualizar ahora»: an outage answers 503 in words and changes nothing; a newer day is recorded and audited once', async () => {
      const { pricing } = await operators();
      // Entered by hand today: the source's value of today does not replace it, tomorrow's would.
      fake.series = [{ day: today(), value: '949.10' }];
      const same = await asOperator(ctx, pricing, 'POST', '/api/backoffice/exchange-rates/fetch');
      expect(same.status, same.text).toBe(200);
      expect(same.json()).toMatchObject({ outcome: 'unchanged', rate: null });
      fake.mode = 'outage';
      const down = await asOperator(ctx, pricing, 'POST', '/api/backoffice/exchange-rates/fetch');
      expect(down.status, down.text).toBe(503);
      expect(down.json<{ errors: { code: string; message: string }[] }>().errors).toMatchObject([
        { code: 'source_unavailable', message: expect.stringMatching(/no respondió.*No se cambió nada/) },
      ]);
      fake.mode = 'ok';
      // Had the rates by hand been entered yesterday, today's publication is newer: it is recorded.
      await ctx.database.db
        .update(exchangeRates)
        .set({ observedOn: day(-1) })
        .where(eq(exchangeRates.source, 'manual'));
      fake.series = [{ day: today(), value: '952.75' }];
      const done = await asOperator(ctx, pricing, 'POST', '/api/backoffice/exchange-rates/fetch');
      expect(done.status, done.text).toBe(200);
      expect(done.json()).toMatchObject({
        outcome: 'recorded',
        rate: { clpPerUsd: '952.7500', source: 'mindicador', day: today() },
      });
      const again = await asOperator(ctx, pricing, 'POST', '/api/backoffice/exchange-rates/fetch');
      expect(again.json()).toMatchObject({ outcome: 'unchanged' });
      const audit = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.action, 'exchange_rate.fetch'));
      expect(audit).toMatchObject([
        { actorOperatorId: pricing.id, after: { clpPerUsd: '952.7500', source: 'mindicador' } },
      ]);
    });

    it('a sale records the rate its price was converted at', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      const [sale] = await ctx.database.db.select().from(sales).where(eq(sales.id, payment.idVenta));
      const rate = await storefrontRate(ctx);
      expect(Number(sale?.clpPerUsd)).toBe(rate.type);
      const [attempt] = await ctx.database.db
        .select({ purchase: payments.purchase })
        .from(payments)
        .where(eq(payments.id, payment.idTransaction));
      expect(Number(attempt?.purchase?.price.clpPerUsd)).toBe(rate.type);
    });
  },
  env,
  { now: clock.now },
);

describeOnEachDatabase(
  'The worker’s daily exchange-rate job',
  (ctx, kind) => {
    const rowsOf = (observedOn: string) =>
      ctx.database.db.select().from(exchangeRates).where(eq(exchangeRates.observedOn, observedOn));

    it('queues one job per slot however many ask, records the newest day once, and a weekend adds nothing', async () => {
      fake.series = [
        { day: day(-2), value: '949.80' },
        { day: day(-1), value: 'NaN' },
        { day: day(0), value: 'NaN' },
      ];
      const queued = await Promise.all([ctx.app.queueExchangeRateFetch(), ctx.app.queueExchangeRateFetch()]);
      expect(queued.filter(Boolean)).toHaveLength(1);
      await ctx.app.runJobs();
      await ctx.app.runJobs();
      expect(await rowsOf(day(-2))).toMatchObject([{ rate: '949.8000', source: 'mindicador' }]);
      const [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, exchangeRateFetchKind));
      expect(job).toMatchObject({ status: 'done', attempts: 1 });
      expect(await ctx.app.queueExchangeRateFetch()).toBe(false);
      // Nothing newer: a direct fetch adds no row and is no error.
      const outcomes = await fetchExchangeRate(
        ctx.app.db,
        ctx.app.integrations.exchangeRateSource as never,
        clock.now(),
      );
      expect(outcomes).toMatchObject([{ outcome: 'unchanged' }]);
    });

    it(`several workers fetching at once write one row per day (${kind}, several rounds)`, async () => {
      const source = ctx.app.integrations.exchangeRateSource;
      if (!source) throw new Error('the suite configures mindicador');
      for (let round = 0; round < 3; round += 1) {
        // Each round the source has published a newer day than the one in force (a fake "tomorrow" of the last).
        const published = addDays(day(-2), round + 1);
        fake.series = [{ day: published, value: (950 + round).toFixed(2) }];
        const at = new Date(clock.at.getTime() + (round + 1) * 24 * 60 * 60_000);
        const outcomes = await Promise.all(Array.from({ length: 6 }, () => fetchExchangeRate(ctx.app.db, source, at)));
        expect(
          outcomes.flat().filter((o) => o.outcome === 'recorded'),
          `round ${round}`,
        ).toHaveLength(1);
        expect(await rowsOf(published), `round ${round}`).toHaveLength(1);
      }
    });

    it('an outage fails the job with the reason and leaves it to retry with back-off; a nonsense jump is refused, never written', async () => {
      const before = await ctx.database.db.select().from(exchangeRates);
      fake.mode = 'outage';
      await ctx.database.db.delete(jobs).where(eq(jobs.kind, exchangeRateFetchKind));
      expect(await ctx.app.queueExchangeRateFetch()).toBe(true);
      await ctx.app.runJobs();
      const [failed] = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, exchangeRateFetchKind));
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed?.lastError).toContain('status 503');
      expect(failed?.runAfter.getTime()).toBeGreaterThan(Date.now() + 20_000);
      fake.mode = 'ok';
      fake.series = [{ day: addDays(day(-2), 9), value: '2100.00' }];
      const later = new Date(clock.at.getTime() + 9 * 24 * 60 * 60_000);
      const source = ctx.app.integrations.exchangeRateSource;
      if (!source) throw new Error('the suite configures mindicador');
      const outcomes = await fetchExchangeRate(ctx.app.db, source, later);
      expect(outcomes).toMatchObject([{ outcome: 'rejected', published: { clpPerUsd: '2100.0000' } }]);
      // Run as the job: it fails (visible on «Hoy»), saying why.
      await ctx.database.db
        .update(jobs)
        .set({ runAfter: new Date(0) })
        .where(eq(jobs.kind, exchangeRateFetchKind));
      await ctx.app.runJobs();
      expect(await ctx.database.db.select().from(exchangeRates)).toHaveLength(before.length);
    });
  },
  env,
  { now: clock.now },
);

describe('«Hoy»: the exchange rate’s age', () => {
  const now = new Date('2026-11-30T15:00:00Z'); // a Monday in Chile
  it('counts business days: Friday’s rate is fine on Monday, Thursday’s is late', () => {
    expect(businessDaysSince('2026-11-27', '2026-11-30')).toBe(1);
    expect(businessDaysSince('2026-11-26', '2026-11-30')).toBe(2);
    expect(businessDaysSince('2026-11-30', '2026-11-30')).toBe(0);
  });
  it('warns in words when the rate is older than one business day, or missing', () => {
    expect(
      exchangeRateFigure({ since: new Date('2026-11-27T12:00:00Z'), day: '2026-11-27' }, now).warning,
    ).toBeUndefined();
    expect(exchangeRateFigure({ since: new Date('2026-11-26T12:00:00Z'), day: '2026-11-26' }, now)).toMatchObject({
      value: 4,
      warning:
        'El tipo de cambio vigente es del 26-11-2026: tiene 2 días hábiles de antigüedad. Actualízalo en «Tipo de cambio».',
    });
    expect(exchangeRateFigure(null, now)).toMatchObject({
      value: 'Sin tipo de cambio',
      warning: expect.stringContaining('No hay tipo de cambio vigente'),
    });
  });
});

// Where a Redis server is named (as the PostgreSQL runs, support/harness.ts): two instances of the store on one
// database, the worker's fetch on one, the storefront's pesos on the other.
const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  describe('a fetched rate shows on every instance at once (REDIS_URL)', () => {
    let database: DatabaseHandle;
    let worker: FastifyInstance;
    let web: FastifyInstance;
    const channel = `travesia-test:read-cache:${randomUUID()}`;
    const instance = () =>
      buildApp({
        config: loadConfig({ NODE_ENV: 'test', ...env, REDIS_URL: redisUrl, REDIS_CHANNEL: channel }),
        db: database.db,
        now: clock.now,
      });
    beforeAll(async () => {
      database = await openTestDatabase('pglite');
      worker = await instance();
      web = await instance();
      await Promise.all([worker.ready(), web.ready()]);
    });
    afterAll(async () => {
      await worker?.close();
      await web?.close();
      await database?.close();
    });

    it('the other instance converts at the new rate right after the job, not after its cache’s lifetime', async () => {
      expect((await storefrontRate({ app: web })).type).toBe(948.53);
      fake.series = [{ day: today(), value: '955.10' }];
      expect(await worker.queueExchangeRateFetch()).toBe(true);
      await worker.runJobs();
      const deadline = Date.now() + 3_000;
      let seen = (await storefrontRate({ app: web })).type;
      while (seen !== 955.1 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen = (await storefrontRate({ app: web })).type;
      }
      expect(seen).toBe(955.1);
    });
  });
}
