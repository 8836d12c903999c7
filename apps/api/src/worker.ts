import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import type { Integrations } from './integrations/index.ts';
import { loggableError } from './lib/loggable-error.ts';
import { certificateEmailJob, certificateEmailKind } from './modules/certificates/service.ts';
import { createJobQueue } from './modules/jobs/service.ts';
import { sweepStaleClaims } from './modules/payments/service.ts';

/**
 * The background work, all of it kept in PostgreSQL so any number of processes share it: the job queue
 * (modules/jobs: certificate e-mails…) and the sweeper that settles payments left in confirmation.
 */
export type BackgroundWork = {
  /** Runs the due jobs now, one run at a time in this process; resolves with how many were done. */
  runJobs(): Promise<number>;
  /** Settles payments left in confirmation (a crash, an unreachable gateway); resolves with how many. */
  sweepPayments(): Promise<number>;
  /** Work was just queued here (a paid sale, a manual e-mail): run the jobs now, in the background. */
  nudgeJobs(): void;
  /** Takes no further job and waits for the run in flight. */
  close(): Promise<void>;
};

export function createBackgroundWork(options: {
  db: Database;
  integrations: Integrations;
  log: FastifyBaseLogger;
}): BackgroundWork {
  const { db, integrations, log } = options;
  const queue = createJobQueue(db);
  // Every kind of job this application queues, with the module that does it.
  queue.register(certificateEmailKind, certificateEmailJob(db, integrations.mailer));

  const closing = new AbortController();
  let jobsRun: Promise<number> = Promise.resolve(0);
  const runJobs = () => {
    const run = () => queue.run({ log, signal: closing.signal });
    jobsRun = jobsRun.then(run, run);
    return jobsRun;
  };
  const nudgeJobs = () => {
    runJobs().catch((error: unknown) => log.warn({ error: loggableError(error) }, 'job run failed'));
  };
  return {
    runJobs,
    sweepPayments: () => sweepStaleClaims({ db, gateways: integrations.gateways, log, onPaid: nudgeJobs }),
    nudgeJobs,
    async close() {
      closing.abort();
      await jobsRun.catch(() => 0);
    },
  };
}
