import { todayInChile } from '@travesia/domain/dates';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { PurchasesConfig, RetentionConfig, WorkerConfig } from './config.ts';
import type { Database } from './db/client.ts';
import type { Integrations } from './integrations/index.ts';
import { loggableError } from './lib/loggable-error.ts';
import { exchangeRateCacheScope, fetchExchangeRate } from './modules/catalog/service.ts';
import {
  certificateEmailJob,
  certificateEmailKind,
  listCertificates,
  saleBuyer,
} from './modules/certificates/service.ts';
import { type ClaimMailSettings, claimEmailJob, claimEmailKind } from './modules/claims/service.ts';
import {
  contactEmailJob,
  contactEmailKind,
  contactReplyEmailJob,
  contactReplyEmailKind,
} from './modules/contact/service.ts';
import { createJobQueue, enqueue } from './modules/jobs/service.ts';
import { lockoutEmailJob, lockoutEmailKind } from './modules/operators/service.ts';
import {
  holdSaleRefund,
  markSaleRefundedByHand,
  processDueSaleRefunds,
  type SaleRefundCompletions,
} from './modules/payments/sale-refunds.ts';
import { sweepStaleClaims } from './modules/payments/service.ts';
import { applyRetention, type RetentionSettings } from './modules/privacy/service.ts';
import { type Invalidate, type Kinds, publicationJob, publicationJobKind } from './modules/publishing/service.ts';
import {
  accessCapEmailJob,
  accessCapEmailKind,
  purchaseCodeEmailJob,
  purchaseCodeEmailKind,
  purchaseLink,
} from './modules/purchases/service.ts';
import { withdrawalEmailJob, withdrawalEmailKind } from './modules/purchases/withdrawal.ts';
import { confirmationEmailJob, confirmationEmailKind } from './modules/subscriptions/service.ts';
import {
  taxDocumentEmailJob,
  taxDocumentEmailKind,
  taxDocumentIssueJob,
  taxDocumentIssueKind,
} from './modules/tax-documents/service.ts';
import { purchaseWorkflow } from './workflows/purchase.ts';

/**
 * The background work, all of it kept in PostgreSQL so any number of processes share it: the job queue
 * (modules/jobs: certificate e-mails…) and the sweeper that settles payments left in confirmation. It runs inside
 * the web process (WORKER=inline, the default) or in worker processes of its own (`npm run worker`, worker-main.ts).
 */
export type BackgroundWork = {
  /** Runs the due jobs now, one run at a time in this process; resolves with how many were done. */
  runJobs(): Promise<number>;
  /**
   * Settles payments left in confirmation (a crash, an unreachable gateway) and makes the due attempts of sale
   * refunds (withdrawals…); resolves with how many of both were settled.
   */
  sweepPayments(): Promise<number>;
  /**
   * Anonymises the contact requests and closed claims older than the retention periods (modules/privacy); resolves
   * with how many rows were anonymised.
   */
  applyRetention(): Promise<number>;
  /**
   * Queues today's exchange-rate fetch (one job per Chile day and 6-hour slot, whichever process queues it first)
   * when a source is configured, and runs the due jobs; resolves with whether a job was queued.
   */
  queueExchangeRateFetch(): Promise<boolean>;
  /** A sale refund was just requested here: attempt the due refunds now, in the background, if nudges are on. */
  nudgeRefunds(): void;
  /** Work was just queued here (a paid sale, a manual e-mail): run the jobs now, in the background, if nudges are on. */
  nudgeJobs(): void;
  /**
   * An operator gave a sale refund back by bank transfer: records it and completes its reason as a gateway success
   * does (the e-mail job it queues runs at once if nudges are on). See markSaleRefundedByHand.
   */
  refundByHand(
    refundId: number,
    manual: { reference: string; by: string },
    step?: Parameters<typeof markSaleRefundedByHand>[3],
  ): ReturnType<typeof markSaleRefundedByHand>;
  /**
   * An operator holds a sale refund before transferring it (the gateway asked first). See holdSaleRefund. `step`: the
   * console's version check and audit row.
   */
  holdRefund(
    refundId: number,
    by: string,
    step?: Parameters<typeof holdSaleRefund>[3],
  ): ReturnType<typeof holdSaleRefund>;
  /** Takes no further job and waits for the run in flight. */
  close(): Promise<void>;
};

