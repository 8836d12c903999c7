import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The job queue: background work written in the same transaction as what causes it (a paid sale queues its
 * certificate e-mail) and run by a worker, so none is lost if a process stops. Any module queues work here through
 * jobs/service.ts; `kind` names the handler that does it, `payload` what it needs (no personal data: ids).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    /** Queuing the same key twice keeps the first job (the automatic e-mail of a sale, one manual send per window). */
    dedupeKey: text('dedupe_key').unique(),
    /** pending (waiting, or leased to a run until run_after) → done | failed (given up after its attempts) */
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    /** Attempts started: counted when a run leases the job, so a run that dies mid-way counts too. */
    attempts: integer('attempts').notNull().default(0),
    /** Due from then: the back-off after a failure, or the end of the lease of the run doing it now. */
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last change of status, attempts or lease: when a done job was done, when a failed one was given up. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due').on(t.runAfter).where(sql`${t.status} = 'pending'`),
    // The e-mails of one sale, for the console's sale page (payloads name the sale as saleId).
    index('jobs_sale').on(sql`((${t.payload}->>'saleId'))`),
  ],
);
