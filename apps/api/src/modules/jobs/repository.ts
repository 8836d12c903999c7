import { and, asc, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { jobs } from './tables.ts';

export type JobRow = typeof jobs.$inferSelect;

/** Queues a job; with a dedupe key already used, nothing is queued. Answers whether it was queued. */
export async function insertJob(
  db: Database,
  values: { kind: string; payload: unknown; dedupeKey: string | null; runAfter?: Date },
): Promise<boolean> {
  const inserted = await db.insert(jobs).values(values).onConflictDoNothing().returning({ id: jobs.id });
  return inserted.length > 0;
}

/**
 * Queues a job unless `cap.max` jobs whose dedupe key starts with `cap.keyPrefix` were queued within the last
 * `cap.withinSeconds` (by the database's clock). Callers holding the same prefix are serialised by a transaction-level
 * advisory lock on it, so two at once cannot both pass the cap. Capped: how many seconds until the oldest of them
 * leaves the window.
 */
export async function insertJobWithinCap(
  db: Database,
  values: { kind: string; payload: unknown; dedupeKey: string },
  cap: { keyPrefix: string; max: number; withinSeconds: number },
): Promise<{ queued: boolean } | { retryAfterSeconds: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${cap.keyPrefix}))`);
    const [recent] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        retryAfter: sql<
          number | null
        >`ceil(extract(epoch from min(${jobs.createdAt}) + make_interval(secs => ${cap.withinSeconds}) - now()))::int`,
      })
      .from(jobs)
      .where(
        and(
          sql`starts_with(${jobs.dedupeKey}, ${cap.keyPrefix})`,
          sql`${jobs.createdAt} > now() - make_interval(secs => ${cap.withinSeconds})`,
        ),
      );
    if ((recent?.count ?? 0) >= cap.max) return { retryAfterSeconds: Math.max(1, recent?.retryAfter ?? 1) };
    return { queued: await insertJob(tx, values) };
  });
}

/**
 * Leases the oldest due job of these kinds, if any: counts the attempt and moves run_after to the end of the lease,
 * so no other run takes it meanwhile (nor, once the lease is over, is it lost if this run dies). SKIP LOCKED lets
 * any number of processes lease at once without waiting for each other or taking the same job. Times are the
 * database's, the one clock every process shares.
 */
export async function leaseNextDueJob(
  db: Database,
  kinds: string[],
  leaseSeconds: number,
): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const next = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, 'pending'), lte(jobs.runAfter, sql`now()`), inArray(jobs.kind, kinds)))
    .orderBy(asc(jobs.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [leased] = await db
    .update(jobs)
    .set({
      attempts: sql`${jobs.attempts} + 1`,
      runAfter: sql`now() + make_interval(secs => ${leaseSeconds})`,
      updatedAt: sql`now()`,
    })
    .where(eq(jobs.id, sql`(${next})`))
    .returning();
  return leased;
}

export async function markJobDone(db: Database, id: number) {
  await db.update(jobs).set({ status: 'done', lastError: null, updatedAt: sql`now()` }).where(eq(jobs.id, id));
}

/**
 * Deletes up to `limit` jobs done more than `days` days ago (failed and pending ones stay). Answers how many. A batch
 * at a time keeps each delete short on a large table.
 */
export async function deleteJobsDoneBefore(db: Database, days: number, limit: number): Promise<number> {
  const old = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, 'done'), lt(jobs.updatedAt, sql`now() - make_interval(days => ${days})`)))
    .limit(limit);
  const deleted = await db.delete(jobs).where(inArray(jobs.id, old)).returning({ id: jobs.id });
  return deleted.length;
}

/** A failed attempt: due again after `retryInSeconds`, or failed for good. */
export async function markJobFailed(
  db: Database,
  id: number,
  failure: { error: string; giveUp: boolean; retryInSeconds: number },
) {
  await db
    .update(jobs)
    .set({
      status: failure.giveUp ? 'failed' : 'pending',
      lastError: failure.error.slice(0, 500),
      runAfter: sql`now() + make_interval(secs => ${failure.retryInSeconds})`,
      updatedAt: sql`now()`,
    })
    .where(eq(jobs.id, id));
}

/** The console's «Hoy» (issue 24): jobs given up since `since`, and pending ones retrying after a failure. */
export async function countFailingJobs(db: Database, since: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      sql`(${jobs.status} = 'failed' AND ${jobs.updatedAt} >= ${since}) OR (${jobs.status} = 'pending' AND ${jobs.attempts} > 0)`,
    );
  return row?.count ?? 0;
}

/**
 * The jobs whose payload names this sale (its e-mails), newest first, as long as they are kept (done ones for
 * doneJobRetentionDays): the console's sale page. jobs_sale indexes payload->>'saleId'.
 */
export function listJobsOfSale(db: Database, saleId: number) {
  return db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      status: jobs.status,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      updatedAt: jobs.updatedAt,
    })
    .from(jobs)
    .where(sql`(${jobs.payload}->>'saleId') = ${String(saleId)}`)
    .orderBy(desc(jobs.id))
    .limit(100);
}

/** The jobs failing now, newest change first: given up since `since`, or retrying after a failed attempt. */
export function listFailingJobs(db: Database, since: Date, limit: number) {
  return db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      status: jobs.status,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      updatedAt: jobs.updatedAt,
      runAfter: jobs.runAfter,
    })
    .from(jobs)
    .where(
      sql`(${jobs.status} = 'failed' AND ${jobs.updatedAt} >= ${since}) OR (${jobs.status} = 'pending' AND ${jobs.attempts} > 0)`,
    )
    .orderBy(desc(jobs.updatedAt), desc(jobs.id))
    .limit(limit);
}

/**
 * A given-up job queued again, due now with its attempts from zero (inside the caller's transaction, which audits
 * it): answers the row as it was, or undefined when it is not a failed job (done, pending, or unknown).
 */
export async function retryFailedJob(tx: Database, id: number) {
  const [before] = await tx.select().from(jobs).where(eq(jobs.id, id)).for('update');
  if (before?.status !== 'failed') return before ? { before, retried: false as const } : undefined;
  await tx
    .update(jobs)
    .set({ status: 'pending', attempts: 0, runAfter: sql`now()`, updatedAt: sql`now()` })
    .where(eq(jobs.id, id));
  return { before, retried: true as const };
}
