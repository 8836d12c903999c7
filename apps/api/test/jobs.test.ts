import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { jobs } from '#app/db/schema.ts';
import {
  createJobQueue,
  defaultMaxAttempts,
  doneJobRetentionDays,
  enqueue,
  type JobHandler,
  type RunningJob,
  retryDelaySeconds,
} from '#app/modules/jobs/service.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';

/**
 * The job queue on its own, with kinds of job defined here (the certificate e-mail, its first user, is proven in
 * certificates.test.ts): transactional enqueue, dedupe keys, back-off and giving up, leases, concurrent runs.
 */

type Note = { note: string };
const notePayload = z.object({ note: z.string() });

/** A handler that records every run and fails while `failures` says so. */
function recorder(options: { failures?: number; maxAttempts?: number; gate?: Promise<void> } = {}) {
  const runs: { note: string; job: RunningJob }[] = [];
  let failures = options.failures ?? 0;
  const handler: JobHandler<Note> = {
    payload: notePayload,
    maxAttempts: options.maxAttempts,
    logFields: ({ note }) => ({ note }),
    async run({ note }, job) {
      runs.push({ note, job });
      await options.gate;
      if (failures > 0) {
        failures -= 1;
        throw new Error(`refused ${note}`);
      }
      return undefined;
    },
  };
  return { handler, runs };
}

let kindCounter = 0;
/** A kind of job of its own per test, so no test sees another's jobs. */
const newKind = () => {
  kindCounter += 1;
  return `test-${Date.now()}-${kindCounter}`;
};

function queueFor(ctx: TestContext, kind: string, handler: JobHandler<Note>) {
  const queue = createJobQueue(ctx.database.db);
  queue.register(kind, handler);
  return queue;
}

const jobsOfKind = (ctx: TestContext, kind: string) =>
  ctx.database.db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.id);

/** Seconds from the database's now() until the job is due. */
async function secondsUntilDue(ctx: TestContext, id: number): Promise<number> {
  const [row] = await ctx.database.db
    .select({ seconds: sql<number>`extract(epoch from ${jobs.runAfter} - now())::float8` })
    .from(jobs)
    .where(eq(jobs.id, id));
  return Number(row?.seconds);
}

/** Makes a job due now, as if its back-off or lease had passed. */
const makeDue = (ctx: TestContext, id: number) =>
  ctx.database.db.update(jobs).set({ runAfter: sql`now() - interval '1 second'` }).where(eq(jobs.id, id));

