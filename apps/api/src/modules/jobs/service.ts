import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import * as repository from './repository.ts';

/** What a log line may carry about a job: ids and codes, never personal data. */
export type LogFields = Record<string, string | number | boolean | undefined>;

/** The job a handler is running: its id (stable across attempts) and which attempt this is (1, 2, …). */
export type RunningJob = { id: number; attempt: number };

/** How one kind of job is done. Registered per kind on a queue (worker.ts registers every module's). */
export type JobHandler<Payload> = {
  /** The payload as queued; a payload that does not parse fails its job for good (retrying cannot mend it). */
  payload: z.ZodType<Payload>;
  /**
   * Does the work; throwing has the job retried with back-off. It may run more than once for one job (a run that
   * died after the work but before recording it): make it idempotent, or let the receiver recognise a repeat by
   * the job's id. Resolves with what may be logged of the outcome.
   */
  run(payload: Payload, job: RunningJob): Promise<LogFields | undefined>;
  /** Attempts before the job fails for good; 5 unless said. */
  maxAttempts?: number;
  /** What of the payload may be logged with every line about the job. */
  logFields?(payload: Payload): LogFields;
  /** What of an error may be logged; by default its type, codes and stack frames (never its message). */
  errorFields?(error: unknown): LogFields;
};

export const defaultMaxAttempts = 5;
/**
 * Seconds a job stays leased to the run doing it. A handler must finish well inside it (the SMTP timeouts of
 * mailer.ts keep one e-mail within 2 minutes); a run that dies leaves the job due again when the lease ends.
 */
const leaseSeconds = 120;
/** At most this many jobs per run; the next run (timer or nudge) takes the rest. */
export const maxJobsPerRun = 20;
/** Back-off after a failed attempt: 30 s, 1 min, 2 min, 4 min… */
export const retryDelaySeconds = (attempt: number) => 30 * 2 ** (attempt - 1);

/**
 * Queues a job. Pass the caller's transaction so the job exists exactly when what causes it commits. With a dedupe
 * key already used (by a job of any status), nothing new is queued. Answers whether a job was queued. `runAfter`: not
 * due before then (a scheduled publication); due at once by default.
 */
export function enqueue(
  tx: Database,
  kind: string,
  payload: unknown,
  dedupeKey?: string,
  runAfter?: Date,
): Promise<boolean> {
  return repository.insertJob(tx, { kind, payload, dedupeKey: dedupeKey ?? null, ...(runAfter ? { runAfter } : {}) });
}

/**
 * Queues a job as `enqueue` does, unless `cap.max` jobs with dedupe keys starting with `cap.keyPrefix` were queued
 * within `cap.withinSeconds` (a per-sale cap on e-mails sent on request, say). Answers whether a job was queued, or
 * how many seconds until one may be.
 */
export function enqueueWithinCap(
  db: Database,
  kind: string,
  payload: unknown,
  dedupeKey: string,
  cap: { keyPrefix: string; max: number; withinSeconds: number },
): Promise<{ queued: boolean } | { retryAfterSeconds: number }> {
  if (!dedupeKey.startsWith(cap.keyPrefix)) throw new Error('A capped job is counted by its dedupe key prefix');
  return repository.insertJobWithinCap(db, { kind, payload, dedupeKey }, cap);
}

export type RunOptions = {
  log?: FastifyBaseLogger;
  /** Once aborted, no further job is leased; the one running finishes. */
  signal?: AbortSignal;
  limit?: number;
};

export type JobQueue = {
  /** The handler of one kind of job; a process runs only the kinds it registered. */
  register<Payload>(kind: string, handler: JobHandler<Payload>): void;
  /**
   * Runs what is due, leasing one job at a time just before running it (a slow job never holds others past their
   * lease). Safe from any number of processes at once. Resolves with how many jobs were done.
   */
  run(options?: RunOptions): Promise<number>;
};

const defaultErrorFields = (error: unknown): LogFields => {
  const { type, code, causeCode, stack } = loggableError(error);
  return { errorType: type, code, causeCode, stack };
};

/**
 * Done jobs are kept this long (what was sent, when), then deleted so the table does not grow for ever; failed jobs
 * stay until someone looks at them. A dedupe key therefore holds for this long after its job was done: every key
 * in use guards something that happens once (a sale becoming paid) or within minutes or an hour.
 */
export const doneJobRetentionDays = 30;
/** How often a process deletes old done jobs, at most, and how many at a time. */
const purgeIntervalMs = 60 * 60 * 1000;
const purgeBatch = 1000;

export function createJobQueue(db: Database, options: { doneRetentionDays?: number } = {}): JobQueue {
  const handlers = new Map<string, JobHandler<unknown>>();
  const retentionDays = options.doneRetentionDays ?? doneJobRetentionDays;
  let lastPurge = Number.NEGATIVE_INFINITY;

  async function purgeOldDoneJobs(log: FastifyBaseLogger | undefined) {
    if (Date.now() - lastPurge < purgeIntervalMs) return;
    lastPurge = Date.now();
    const deleted = await repository.deleteJobsDoneBefore(db, retentionDays, purgeBatch);
    if (deleted > 0) log?.info({ deleted, retentionDays }, 'old done jobs deleted');
  }

  async function runOne(job: repository.JobRow, handler: JobHandler<unknown>, log: FastifyBaseLogger | undefined) {
    const attempt = job.attempts;
    const about = { kind: job.kind, jobId: job.id, attempt };
    const parsed = handler.payload.safeParse(job.payload);
    const logged = parsed.success ? (handler.logFields?.(parsed.data) ?? {}) : {};
    let outcome: LogFields | undefined;
    try {
      if (!parsed.success) throw new InvalidPayloadError(job.kind);
      outcome = await handler.run(parsed.data, { id: job.id, attempt });
    } catch (error) {
      const giveUp = !parsed.success || attempt >= (handler.maxAttempts ?? defaultMaxAttempts);
      await repository.markJobFailed(db, job.id, {
        error: error instanceof Error ? error.message : String(error),
        giveUp,
        retryInSeconds: retryDelaySeconds(attempt),
      });
      log?.warn({ ...about, giveUp, ...logged, ...(handler.errorFields ?? defaultErrorFields)(error) }, 'job failed');
      return false;
    }
    // Recorded after the work: a run that dies in between leaves the job to run again when its lease ends.
    await repository.markJobDone(db, job.id);
    log?.info({ ...about, ...logged, ...outcome }, 'job done');
    return true;
  }

  return {
    register(kind, handler) {
      if (handlers.has(kind)) throw new Error(`A handler for job kind ${kind} is already registered`);
      handlers.set(kind, handler as JobHandler<unknown>);
    },
    async run({ log, signal, limit = maxJobsPerRun } = {}) {
      let done = 0;
      for (let taken = 0; taken < limit && !signal?.aborted; taken += 1) {
        const job = await repository.leaseNextDueJob(db, [...handlers.keys()], leaseSeconds);
        if (!job) break;
        const handler = handlers.get(job.kind);
        if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
        if (await runOne(job, handler, log)) done += 1;
      }
      if (!signal?.aborted) await purgeOldDoneJobs(log);
      return done;
    },
  };
}

class InvalidPayloadError extends Error {
  constructor(kind: string) {
    super(`The payload of this ${kind} job does not match its handler`);
    this.name = 'InvalidPayloadError';
  }
}

export { countFailingJobs, listFailingJobs, listJobsOfSale, retryFailedJob } from './repository.ts';
