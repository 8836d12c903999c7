import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storefrontBuildExists } from '#app/web.ts';

/**
 * The real processes, started as production starts them (same entry points, configuration from the environment
 * only) through tsx: the server (`apps/api/src/server.ts`, what `npm start` runs) and the worker alone
 * (`apps/api/src/worker-main.ts`, what `npm run worker` runs).
 */

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export type Started = {
  child: ChildProcess;
  /** The server's address (the worker has none). */
  baseUrl: string;
  /** What the process printed so far (its tail). */
  output: () => string;
};

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

const entries = {
  server: { path: 'apps/api/src/server.ts', ready: 'Travesía is ready at' },
  /** What `npm start` runs once built: the server with React's production build (src/start.ts). */
  start: { path: 'apps/api/src/start.ts', ready: 'Travesía is ready at' },
  worker: { path: 'apps/api/src/worker-main.ts', ready: 'Travesía worker is running' },
  /** Exactly what `npm start` runs: the bundle `npm run build` wrote (call `buildForStart()` first). */
  'start-bundle': { path: 'apps/api/dist/start.js', ready: 'Travesía is ready at' },
} as const;

/**
 * What `npm start` needs built: the storefront's build when there is none (`npm test` builds it before the API
 * suite), and the API's bundle always, from the current source (esbuild, under a second), so a test of the bundle
 * never runs a stale one: a dependency the bundle failed to leave external once broke `npm start` while every
 * tsx-run test passed.
 */
export function buildForStart(): void {
  if (!storefrontBuildExists(join(repoRoot, 'apps', 'web', 'build'))) {
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'ignore' });
  }
  execFileSync('npm', ['run', 'build', '-w', 'apps/api'], { cwd: repoRoot, stdio: 'ignore' });
}

/** Starts the server (on a free port) or the worker; resolves once it says it is ready, rejects if it exits first. */
export async function startProcess(
  kind: keyof typeof entries,
  env: Record<string, string>,
  withinMs = 60_000,
): Promise<Started> {
  const port = await freePort();
  const loader = kind === 'start-bundle' ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...loader, entries[kind].path], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    // The tail is what explains a failure; a long run must not grow without bound.
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} did not start in time:\n${output}`)), withinMs);
    const onData = () => {
      if (!output.includes(entries[kind].ready)) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve();
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output };
}

export const isRunning = (started: Started) => started.child.exitCode === null && started.child.signalCode === null;

/**
 * Sends SIGTERM and resolves with how the process ended; one that has not exited after `graceMs` is killed
 * (and resolves with signal SIGKILL, which a test of clean shutdown then sees).
 */
export async function stopProcess(
  started: Started | undefined,
  graceMs = 5_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
  const child = started?.child;
  if (!child) return undefined;
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const ended = await exited;
  clearTimeout(timer);
  return ended;
}

/** A body for a request to a started process: JSON, or a form post as a gateway's page sends it. */
export type ProcessRequestBody = { json: unknown } | { form: string };

/** The fetch options of a request to a started process: the body encoded as its content type says, no redirects. */
export function processRequest(method: string, body: ProcessRequestBody | undefined, timeoutMs: number): RequestInit {
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  if (body && 'json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = body.form;
  }
  return { method, headers, body: payload, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) };
}
