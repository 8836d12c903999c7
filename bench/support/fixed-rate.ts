// An open-loop load at a fixed rate: requests leave evenly spaced whatever the answers do, as visitors arrive.

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
 * advance), each on the keep-alive pool of Node's fetch. A request's latency counts from its due time, not from when
 * it left, so a client or a server that falls behind is measured as the waiting visitors would feel it (no
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
  const send = async (due: number) => {
    try {
      const answer = await fetch(url, { headers: options.headers, signal: AbortSignal.timeout(timeoutMs) });
      await answer.arrayBuffer();
      const done = performance.now();
      lastAnswer = Math.max(lastAnswer, done);
      if (answer.status >= 200 && answer.status < 300) latencies.push(done - due);
      else bad += 1;
    } catch {
      bad += 1;
    }
  };
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
  const seconds = Math.max(lastAnswer - start, options.seconds * 1000) / 1000;
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), bad };
}