describeOnEachDatabase('Job queue', (ctx) => {
  it('a job queued in a transaction exists only if that transaction commits, and then runs once', async () => {
    const kind = newKind();
    const { handler, runs } = recorder();
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await enqueue(tx, kind, { note: 'rolled back' });
        throw new Error('the cause of the job fails');
      }),
    ).rejects.toThrow('the cause of the job fails');
    await ctx.database.db.transaction(async (tx) => {
      expect(await enqueue(tx, kind, { note: 'committed' })).toBe(true);
    });
    const queue = queueFor(ctx, kind, handler);
    expect(await queue.run()).toBe(1);
    expect(await queue.run()).toBe(0);
    expect(runs.map((r) => r.note)).toStrictEqual(['committed']);
    const rows = await jobsOfKind(ctx, kind);
    expect(rows.map((r) => [r.status, r.attempts, r.lastError])).toStrictEqual([['done', 1, null]]);
  });

  it('a dedupe key queues one job however often it is queued, before or after the job ran', async () => {
    const kind = newKind();
    const { handler, runs } = recorder();
    expect(await enqueue(ctx.database.db, kind, { note: 'first' }, `${kind}:once`)).toBe(true);
    expect(await enqueue(ctx.database.db, kind, { note: 'second' }, `${kind}:once`)).toBe(false);
    expect(await queueFor(ctx, kind, handler).run()).toBe(1);
    expect(await enqueue(ctx.database.db, kind, { note: 'third' }, `${kind}:once`)).toBe(false);
    expect(await enqueue(ctx.database.db, kind, { note: 'no key' })).toBe(true);
    expect(await enqueue(ctx.database.db, kind, { note: 'no key' })).toBe(true);
    expect(await queueFor(ctx, kind, handler).run()).toBe(2);
    expect(runs.map((r) => r.note)).toStrictEqual(['first', 'no key', 'no key']);
  });

  it('a failing job is retried after a growing back-off and fails for good after its attempts, keeping its error', async () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toStrictEqual([30, 60, 120, 240]);
    expect(defaultMaxAttempts).toBe(5);
    const kind = newKind();
    const { handler, runs } = recorder({ failures: 10, maxAttempts: 3 });
    await enqueue(ctx.database.db, kind, { note: 'doomed' });
    const queue = queueFor(ctx, kind, handler);
    const [job] = await jobsOfKind(ctx, kind);
    if (!job) throw new Error('not queued');

    for (const attempt of [1, 2]) {
      expect(await queue.run()).toBe(0);
      const [row] = await jobsOfKind(ctx, kind);
      expect(row).toMatchObject({ status: 'pending', attempts: attempt, lastError: 'refused doomed' });
      const wait = await secondsUntilDue(ctx, job.id);
      expect(wait).toBeGreaterThan(retryDelaySeconds(attempt) - 5);
      expect(wait).toBeLessThanOrEqual(retryDelaySeconds(attempt));
      // Not due yet: a run leaves it alone.
      expect(await queue.run()).toBe(0);
      expect(runs).toHaveLength(attempt);
      await makeDue(ctx, job.id);
    }
    expect(await queue.run()).toBe(0);
    const [given] = await jobsOfKind(ctx, kind);
    expect(given).toMatchObject({ status: 'failed', attempts: 3, lastError: 'refused doomed' });
    await makeDue(ctx, job.id);
    expect(await queue.run()).toBe(0);
    expect(runs.map((r) => r.job)).toStrictEqual([1, 2, 3].map((attempt) => ({ id: job.id, attempt })));
  });

  it('a job that fails once is done on its next attempt', async () => {
    const kind = newKind();
    const { handler, runs } = recorder({ failures: 1 });
    await enqueue(ctx.database.db, kind, { note: 'flaky' });
    const queue = queueFor(ctx, kind, handler);
    expect(await queue.run()).toBe(0);
    const [job] = await jobsOfKind(ctx, kind);
    await makeDue(ctx, job?.id ?? 0);
    expect(await queue.run()).toBe(1);
    expect(await jobsOfKind(ctx, kind)).toMatchObject([{ status: 'done', attempts: 2, lastError: null }]);
    expect(runs.map((r) => r.job.attempt)).toStrictEqual([1, 2]);
  });

  it('a payload its handler does not accept fails for good at once, without running the handler', async () => {
    const kind = newKind();
    const { handler, runs } = recorder();
    await enqueue(ctx.database.db, kind, { note: 42 });
    expect(await queueFor(ctx, kind, handler).run()).toBe(0);
    const [row] = await jobsOfKind(ctx, kind);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.lastError).toMatch(/payload/);
    expect(runs).toStrictEqual([]);
  });

  it('a process runs only the kinds it has handlers for: others stay pending for a process that has one', async () => {
    const known = newKind();
    const unknown = newKind();
    const { handler, runs } = recorder();
    await enqueue(ctx.database.db, unknown, { note: 'for someone else' });
    await enqueue(ctx.database.db, known, { note: 'mine' });
    expect(await queueFor(ctx, known, handler).run()).toBe(1);
    expect(runs.map((r) => r.note)).toStrictEqual(['mine']);
    expect(await jobsOfKind(ctx, unknown)).toMatchObject([{ status: 'pending', attempts: 0 }]);
    const other = recorder();
    expect(await queueFor(ctx, unknown, other.handler).run()).toBe(1);
    expect(other.runs.map((r) => r.note)).toStrictEqual(['for someone else']);
  });

  it('two runs at once never take the same job: each of 12 jobs is done exactly once', async () => {
    const kind = newKind();
    const runs: number[] = [];
    const slow: JobHandler<Note> = {
      payload: notePayload,
      async run(_payload, job) {
        runs.push(job.id);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return undefined;
      },
    };
    for (let n = 0; n < 12; n += 1) await enqueue(ctx.database.db, kind, { note: String(n) });
    const done = await Promise.all([queueFor(ctx, kind, slow).run(), queueFor(ctx, kind, slow).run()]);
    expect(done[0] + done[1]).toBe(12);
    expect(runs).toHaveLength(12);
    expect(new Set(runs).size).toBe(12);
    expect((await jobsOfKind(ctx, kind)).every((row) => row.status === 'done' && row.attempts === 1)).toBe(true);
  });

  it('a job whose run died is leased until the lease ends, then run again with the same id (at least once)', async () => {
    const kind = newKind();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stuck = recorder({ gate });
    await enqueue(ctx.database.db, kind, { note: 'once or more' });
    // A run that takes the job and never finishes (its process is gone, as far as the others can tell).
    const dying = queueFor(ctx, kind, stuck.handler).run();
    await expect.poll(() => stuck.runs.length).toBe(1);
    const [leased] = await jobsOfKind(ctx, kind);
    if (!leased) throw new Error('not queued');
    expect(leased).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await secondsUntilDue(ctx, leased.id)).toBeGreaterThan(100);

    const other = recorder();
    expect(await queueFor(ctx, kind, other.handler).run()).toBe(0);
    await makeDue(ctx, leased.id); // the lease ends
    expect(await queueFor(ctx, kind, other.handler).run()).toBe(1);
    expect(other.runs.map((r) => r.job)).toStrictEqual([{ id: leased.id, attempt: 2 }]);
    release();
    expect(await dying).toBe(1);
    expect(await jobsOfKind(ctx, kind)).toMatchObject([{ status: 'done', attempts: 2 }]);
  });

  it('a run stops leasing once its signal is aborted: the job in hand finishes, the rest wait', async () => {
    const kind = newKind();
    const stop = new AbortController();
    const handler: JobHandler<Note> = {
      payload: notePayload,
      async run() {
        stop.abort();
        return undefined;
      },
    };
    for (let n = 0; n < 3; n += 1) await enqueue(ctx.database.db, kind, { note: String(n) });
    expect(await queueFor(ctx, kind, handler).run({ signal: stop.signal })).toBe(1);
    expect((await jobsOfKind(ctx, kind)).map((row) => row.status)).toStrictEqual(['done', 'pending', 'pending']);
  });

  it('done jobs older than the retention are deleted by a run; failed, pending and recent done ones stay', async () => {
    const kind = newKind();
    const { handler } = recorder();
    const ids: Record<string, number> = {};
    for (const [name, status, daysAgo] of [
      ['old done', 'done', doneJobRetentionDays + 1],
      ['recent done', 'done', doneJobRetentionDays - 1],
      ['old failed', 'failed', doneJobRetentionDays + 30],
    ] as const) {
      const [row] = await ctx.database.db
        .insert(jobs)
        .values({ kind, payload: { note: name }, status, updatedAt: sql`now() - make_interval(days => ${daysAgo})` })
        .returning({ id: jobs.id });
      ids[name] = row?.id ?? 0;
    }
    await enqueue(ctx.database.db, kind, { note: 'pending' });
    // A fresh queue purges on its first run; the pending job is done by the same run.
    expect(await queueFor(ctx, kind, handler).run()).toBe(1);
    const left = await jobsOfKind(ctx, kind);
    expect(
      left.map((r) => [r.id === ids['recent done'] || r.id === ids['old failed'] ? r.id : 'new', r.status]),
    ).toStrictEqual([
      [ids['recent done'], 'done'],
      [ids['old failed'], 'failed'],
      ['new', 'done'],
    ]);
  });

  it('a kind has one handler', () => {
    const queue = createJobQueue(ctx.database.db);
    queue.register('twice', recorder().handler);
    expect(() => queue.register('twice', recorder().handler)).toThrow(/already registered/);
  });
});