export function createBackgroundWork(options: {
  db: Database;
  integrations: Integrations;
  log: FastifyBaseLogger;
  /** Whether nudges run the jobs in this process (off in a web process with WORKER=off: the workers take them). */
  nudges: boolean;
  /** The store's configured origin (lib/security/origins.ts configuredOrigin): certificate PDFs link their verification page there. */
  origin: string;
  /** Where refund e-mails point (the public origin) and the company's address for them. */
  refundMail?: ClaimMailSettings;
  /** «Mi compra»: the link secret and lifetimes (the certificate e-mail carries a signed link; codes are e-mailed). */
  purchases?: PurchasesConfig;
  /** The personal-data retention periods (config.retention); none: nothing is anonymised. */
  retention?: RetentionSettings;
  /** Clears the read cache here and on every instance (lib/cache/cache-invalidation.ts): a new exchange rate shows at once. */
  invalidateCache?: (scope?: string) => Promise<unknown>;
  /** What time it is (tests move it); the system clock by default. */
  now?: () => Date;
  /** The publishing model's kinds and the cache invalidation hook: scheduled publications are applied here. */
  publishing?: { kinds: Kinds; invalidate: Invalidate };
}): BackgroundWork {
  const { db, integrations, log } = options;
  const queue = createJobQueue(db);
  // Every kind of job this application queues, with the module that does it.
  const { purchases } = options;
  const linkOf = purchases ? (saleId: number) => purchaseLink(db, purchases, options.origin, saleId) : undefined;
  queue.register(certificateEmailKind, certificateEmailJob(db, integrations.mailer, options.origin, linkOf));
  if (purchases) queue.register(purchaseCodeEmailKind, purchaseCodeEmailJob(db, integrations.mailer, purchases));
  queue.register(accessCapEmailKind, accessCapEmailJob(db, integrations.mailer));
  queue.register(withdrawalEmailKind, withdrawalEmailJob(db, integrations.mailer, linkOf));
  queue.register(contactEmailKind, contactEmailJob(db, integrations.mailer));
  queue.register(contactReplyEmailKind, contactReplyEmailJob(db, integrations.mailer));
  queue.register(claimEmailKind, claimEmailJob(db, integrations.mailer, options.refundMail ?? {}));
  queue.register(
    confirmationEmailKind,
    confirmationEmailJob(db, integrations.mailer, options.origin, purchases?.linkSecret),
  );
  queue.register(lockoutEmailKind, lockoutEmailJob(db, integrations.mailer));
  const now = options.now ?? (() => new Date());
  const rateSource = integrations.exchangeRateSource;
  if (rateSource) {
    queue.register(exchangeRateFetchKind, {
      payload: z.object({}),
      // The queue's back-off (30 s, 1, 2, 4 min) rides out a short outage; a longer one fails the job, which «Hoy»
      // counts, and the next slot's job tries again.
      async run() {
        const outcomes = await fetchExchangeRate(db, rateSource, now());
        const recorded = outcomes.filter((o) => o.outcome === 'recorded').length;
        if (recorded > 0) await options.invalidateCache?.(exchangeRateCacheScope);
        const rejected = outcomes.find((o) => o.outcome === 'rejected');
        if (rejected?.outcome === 'rejected') {
          throw new Error(
            `Exchange rate ${rejected.published.clpPerUsd} of ${rejected.published.day} refused: it moves ${(rejected.jump * 100).toFixed(1)} % from ${rejected.current} (enter it by hand to confirm)`,
          );
        }
        return { source: rateSource.id, recorded, companies: outcomes.length };
      },
    });
  }
  if (options.publishing) queue.register(publicationJobKind, publicationJob({ db, ...options.publishing }));
  const taxProvider = integrations.taxDocuments;
  // The buyer as the certificate and withdrawal e-mails address them (certificates' saleBuyer).
  const buyerEmailOf = async (saleId: number) =>
    (await saleBuyer(db, saleId, await listCertificates(db, saleId, { includeVoided: true })))?.email ?? null;
  if (taxProvider) {
    queue.register(taxDocumentIssueKind, taxDocumentIssueJob(db, taxProvider, integrations.documentStore));
    queue.register(
      taxDocumentEmailKind,
      taxDocumentEmailJob(db, integrations.mailer, integrations.documentStore, buyerEmailOf),
    );
  }
  const workflow = purchaseWorkflow({ taxDocuments: taxProvider !== undefined });

  // What each kind of sale refund completes once the gateway gave the money back (in the refund's transaction).
  const completions: SaleRefundCompletions = workflow.refundCompletions;
  const refundDeps = { db, gateways: integrations.gateways, log, completions, onRefunded: () => nudgeJobs() };

  const closing = new AbortController();
  let jobsRun: Promise<number> = Promise.resolve(0);
  const runJobs = () => {
    const run = () => queue.run({ log, signal: closing.signal });
    jobsRun = jobsRun.then(run, run);
    return jobsRun;
  };
  const nudgeJobs = () => {
    if (!options.nudges) return;
    runJobs().catch((error: unknown) => log.warn({ error: loggableError(error) }, 'job run failed'));
  };
  return {
    runJobs,
    async sweepPayments() {
      const settled = await sweepStaleClaims({
        db,
        gateways: integrations.gateways,
        log,
        onPaid: nudgeJobs,
        workflow: workflow.steps,
      });
      return settled + (await processDueSaleRefunds(refundDeps));
    },
    async applyRetention() {
      if (!options.retention) return 0;
      const done = await applyRetention(db, integrations.documentStore, options.retention, new Date());
      if (done.contactRequests + done.claims > 0) log.info(done, 'personal data anonymised by retention');
      return done.contactRequests + done.claims;
    },
    async queueExchangeRateFetch() {
      if (!rateSource) return false;
      const at = now();
      const slot = Math.floor(Number(chileHour.format(at)) / 6);
      const queued = await enqueue(
        db,
        exchangeRateFetchKind,
        {},
        `${exchangeRateFetchKind}:${todayInChile(at)}:${slot}`,
      );
      if (queued) nudgeJobs();
      return queued;
    },
    nudgeRefunds() {
      if (!options.nudges) return;
      processDueSaleRefunds(refundDeps).catch((error: unknown) =>
        log.warn({ error: loggableError(error) }, 'sale refund run failed'),
      );
    },
    nudgeJobs,
    refundByHand: (refundId, manual, step) => markSaleRefundedByHand(refundDeps, refundId, manual, step),
    holdRefund: (refundId, by, step) => holdSaleRefund(refundDeps, refundId, by, step),
    async close() {
      closing.abort();
      await jobsRun.catch(() => 0);
      await integrations.mailer.close();
    },
  };
}

