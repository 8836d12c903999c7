import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedRateLoad } from './fixed-rate.ts';

/** A loopback server that records when each request arrived and answers after `delayMs` (or 500 for /fail). */
describe('fixedRateLoad', () => {
  let server: Server;
  let base = '';
  const arrivals: number[] = [];
  const delayMs = 20;

  beforeAll(async () => {
    server = createServer((request, response) => {
      arrivals.push(performance.now());
      setTimeout(() => {
        response.statusCode = request.url === '/fail' ? 500 : 200;
        response.end('ok');
      }, delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('spreads the requests evenly over the run instead of sending each second in a burst', async () => {
    arrivals.length = 0;
    const result = await fixedRateLoad(`${base}/`, { rate: 50, seconds: 1 });
    expect(arrivals).toHaveLength(50);
    expect(result.bad).toBe(0);
    // 50 a second is one every 20 ms: no 100 ms window holds more than a handful (a burst would put all 50 in one).
    const inAnyWindow = Math.max(
      ...arrivals.map((at) => arrivals.filter((other) => other >= at && other < at + 100).length),
    );
    expect(inAnyWindow).toBeLessThanOrEqual(10);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThan(800);
    // Each answer took the server's delay, and the latency counts it.
    expect(result.p50).toBeGreaterThanOrEqual(delayMs);
    expect(result.p99).toBeLessThan(delayMs + 200);
    expect(result.rps).toBeGreaterThan(40);
  });

  it('counts answers other than 2xx as bad, not as latencies', async () => {
    const result = await fixedRateLoad(`${base}/fail`, { rate: 20, seconds: 0.5 });
    expect(result.bad).toBe(10);
    expect(result.rps).toBe(0);
    expect(result.p99).toBeNaN();
  });
});
