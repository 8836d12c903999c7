// An open-loop load at a fixed rate: requests leave evenly spaced whatever the answers do, as visitors arrive.

import { Agent, get } from 'node:http';
import { percentile } from './figures.ts';

export type FixedRateResult = {
  /** Answers received over the run's seconds. */
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and requests that failed or got no answer in time. */
  bad: number;
};

/**
 * Sends GET `url` `rate` times a second for `seconds`, one request every `1000 / rate` ms (due times fixed in
 * advance), each on a keep-alive connection of node:http's agent (Node's fetch costs several times more CPU per
 * request, on the same two cores as the store). A request's latency counts from its due time, not from when it left, so a client or a server that falls behind is measured as the waiting visitors would feel it (no
 * «coordinated omission»).
 *
 * Why not autocannon's `overallRate`: each of its connections sends its share of a second back to back as soon as
 * the second starts, then waits for the next one, so 100 req/s over 10 connections arrive as a burst of 100 every
 * second; and it corrects for coordinated omission with an expected interval of `ceil(1 / rate)` ms, which for any
 * rate over 1 req/s per connection adds a synthetic sample for each millisecond of every answer. Its p99 at a fixed
 * rate measured the burst, not a steady load.
 */
export async function fixedRateLoad(
  url: string,
  options: { rate: number; seconds: number; headers?: Record<string, string>; timeoutMs?: number },
): Promise<FixedRateResult> {
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const latencies: number[] = [];
  let bad = 0;
  let lastAnswer = 0;
  const start = performance.now();
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const request = get(url, { agent, headers: options.headers, timeout: timeoutMs }, (answer) => {
        answer.on('data', () => {});
        answer.on('end', () => {
          const done = performance.now();
          lastAnswer = Math.max(lastAnswer, done);
          const status = answer.statusCode ?? 0;
          if (status >= 200 && status < 300) latencies.push(done - due);
          else bad += 1;
          resolve();
        });
        answer.on('error', () => {
          bad += 1;
          resolve();
        });
      });
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', () => {
        bad += 1;
        resolve();
      });
    });
  const inFlight: Promise<void>[] = [];
  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    // Every request due by now leaves now (a late timer sends the ones it owes at once, each still timed from its due).
    while (sent < total && start + sent * interval <= now) {
      inFlight.push(send(start + sent * interval));
      sent += 1;
    }
    if (sent < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + sent * interval - now)));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const seconds = Math.max(lastAnswer - start, options.seconds * 1000) / 1000;
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), bad };
}