/** The job that fetches the USD→CLP rate from EXCHANGE_RATE_SOURCE (catalog fetchExchangeRate). */
export const exchangeRateFetchKind = 'exchange-rate.fetch';
/** The hour of the day in Chile (0–23): the day is split in four 6-hour slots, one fetch job each. */
const chileHour = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Santiago', hour: '2-digit', hourCycle: 'h23' });
/** How often each worker checks whether this slot's exchange-rate fetch is queued (one job a slot in all). */
const exchangeRateCheckIntervalMs = 15 * 60 * 1000;

export type RunningWorker = {
  /** Starts no further run and waits for the runs in flight (a job being done finishes and is recorded). */
  stop(): Promise<void>;
};

/** Runs the job queue and the payment sweeper now, then each on its own interval, until stopped. */
export function startWorker(
  work: Pick<BackgroundWork, 'runJobs' | 'sweepPayments'> &
    Partial<Pick<BackgroundWork, 'applyRetention' | 'queueExchangeRateFetch'>>,
  settings: Pick<WorkerConfig, 'jobsIntervalMs' | 'paymentSweepIntervalMs'>,
  log: FastifyBaseLogger,
  /** The personal-data retention's interval (config.retention); none: not run. */
  retention?: Pick<RetentionConfig, 'intervalMs'>,
): RunningWorker {
  const loops = [
    repeat(settings.jobsIntervalMs, work.runJobs, (error) =>
      log.warn({ error: loggableError(error) }, 'job run failed'),
    ),
    repeat(settings.paymentSweepIntervalMs, work.sweepPayments, (error) =>
      log.warn({ error: loggableError(error) }, 'payment sweep failed'),
    ),
  ];
  const { applyRetention: retain } = work;
  if (retain && retention) {
    loops.push(
      repeat(retention.intervalMs, retain, (error) =>
        log.warn({ error: loggableError(error) }, 'personal-data retention failed'),
      ),
    );
  }
  const { queueExchangeRateFetch } = work;
  if (queueExchangeRateFetch) {
    loops.push(
      repeat(exchangeRateCheckIntervalMs, queueExchangeRateFetch, (error) =>
        log.warn({ error: loggableError(error) }, 'exchange-rate fetch could not be queued'),
      ),
    );
  }
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}

/**
 * Runs `task` at once, then `intervalMs` after each run ends: never two runs at once however long one takes (a
 * gateway that answers slowly, an SMTP server that is slow).
 */
function repeat(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = task()
      .then(() => undefined, onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
