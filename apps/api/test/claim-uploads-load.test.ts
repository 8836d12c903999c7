import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refundLimits } from '@travesia/domain/refunds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForStart, type Started, startProcess, stopProcess } from './support/processes.ts';
import { inDays } from './support/trips.ts';

/**
 * Issue 22 item 1, its load test: one visitor's uploads froze the whole store (a 35 MB JSON post took 17 s on the
 * embedded database and the store answered nothing meanwhile; memory went from 833 to 1 817 MB). Here the real
 * server (`npm start`'s bundle, apps/api/dist/start.js, embedded PGlite; not through tsx, whose compiler and source
 * maps alone add ~60 MB to the process) receives 8 uploads of 25 MB at once, half through the API's upload
 * route and half through the refund page's form as a browser without JavaScript posts it, while the home page and
 * a plan search must each answer within a second and the process's resident memory stay under 400 MB.
 */

const uploadBytes = 25 * 1024 * 1024;
const maxResidentKb = 400 * 1024;

/** The resident memory of a process, as the kernel counts it (VmRSS, kB). */
async function residentKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
}

/**
 * Posts `files` (each `size` bytes: a PDF's first bytes, then filler) as multipart over its own connection, written
 * chunk by chunk from one shared buffer, so the test itself holds no 25 MB body. Resolves with the status.
 */
function postFiles(
  base: string,
  path: string,
  client: string,
  files: { name: string; size: number }[],
  fields: Record<string, string> = {},
): Promise<number> {
  const boundary = `----load${randomBytes(6).toString('hex')}`;
  const fieldParts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const fileHead = (name: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="documentos"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
  const end = Buffer.from(`--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  Buffer.from('%PDF-1.4\n').copy(chunk);
  const total =
    fieldParts.reduce((sum, part) => sum + part.length, 0) +
    files.reduce((sum, file) => sum + fileHead(file.name).length + file.size + 2, 0) +
    end.length;
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, base), {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(total),
        'x-forwarded-for': client,
        accept: 'text/html',
      },
    });
    request.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
    const write = (bytes: Buffer) =>
      new Promise<void>((done) => {
        if (request.write(bytes)) done();
        else request.once('drain', done);
      });
    (async () => {
      for (const part of fieldParts) await write(part);
      for (const file of files) {
        await write(fileHead(file.name));
        for (let sent = 0; sent < file.size; sent += chunk.length) {
          await write(chunk.subarray(0, Math.min(chunk.length, file.size - sent)));
        }
        await write(Buffer.from('\r\n'));
      }
      request.end(end);
    })().catch(reject);
  });
}

/** The time a GET takes to answer whole, and its status. */
async function timed(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const answer = await fetch(url, { headers: { accept: 'text/html,application/json', 'accept-encoding': 'gzip' } });
  await answer.arrayBuffer();
  return { ms: performance.now() - started, status: answer.status };
}

describe('8 uploads of 25 MB at once on the embedded database', () => {
  let server: Started | undefined;
  let dataDir: string;
  beforeAll(async () => {
    buildForStart();
    dataDir = await mkdtemp(join(tmpdir(), 'travesia-upload-load-'));
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TRUST_PROXY: '127.0.0.1', RATE_LIMIT_FACTOR: '1000' };
    // A store starts on its existing database: the first start here creates and seeds it (which leaves the
    // embedded database's memory larger for the life of that process), the measured one starts on it.
    await stopProcess(await startProcess('start-bundle', env, 120_000));
    server = await startProcess('start-bundle', env, 120_000);
  }, 150_000);
  afterAll(async () => {
    await stopProcess(server);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('the home page and a plan search answer within 1 s throughout, and memory stays under 400 MB', async () => {
    const base = server?.baseUrl ?? '';
    const pid = server?.child.pid ?? 0;
    const search = `${base}/api/1/plans?origin=1&destination=3&modality=1&departureDate=${inDays(20)}&returnDate=${inDays(34)}&passengers=1:2`;
    const home = `${base}/`;
    // Warm: the first render and the first search compile their code paths.
    for (const url of [home, search, home, search]) expect((await timed(url)).status).toBe(200);

    let running = true;
    let peakKb = await residentKb(pid);
    const probes: { what: string; ms: number; status: number }[] = [];
    const probing = (async () => {
      while (running) {
        for (const [what, url] of [
          ['home', home],
          ['plan search', search],
        ] as const) {
          probes.push({ what, ...(await timed(url)) });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const sampling = (async () => {
      while (running) {
        peakKb = Math.max(peakKb, await residentKb(pid));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const claimFields = {
      nombreTitular: 'Ana María Pérez',
      tipoDocumento: '1',
      numeroDocumento: '12.345.678-5',
      email: 'ana@example.cl',
      telefono: '+56 9 1234 5678',
      numeroCertificado: 'TRV-2026-000123',
      descripcion: 'Consulta médica en Madrid.',
      fechaIncidente: inDays(-3),
      monto: '185.000',
      moneda: 'CLP',
      banco: '012',
      tipoCuenta: 'vista',
      numeroCuenta: '12345678',
    };
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `boleta${i}.pdf`, size: refundLimits.maxFileBytes }));
    const one = [{ name: 'escaneo.pdf', size: uploadBytes }];
    const started = performance.now();
    const statuses = await Promise.all([
      // The API's upload route: five documents of 5 MB (kept), or one of 25 MB (refused once past 5 MB).
      postFiles(base, '/api/companies/1/refunds/files', '198.51.100.1', five),
      postFiles(base, '/api/companies/1/refunds/files', '198.51.100.2', five),
      postFiles(base, '/api/companies/1/refunds/files', '198.51.100.3', one),
      postFiles(base, '/api/companies/1/refunds/files', '198.51.100.4', one),
      // The refund page's form, as a browser without JavaScript posts it.
      postFiles(base, '/reembolsos', '198.51.100.5', five, claimFields),
      postFiles(base, '/reembolsos', '198.51.100.6', five, claimFields),
      postFiles(base, '/reembolsos', '198.51.100.7', one, claimFields),
      postFiles(base, '/reembolsos', '198.51.100.8', one, claimFields),
    ]);
    const uploadsMs = performance.now() - started;
    running = false;
    await Promise.all([probing, sampling]);

    expect(statuses.slice(0, 4)).toStrictEqual([201, 201, 400, 400]);
    // The page answers the form (its success or its field errors), never a failure of the store.
    for (const status of statuses.slice(4)) expect(status).toBeLessThan(500);
    expect(probes.length, `uploads took ${Math.round(uploadsMs)} ms`).toBeGreaterThanOrEqual(2);
    for (const probe of probes) {
      expect(probe.status, probe.what).toBe(200);
      expect(probe.ms, `${probe.what} took ${Math.round(probe.ms)} ms while uploading`).toBeLessThan(1000);
    }
    expect(peakKb, `peak resident memory ${Math.round(peakKb / 1024)} MB`).toBeLessThan(maxResidentKb);
  }, 60_000);
});
