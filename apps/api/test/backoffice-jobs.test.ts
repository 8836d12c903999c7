import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries, exchangeRates, jobs } from '#app/db/schema.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';

/**
 * «Trabajos con fallas» (issue 24: «Hoy»'s failing jobs and e-mails, and their list) and the exchange rate's age on
 * «Hoy». A given-up job is queued again by one administrator once, audited once, however many click at once.
 */

const clock = new TestClock();
clock.at = new Date();

/** A job the worker gave up on (status failed, its attempts spent, an SMTP error), as the queue leaves one. */
async function givenUpJob(ctx: TestContext, kind = 'certificate-email') {
  const [row] = await ctx.database.db
    .insert(jobs)
    .values({
      kind,
      payload: { saleId: 1 },
      status: 'failed',
      attempts: 5,
      lastError: 'SMTP 421: servicio no disponible',
    })
    .returning({ id: jobs.id });
  return row?.id as number;
}

const retry = (ctx: TestContext, operator: Operator, id: number) =>
  asOperator(ctx, operator, 'POST', `/api/backoffice/jobs/${id}/retry`);

describeOnEachDatabase(
  'Operator console: failing jobs and the exchange rate on «Hoy»',
  (ctx) => {
    let admin: Operator;
    let second: Operator;
    const admins = async () => {
      admin ??= await enrolledOperator(ctx, 'trabajos1@travesia.cl', ['admin'], clock);
      second ??= await enrolledOperator(ctx, 'trabajos2@travesia.cl', ['admin'], clock);
      return [admin, second] as const;
    };

    it('lists a given-up job with its error, retries it (due now, attempts from zero) with one audit row, then refuses again in words', async () => {
      const [operator] = await admins();
      const id = await givenUpJob(ctx);
      const listed = await asOperator(ctx, operator, 'GET', '/api/backoffice/jobs');
      expect(listed.status, listed.text).toBe(200);
      expect(listed.json<{ jobs: { id: number }[] }>().jobs).toContainEqual(
        expect.objectContaining({ id, status: 'failed', attempts: 5, lastError: 'SMTP 421: servicio no disponible' }),
      );
      const done = await retry(ctx, operator, id);
      expect(done.status, done.text).toBe(200);
      const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, id));
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
      expect(row?.runAfter.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      const audit = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'job.retry'), eq(auditEntries.targetId, String(id))));
      expect(audit).toMatchObject([
        {
          actorOperatorId: operator.id,
          before: { status: 'failed', attempts: 5 },
          after: { status: 'pending', attempts: 0 },
        },
      ]);
      const again = await retry(ctx, operator, id);
      expect(again.status).toBe(409);
      expect(again.json()).toMatchObject({ errors: [{ field: 'id', code: 'stale' }] });
      expect((await retry(ctx, operator, 2_000_000_000)).status).toBe(404);
    });

    it('two administrators retrying one job at once: one queues it, the other is told, one audit row (many rounds)', async () => {
      const [first, other] = await admins();
      for (let round = 0; round < 6; round++) {
        const id = await givenUpJob(ctx);
        const answers = await Promise.all([retry(ctx, first, id), retry(ctx, other, id)]);
        expect(answers.map((answer) => answer.status).sort(), answers.map((a) => a.text).join('\n')).toStrictEqual([
          200, 409,
        ]);
        const audit = await ctx.database.db
          .select()
          .from(auditEntries)
          .where(and(eq(auditEntries.action, 'job.retry'), eq(auditEntries.targetId, String(id))));
        expect(audit).toHaveLength(1);
      }
    });

    it('«Hoy» says how many days old the exchange rate in force is, and links failing jobs to their list', async () => {
      const [operator] = await admins();
      await ctx.database.db.insert(exchangeRates).values({
        companyId: ctx.config.companyId,
        fromCurrency: 'USD',
        toCurrency: 'CLP',
        rate: '951.2500',
        validFrom: new Date(clock.at.getTime() - 3 * 24 * 60 * 60 * 1000 - 60_000),
      });
      const answer = await asOperator(ctx, operator, 'GET', '/api/backoffice/today');
      const figures = answer.json<{ figures: { key: string; value: number | string; href: string }[] }>().figures;
      expect(figures.find((figure) => figure.key === 'exchange-rate-age')).toMatchObject({ value: 3 });
      expect(figures.find((figure) => figure.key === 'jobs-failing')).toMatchObject({ href: '/backoffice/trabajos' });
    });
  },
  {},
  { now: clock.now },
);
