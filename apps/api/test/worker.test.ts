import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createIntegrations } from '#app/integrations/index.ts';
import { configuredOrigin } from '#app/lib/security/origins.ts';
import { createBackgroundWork, startWorker } from '#app/worker.ts';
import {
  countEmails,
  drainJobsAfterAll,
  emailJobsOfSale,
  paidSale,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { useFakeSmtp } from './support/smtp.ts';

/**
 * The worker split: a web process with WORKER=off queues work but does none of it; whatever runs the worker (the
 * same code `npm run worker` runs, here in-process) does it. And the worker's loops: each task at once, then on its
 * own interval, never overlapping itself, and stop() waits for the run in flight.
 */

const env: NodeJS.ProcessEnv = { WORKER: 'off' };
useTemporaryDataDir(env);
const { mailsOfSale } = useFakeSmtp(env);

describeOnEachDatabase(
  'WORKER=off',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('a sale paid on a web process with WORKER=off queues its e-mail but the process does not send it; a worker does', async () => {
      expect(ctx.config.worker.mode).toBe('off');
      const sale = await paidSale(ctx);
      await sleep(300); // an inline worker's nudge would have sent it by now
      expect(mailsOfSale(sale.idVenta)).toHaveLength(0);
      expect((await emailJobsOfSale(ctx, sale.idVenta)).map((job) => job.status)).toStrictEqual(['pending']);

      // A worker process: the same background work, built from the same configuration on the same database.
      const worker = createBackgroundWork({
        db: ctx.database.db,
        integrations: createIntegrations(ctx.config, ctx.database.db),
        log: ctx.app.log,
        nudges: true,
        origin: configuredOrigin(ctx.config),
      });
      expect(await worker.runJobs()).toBe(1);
      await worker.close();
      // One job: the buyer's e-mail and one to each other traveller.
      expect(mailsOfSale(sale.idVenta)).toHaveLength(travellers.length);
      expect(await countEmails(ctx, sale.idVenta)).toBe(1);
      expect((await emailJobsOfSale(ctx, sale.idVenta)).map((job) => job.status)).toStrictEqual(['done']);
    });
  },
  env,
);

describe('startWorker', () => {
  const silent = warningsLog();

  it('runs the jobs and the payment sweep at once, then each on its own interval', async () => {
    const runs = { jobs: 0, sweeps: 0 };
    const worker = startWorker(
      {
        runJobs: async () => ++runs.jobs,
        sweepPayments: async () => ++runs.sweeps,
      },
      { jobsIntervalMs: 20, paymentSweepIntervalMs: 200 },
      silent,
    );
    // A 1 ms timer expires before the 20 ms interval's first tick, however late the loop runs them (in expiry order).
    await sleep(1);
    expect(runs).toStrictEqual({ jobs: 1, sweeps: 1 });
    await sleep(300);
    await worker.stop();
    // Each on its own interval (loose bounds: timers run late on a busy machine).
    expect(runs.sweeps).toBeGreaterThanOrEqual(2);
    expect(runs.sweeps).toBeLessThanOrEqual(3);
    expect(runs.jobs).toBeGreaterThan(2 * runs.sweeps);
    const stopped = { ...runs };
    await sleep(100);
    expect(runs).toStrictEqual(stopped);
  });

  it('runs the personal-data retention at once and on its own interval when given one, never otherwise', async () => {
    const runs = { retention: 0 };
    const work = { runJobs: async () => 0, sweepPayments: async () => 0, applyRetention: async () => ++runs.retention };
    const without = startWorker(work, { jobsIntervalMs: 1_000, paymentSweepIntervalMs: 1_000 }, silent);
    await sleep(20);
    await without.stop();
    expect(runs.retention).toBe(0);
    const worker = startWorker(work, { jobsIntervalMs: 1_000, paymentSweepIntervalMs: 1_000 }, silent, {
      intervalMs: 50,
    });
    await sleep(1);
    expect(runs.retention).toBe(1);
    await sleep(140);
    await worker.stop();
    expect(runs.retention).toBeGreaterThanOrEqual(2);
    expect(runs.retention).toBeLessThanOrEqual(4);
  });

  it('never starts a run while the last one is still going, and stop() waits for the one in flight', async () => {
    let running = 0;
    let overlapped = false;
    let finished = 0;
    const slow = async () => {
      running += 1;
      if (running > 1) overlapped = true;
      await sleep(60);
      running -= 1;
      finished += 1;
      return 0;
    };
    const worker = startWorker(
      { runJobs: slow, sweepPayments: async () => 0 },
      { jobsIntervalMs: 1, paymentSweepIntervalMs: 1_000 },
      silent,
    );
    // Waits on the runs themselves, not on the clock (a busy machine stretches timers): two done, a third in flight.
    await vi.waitFor(
      () => {
        expect(finished).toBeGreaterThanOrEqual(2);
        expect(running).toBe(1);
      },
      { timeout: 10_000, interval: 1 },
    );
    const stopping = worker.stop();
    expect(running).toBe(1);
    await stopping;
    expect(running).toBe(0);
    expect(overlapped).toBe(false);
    expect(finished).toBeGreaterThanOrEqual(2);
  });

  it('a run that fails is logged and the next one comes on time', async () => {
    const warnings: string[] = [];
    const log = warningsLog(warnings);
    let attempts = 0;
    const worker = startWorker(
      {
        runJobs: async () => {
          attempts += 1;
          throw new Error('database unavailable');
        },
        sweepPayments: async () => 0,
      },
      { jobsIntervalMs: 10, paymentSweepIntervalMs: 1_000 },
      log,
    );
    // Three runs in a row fail and the schedule goes on (waited for by count: a busy machine stretches timers).
    await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 5 });
    await worker.stop();
    expect(warnings).toContain('job run failed');
  });
});

/** A logger whose warnings' messages land in `warnings`. */
function warningsLog(warnings: string[] = []) {
  return pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
}
