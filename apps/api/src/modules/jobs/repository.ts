import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { jobs } from './tables.ts';

export type JobRow = typeof jobs.$inferSelect;

/** Queues a job; with a dedupe key already used, nothing is queued. Answers whether it was queued. */
export async function insertJob(
  db: Database,
  values: { kind: string; payload: unknown; dedupeKey: string | null },
): Promise<boolean> {
  const inserted = await db.insert(jobs).values(values).onConflictDoNothing().returning({ id: jobs.id });
  return inserted.length > 0;
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
