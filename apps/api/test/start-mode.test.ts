import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForStart, type Started, startProcess, stopProcess } from './support/processes.ts';

/**
 * `npm start` on a fresh machine (no configuration at all): React's production build renders the pages, and the
 * store is a local one that starts without secrets, with the demo data and the test gateway
 * (docs/decisions/012-production-mode-and-deployment.md). The refusals of a real deployment are in config.test.ts.
 */
describe('npm start with no configuration', () => {
  let dataDir: string;
  let started: Started | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'travesia-start-'));
    buildForStart();
  }, 180_000);
  afterAll(async () => {
    await stopProcess(started);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts in React production mode as a local store with the demo company and the test gateway', async () => {
    // The bundle itself (apps/api/dist/start.js), as `npm start` runs it after `npm run build`.
    started = await startProcess('start-bundle', { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, 120_000);
    const ready = started.output().match(/Travesía is ready at [^\n]*/)?.[0] ?? '';
    expect(ready).toContain('deployment: local');
    expect(ready).toContain('React: production build');
    expect(started.output()).not.toContain("React's development build");

    const gateways = await fetch(`${started.baseUrl}/api/companies/1/payment-gateways`);
    expect(gateways.status).toBe(200);
    expect(((await gateways.json()) as { id: string }[]).map((gateway) => gateway.id)).toContain('sandbox');
    const parameters = await fetch(`${started.baseUrl}/api/companies/1/website-parameters`);
    expect(parameters.status).toBe(200);
    // The pages and the console render from the bundle too (their code paths load the HTML sanitiser and React).
    const home = await fetch(`${started.baseUrl}/`, { headers: { accept: 'text/html' } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<html lang="es-CL"');
    expect(await stopProcess(started)).toStrictEqual({ code: 0, signal: null });
  }, 150_000);

  it('the server entry alone (npm run dev, tests) keeps NODE_ENV as it is: React development build, said at start', async () => {
    started = await startProcess('server', { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, 120_000);
    const ready = started.output().match(/Travesía is ready at [^\n]*/)?.[0] ?? '';
    expect(ready).toContain('deployment: local');
    expect(ready).toContain('React: development build');
    // The warning goes through the logger, which may write it a moment after the ready line (console.log).
    await expect
      .poll(() => started?.output(), { timeout: 10_000 })
      .toContain("Pages render with React's development build");
    expect(await stopProcess(started)).toStrictEqual({ code: 0, signal: null });
  }, 150_000);
});
