import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { errorMessages } from '@travesia/domain/messages';
import { refundLimits, refundMessages } from '@travesia/domain/refunds';
import { count, eq, sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '#app/app.ts';
import { ConfigError, loadConfig } from '#app/config.ts';
import { openPglite } from '#app/db/client.ts';
import { refundFiles, refundRequests, refundUploads } from '#app/db/schema.ts';
import type { ErrorBody } from '#app/errors.ts';
import { createDocumentStore, DocumentNotFoundError } from '#app/integrations/document-store/index.ts';
import { s3DocumentStore } from '#app/integrations/document-store/s3.ts';
import { moveDocumentsToStore } from '#app/modules/claims/documents-migration.ts';
import { claimDocuments } from '#app/modules/claims/service.ts';
import { sweepExpiredUploads } from '#app/modules/claims/uploads.ts';
import { runRefundsCli } from '#app/refunds-cli.ts';
import { checkedDocumentStore, DocumentStoreStartError, openMigratedDatabase } from '#app/startup.ts';
import { mountPages } from '#app/web.ts';
import { cliEnvironment } from './support/cli.ts';
import { type FakeS3, startFakeS3 } from './support/fake-s3.ts';
import { describeOnEachDatabase, productionEnv, type TestContext } from './support/harness.ts';
import { anyRequestId, call } from './support/http.ts';
import { coveredSale } from './support/refund-claims.ts';
import { inDays } from './support/trips.ts';

/**
 * Issue 22 item 1: refund documents are streamed to the document store as they arrive (`POST …/refunds/files`),
 * checked by content and size on the way, answered with single-use tokens the claim names; uploads in flight are
 * capped; the S3 adapter works against an S3 API; documents of before the store move to it.
 */

const filesUrl = '/api/companies/1/refunds/files';
const claimUrl = '/api/companies/1/refunds';

const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-body')]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-body')]);

/** A PDF of `size` bytes: a real beginning, then filler. */
const pdfOf = (size: number) => {
  const bytes = Buffer.alloc(size, 0x20);
  pdf.copy(bytes);
  return bytes;
};

type Part = { name: string; bytes: Buffer; field?: string };

/** A multipart/form-data body as a browser sends it: files (field `documentos` unless told) and text fields. */
function multipart(files: Part[], fields: Record<string, string> = {}) {
  const boundary = `----travesia${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'documentos'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}

type Uploaded = { token: string; nombre: string; tipo: string; tamano: number };

const upload = (ctx: TestContext, files: Part[], remoteAddress = '192.0.2.30') => {
  const { body, contentType } = multipart(files);
  return call(ctx.app, {
    method: 'POST',
    url: filesUrl,
    payload: body,
    headers: { 'content-type': contentType },
    remoteAddress,
  });
};

async function tokensFor(ctx: TestContext, files: Part[]): Promise<string[]> {
  const answer = await upload(ctx, files);
  expect(answer.status, answer.text).toBe(201);
  return answer.json<{ archivos: Uploaded[] }>().archivos.map((file) => file.token);
}

/** The certificate every claim of these suites stands on (a paid sale covering today), made by useCoveredSale. */
let coveredCertificate = '';

function useCoveredSale(ctx: TestContext) {
  beforeAll(async () => {
    coveredCertificate = (await coveredSale(ctx)).certificates[0] ?? '';
  });
}

function claimBody(documentos: object[]) {
  return {
    nombreTitular: 'Ana María Pérez',
    tipoDocumento: 1,
    numeroDocumento: '12.345.678-5',
    email: 'ana.perez@example.cl',
    telefono: '+56 9 1234 5678',
    numeroCertificado: coveredCertificate,
    descripcion: 'Me atendieron en una clínica de Madrid y pagué la consulta.',
    fechaIncidente: inDays(0),
    monto: 185000,
    moneda: 'CLP',
    banco: '012',
    tipoCuenta: 'vista',
    numeroCuenta: '12345678',
    documentos,
  };
}

const claim = (ctx: TestContext, tokens: string[]) =>
  call(ctx.app, {
    method: 'POST',
    url: claimUrl,
    payload: claimBody(tokens.map((token) => ({ token }))),
    remoteAddress: '192.0.2.31',
  });

const requestCount = async (ctx: TestContext) =>
  (await ctx.database.db.select({ n: count() }).from(refundRequests))[0]?.n ?? 0;

async function storedDocuments(ctx: TestContext, number: string) {
  const files = await claimDocuments(ctx.database.db, ctx.app.documentStore, number);
  return Promise.all(files.map(async (file) => ({ ...file, content: await buffer(await file.open()) })));
}

/** Every file under the local store's documents folder (objects, and `.partial` ones being written). */
async function filesIn(dir: string): Promise<string[]> {
  const folder = join(dir, 'documents', 'refund-documents');
  try {
    return (await readdir(folder)).sort();
  } catch {
    return [];
  }
}

async function waitFor(what: string, condition: () => Promise<boolean>, withinMs = 10_000) {
  const until = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type OpenUpload = {
  /** Sends more of the body. */
  send: (bytes: Buffer) => Promise<void>;
  /** Sends the rest and ends the request. */
  finish: (bytes?: Buffer) => void;
  /** The visitor goes away: the connection ends mid-body. */
  abort: () => void;
  answer: Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>;
};

/** An upload over a real connection whose body is sent bit by bit, as a slow visitor's. */
function openUpload(
  base: string,
  path: string,
  boundary: string,
  totalBytes: number,
  head: Buffer,
  client?: string,
): OpenUpload {
  const url = new URL(path, base);
  const request = httpRequest(url, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(totalBytes),
      ...(client ? { 'x-forwarded-for': client } : {}),
    },
  });
  const answer = new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    request.once('response', async (response) => {
      const text = (await buffer(response)).toString();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
    });
    request.once('error', reject);
  });
  answer.catch(() => {});
  request.write(head);
  return {
    send: (bytes) => new Promise((resolve) => request.write(bytes, () => resolve())),
    finish: (bytes) => request.end(bytes),
    abort: () => request.destroy(),
    answer,
  };
}

/** The start of a one-file multipart body (the part's headers), its end, and the boundary line to begin with. */
function multipartEnvelope(name: string) {
  const boundary = `----travesia${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="documentos"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { boundary, head, tail };
}

function openOneFileUpload(base: string, fileBytes: number, client?: string, path = filesUrl) {
  const { boundary, head, tail } = multipartEnvelope('boleta.pdf');
  const opened = openUpload(base, path, boundary, head.length + fileBytes + tail.length, head, client);
  return { ...opened, tail, boundary };
}

/** An upload refused for the places in flight: `status`, Retry-After 5 and the §8 body naming `documentos`. */
function expectUploadRefused(answer: Awaited<OpenUpload['answer']>, status: number, detail: string, message: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['retry-after']).toBe('5');
  expect(JSON.parse(answer.text)).toStrictEqual({
    status,
    detail,
    instance: filesUrl,
    errors: [{ field: 'documentos', code: 'invalid', message }],
    requestId: anyRequestId,
  });
}

// ─── Uploads, tokens, claims ───────────────────────────────────────────────────────────────────────────────────────

const dataDir = mkdtempSync(join(tmpdir(), 'refund-uploads-'));
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describeOnEachDatabase(
  'refund document uploads',
  (ctx) => {
    useCoveredSale(ctx);
    it('each file is streamed to the store and answered with a token; the claim names them and they read back byte-identical', async () => {
      const answer = await upload(ctx, [
        { name: 'boleta.pdf', bytes: pdf },
        { name: 'foto.JPG', bytes: jpeg },
      ]);
      expect(answer.status, answer.text).toBe(201);
      const { archivos } = answer.json<{ archivos: Uploaded[] }>();
      expect(archivos).toStrictEqual([
        {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          nombre: 'boleta.pdf',
          tipo: 'application/pdf',
          tamano: pdf.length,
        },
        {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          nombre: 'foto.JPG',
          tipo: 'image/jpeg',
          tamano: jpeg.length,
        },
      ]);
      // Only the tokens' hashes are kept.
      const kept = await ctx.database.db.select().from(refundUploads);
      expect(kept.map((row) => row.tokenHash)).not.toContain(archivos[0]?.token);

      const claimed = await claim(
        ctx,
        archivos.map((file) => file.token),
      );
      expect(claimed.status, claimed.text).toBe(204);
      const number = String(claimed.headers['x-refund-number']);
      const stored = await storedDocuments(ctx, number);
      expect(stored.map((file) => [file.fileName, file.contentType, file.size])).toStrictEqual([
        ['boleta.pdf', 'application/pdf', pdf.length],
        ['foto.JPG', 'image/jpeg', jpeg.length],
      ]);
      expect(Buffer.compare(stored[0]?.content ?? Buffer.alloc(0), pdf)).toBe(0);
      expect(Buffer.compare(stored[1]?.content ?? Buffer.alloc(0), jpeg)).toBe(0);
    });

    it('a token serves once: a second claim naming it is a 400 on that document, and stores nothing', async () => {
      const [token] = await tokensFor(ctx, [{ name: 'boleta.pdf', bytes: pdf }]);
      expect((await claim(ctx, [token ?? ''])).status).toBe(204);
      const before = await requestCount(ctx);
      const again = await claim(ctx, [token ?? '']);
      expect(again.status).toBe(400);
      expect(again.json<ErrorBody>().errors).toStrictEqual([
        { field: 'documentos.0', code: 'invalid_format', message: refundMessages.uploadUnknown },
      ]);
      expect(await requestCount(ctx)).toBe(before);
    });

    it('unknown, expired or repeated tokens are refused, naming each; the good ones stay usable (nothing is taken)', async () => {
      const [good, expiring] = await tokensFor(ctx, [
        { name: 'a.pdf', bytes: pdf },
        { name: 'b.png', bytes: png },
      ]);
      const [expired] = await ctx.database.db
        .update(refundUploads)
        .set({ expiresAt: sql`now() - interval '1 minute'` })
        .where(eq(refundUploads.fileName, 'b.png'))
        .returning({ storageKey: refundUploads.storageKey });
      const unknown = randomBytes(32).toString('base64url');
      const before = await requestCount(ctx);
      const answer = await claim(ctx, [good ?? '', expiring ?? '', unknown, good ?? '']);
      expect(answer.status).toBe(400);
      expect(answer.json<ErrorBody>().errors.map((error) => error.field)).toStrictEqual([
        'documentos.1',
        'documentos.2',
        'documentos.3',
      ]);
      expect(await requestCount(ctx)).toBe(before);
      // The refused claim took nothing: the good token still serves.
      expect((await claim(ctx, [good ?? ''])).status).toBe(204);
      // The expired upload is swept with its bytes (by this sweep, or by the one the upload started in the background,
      // which on a pool may run after the expiry was set).
      await sweepExpiredUploads(ctx.database.db, ctx.app.documentStore);
      expect(
        await ctx.database.db.select().from(refundUploads).where(eq(refundUploads.fileName, 'b.png')),
      ).toStrictEqual([]);
      await vi.waitFor(() =>
        expect(ctx.app.documentStore.get(expired?.storageKey ?? '')).rejects.toBeInstanceOf(DocumentNotFoundError),
      );
    });

    it('two claims at once naming the same token: exactly one gets it, round after round', async () => {
      for (let round = 0; round < 6; round += 1) {
        const [token] = await tokensFor(ctx, [{ name: 'boleta.pdf', bytes: pdf }]);
        const answers = await Promise.all([claim(ctx, [token ?? '']), claim(ctx, [token ?? ''])]);
        expect(answers.map((answer) => answer.status).sort()).toStrictEqual([204, 400]);
      }
    });

    it('the type is read from the content, not the name: a refused file is named, and nothing of any file is kept', async () => {
      const before = await filesIn(dataDir);
      const executable = Buffer.concat([Buffer.from('MZ'), randomBytes(2048)]);
      const answer = await upload(ctx, [
        { name: 'boleta.pdf', bytes: pdf },
        { name: 'informe.pdf', bytes: png },
        { name: 'programa.pdf', bytes: executable },
        { name: 'vacio.pdf', bytes: Buffer.alloc(0) },
      ]);
      expect(answer.status).toBe(400);
      expect(answer.json<ErrorBody>()).toMatchObject({ status: 400, detail: errorMessages.invalidInputParameters });
      expect(answer.json<ErrorBody>().errors).toStrictEqual([
        {
          field: 'documentos.1',
          code: 'invalid_file_type',
          message: expect.stringContaining('«informe.pdf» es una imagen PNG'),
        },
        {
          field: 'documentos.2',
          code: 'invalid_file_type',
          message: expect.stringContaining('«programa.pdf» no es un PDF'),
        },
        {
          field: 'documentos.3',
          code: 'invalid_file_type',
          message: expect.stringContaining('«vacio.pdf» está vacío'),
        },
      ]);
      // The good first file was stored, then removed with the rest: an upload is all its files or none.
      expect(await filesIn(dataDir)).toStrictEqual(before);
    });

    it('more than 5 files, or none, is a 400', async () => {
      const six = Array.from({ length: 6 }, (_, i) => ({ name: `d${i}.pdf`, bytes: pdf }));
      const tooMany = await upload(ctx, six);
      expect(tooMany.status).toBe(400);
      expect(tooMany.json<ErrorBody>().errors).toStrictEqual([
        { field: 'documentos', code: 'too_many', message: refundMessages.tooManyFiles },
      ]);
      const none = await upload(ctx, [{ name: 'otro.pdf', bytes: pdf, field: 'otro' }]);
      expect(none.status).toBe(400);
      expect(none.json<ErrorBody>().errors[0]).toMatchObject({ field: 'documentos', code: 'required' });
    });

    it('a multipart body the parser cannot read (no boundary, an empty one, none in the body) is a 400 in the §8 body, never a 500', async () => {
      const bodies = [
        { contentType: 'multipart/form-data', payload: 'x' },
        { contentType: 'multipart/form-data; boundary=', payload: 'x' },
        { contentType: 'multipart/form-data; boundary=zz', payload: 'garbage without any boundary' },
      ];
      for (const { contentType, payload } of bodies) {
        const answer = await call(ctx.app, {
          method: 'POST',
          url: filesUrl,
          payload,
          headers: { 'content-type': contentType },
          remoteAddress: '192.0.2.77',
        });
        expect(answer.status, `${contentType}: ${answer.text}`).toBe(400);
        expect(answer.json<ErrorBody>()).toMatchObject({ status: 400, errors: [{ field: expect.any(String) }] });
      }
    });

    it('a body declaring more than five documents can carry is refused before it is read (413)', async () => {
      const answer = await call(ctx.app, {
        method: 'POST',
        url: filesUrl,
        payload: 'x',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(refundLimits.maxFiles * refundLimits.maxFileBytes + 2 * 1024 * 1024),
        },
      });
      expect(answer.status).toBe(413);
      expect(answer.json<ErrorBody>()).toMatchObject({ status: 413, errors: [{ code: 'file_too_large' }] });
    });

    it('the missing documents of a tracked request are added by token too', async () => {
      const [first] = await tokensFor(ctx, [{ name: 'boleta.pdf', bytes: pdf }]);
      const number = String((await claim(ctx, [first ?? ''])).headers['x-refund-number']);
      const [row] = await ctx.database.db.select().from(refundRequests).where(eq(refundRequests.number, number));
      await ctx.database.db
        .update(refundRequests)
        .set({ status: 'faltan_documentos', missingDocuments: 'La boleta original' })
        .where(eq(refundRequests.id, row?.id ?? 0));
      const [added] = await tokensFor(ctx, [{ name: 'original.png', bytes: png }]);
      const answer = await call(ctx.app, {
        method: 'POST',
        url: `${claimUrl}/${number}/documents?document=123456785`,
        payload: { documentos: [{ token: added }] },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json()).toMatchObject({ estado: 'en_revision' });
      const stored = await storedDocuments(ctx, number);
      expect(stored.map((file) => file.fileName)).toStrictEqual(['boleta.pdf', 'original.png']);
      expect(Buffer.compare(stored[1]?.content ?? Buffer.alloc(0), png)).toBe(0);
    });

    describe('over a real connection', () => {
      let base: string;
      beforeAll(async () => {
        base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      });

      it('a file over 5 MB is cut as its bytes pass: the partial object is gone while the visitor still sends; then a 400 names it', async () => {
        const before = await filesIn(dataDir);
        const fileBytes = refundLimits.maxFileBytes + 2 * 1024 * 1024;
        const opened = openOneFileUpload(base, fileBytes, '198.51.100.1');
        const body = pdfOf(fileBytes);
        await opened.send(body.subarray(0, 1024 * 1024));
        // The first megabyte is already being written to the store (not held in memory until the end).
        await waitFor('a partial object', async () =>
          (await filesIn(dataDir)).some((name) => name.endsWith('.partial')),
        );
        await opened.send(body.subarray(1024 * 1024, refundLimits.maxFileBytes + 512 * 1024));
        // Past the limit: the write is aborted and the partial object deleted, before the body is over.
        await waitFor('the partial object removed', async () => {
          const now = await filesIn(dataDir);
          return now.length === before.length && now.every((name) => before.includes(name));
        });
        opened.finish(Buffer.concat([body.subarray(refundLimits.maxFileBytes + 512 * 1024), opened.tail]));
        const answer = await opened.answer;
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.text)).toMatchObject({
          status: 400,
          errors: [{ field: 'documentos.0', code: 'file_too_large', message: expect.stringContaining('boleta.pdf') }],
        });
        expect(await filesIn(dataDir)).toStrictEqual(before);
      });

      it('a file of exactly 5 MB is accepted', async () => {
        const bytes = pdfOf(refundLimits.maxFileBytes);
        const { body, contentType } = multipart([{ name: 'grande.pdf', bytes }]);
        const answer = await fetch(`${base}${filesUrl}`, {
          method: 'POST',
          body,
          headers: { 'content-type': contentType, 'x-forwarded-for': '198.51.100.2' },
        });
        expect(answer.status).toBe(201);
        const [file] = ((await answer.json()) as { archivos: Uploaded[] }).archivos;
        expect(file?.tamano).toBe(refundLimits.maxFileBytes);
      });

      it('uploads in flight are capped per client (429) and in all (503), in the §8 body with Retry-After; freed when done', async () => {
        // This suite: 3 in all, 2 per client (env below). Slow uploads hold their places.
        const slow = [openOneFileUpload(base, 4096, '203.0.113.1'), openOneFileUpload(base, 4096, '203.0.113.1')];
        for (const upload of slow) await upload.send(pdf);
        await waitFor('two uploads in flight', async () => ctx.app.uploadGate.current === 2);
        const third = openOneFileUpload(base, 4096, '203.0.113.1');
        expectUploadRefused(
          await third.answer,
          429,
          errorMessages.tooManyRequests,
          refundMessages.uploadsBusyForClient,
        );
        const other = openOneFileUpload(base, 4096, '203.0.113.2');
        await other.send(pdf);
        await waitFor('three uploads in flight', async () => ctx.app.uploadGate.current === 3);
        const busy = await openOneFileUpload(base, 4096, '203.0.113.3').answer;
        expectUploadRefused(busy, 503, errorMessages.unexpected, refundMessages.uploadsBusy);
        for (const upload of [...slow, other]) {
          upload.finish(Buffer.concat([Buffer.alloc(4096 - pdf.length, 0x20), upload.tail]));
          expect((await upload.answer).status).toBe(201);
        }
        await waitFor('the places given back', async () => ctx.app.uploadGate.current === 0);
        const after = openOneFileUpload(base, pdf.length, '203.0.113.3');
        after.finish(Buffer.concat([pdf, after.tail]));
        expect((await after.answer).status).toBe(201);
      });

      it('a visitor who goes away mid-upload gives the place back and leaves nothing stored', async () => {
        const before = await filesIn(dataDir);
        const opened = openOneFileUpload(base, 2 * 1024 * 1024, '203.0.113.9');
        await opened.send(pdfOf(512 * 1024));
        await waitFor('the upload in flight', async () => ctx.app.uploadGate.current === 1);
        opened.abort();
        await waitFor('the place given back', async () => ctx.app.uploadGate.current === 0);
        await waitFor('nothing left stored', async () => {
          const now = await filesIn(dataDir);
          return now.length === before.length;
        });
      });
    });
  },
  {
    DATA_DIR: dataDir,
    TRUST_PROXY: '127.0.0.1',
    UPLOADS_MAX_IN_FLIGHT: '3',
    UPLOADS_MAX_IN_FLIGHT_PER_CLIENT: '2',
  },
);

// ─── The S3 adapter against an S3 API on loopback ──────────────────────────────────────────────────────────────────

describe('the S3 document store (AWS SDK) against a fake S3 server', () => {
  let s3: FakeS3;
  const credentials = { accessKeyId: 'AKIATRAVESIATEST', secretAccessKey: 'secret-of-the-test' };
  const storeOn = (bucket?: string) =>
    s3DocumentStore({
      bucket: bucket ?? s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials,
      keyPrefix: 'travesia/',
    });
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('puts a stream, reads it back, deletes it; every request signed with the configured key', async () => {
    const store = storeOn();
    await store.check();
    const bytes = pdfOf(300 * 1024);
    const { size } = await store.put(
      'refund-documents/a',
      Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
      'application/pdf',
    );
    expect(size).toBe(bytes.length);
    const object = s3.objects.get('travesia/refund-documents/a');
    expect(object?.contentType).toBe('application/pdf');
    expect(Buffer.compare(object?.body ?? Buffer.alloc(0), bytes)).toBe(0);
    expect(Buffer.compare(await buffer(await store.get('refund-documents/a')), bytes)).toBe(0);
    await store.delete('refund-documents/a');
    expect(s3.objects.has('travesia/refund-documents/a')).toBe(false);
    await expect(store.get('refund-documents/a')).rejects.toBeInstanceOf(DocumentNotFoundError);
    expect(new Set(s3.requests.map((request) => request.accessKeyId))).toStrictEqual(
      new Set([credentials.accessKeyId]),
    );
  });

  it('a body larger than one part goes up in parts and arrives whole', async () => {
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    await storeOn().put('refund-documents/big', Readable.from([bytes]), 'application/pdf');
    expect(Buffer.compare(s3.objects.get('travesia/refund-documents/big')?.body ?? Buffer.alloc(0), bytes)).toBe(0);
    expect(s3.requests.some((request) => request.path.includes('uploads'))).toBe(true);
    expect(s3.openMultipartUploads()).toBe(0);
  });

  it('a body that fails midway (too large, not a document, the visitor gone) leaves no object and no open upload', async () => {
    for (const size of [100 * 1024, 6 * 1024 * 1024]) {
      const failing = new Readable({
        read() {
          this.push(randomBytes(size));
          this.destroy(new Error('the visitor went away'));
        },
      });
      await expect(storeOn().put(`refund-documents/failed-${size}`, failing, 'application/pdf')).rejects.toThrow();
      expect(s3.objects.has(`travesia/refund-documents/failed-${size}`)).toBe(false);
    }
    expect(s3.openMultipartUploads()).toBe(0);
  });

  it('a bucket that cannot be written stops the start-up with one clear line naming it', async () => {
    await expect(storeOn('no-such-bucket').check()).rejects.toThrow(/HTTP 404/);
    const config = loadConfig({
      DATA_DIR: join(dataDir, 'never-created'),
      DOCUMENT_STORE: 's3',
      S3_BUCKET: 'no-such-bucket',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    });
    const checking = checkedDocumentStore(config);
    await expect(checking).rejects.toBeInstanceOf(DocumentStoreStartError);
    await expect(checking).rejects.toThrow(
      `Cannot use the document store (S3 ${s3.endpoint} bucket no-such-bucket): HTTP 404`,
    );
  });
});

describe('DOCUMENT_STORE configuration', () => {
  const refused = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  it('local under DATA_DIR by default; S3 with its bucket, endpoint, path style and keys', () => {
    expect(loadConfig({ DATA_DIR: '/srv/travesia' }).documents).toStrictEqual({
      kind: 'local',
      dir: '/srv/travesia/documents',
    });
    expect(
      loadConfig({
        DOCUMENT_STORE: 's3',
        S3_BUCKET: 'docs',
        S3_ENDPOINT: 'https://minio.internal:9000',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      }).documents,
    ).toStrictEqual({
      kind: 's3',
      bucket: 'docs',
      region: 'us-east-1',
      endpoint: 'https://minio.internal:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      keyPrefix: '',
    });
  });

  it('refuses to start on a configuration other than the one meant', () => {
    expect(refused({ S3_BUCKET: 'docs' })).toMatch(/S3_BUCKET set but DOCUMENT_STORE is not s3/);
    expect(refused({ ...productionEnv, S3_ENDPOINT: 'https://s3.example' })).toMatch(/DOCUMENT_STORE is not s3/);
    expect(refused({ DOCUMENT_STORE: 's3' })).toMatch(/needs S3_BUCKET/);
    expect(refused({ DOCUMENT_STORE: 's3', S3_BUCKET: 'docs' })).toMatch(/needs S3_REGION/);
    expect(refused({ DOCUMENT_STORE: 's3', S3_BUCKET: 'docs', S3_REGION: 'sa-east-1', S3_ACCESS_KEY_ID: 'k' })).toMatch(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(refused({ DOCUMENT_STORE: 'disk' })).toMatch(/DOCUMENT_STORE must be local or s3/);
    expect(refused({ DOCUMENT_STORE: 's3', S3_BUCKET: 'docs', S3_ENDPOINT: 'minio:9000' })).toMatch(/S3_ENDPOINT/);
  });
});

// ─── The whole path on S3: upload, claim, the operator's export ────────────────────────────────────────────────────

const s3Env: NodeJS.ProcessEnv = { DOCUMENT_STORE: 's3', S3_BUCKET: 'travesia-docs', S3_REGION: 'us-east-1' };
let appS3: FakeS3;
beforeAll(async () => {
  appS3 = await startFakeS3('travesia-docs');
  Object.assign(s3Env, {
    S3_ENDPOINT: appS3.endpoint,
    S3_ACCESS_KEY_ID: 'AKIASTORE',
    S3_SECRET_ACCESS_KEY: 'store-secret',
  });
});
afterAll(async () => {
  await appS3?.close();
});

describeOnEachDatabase(
  'refund documents on an S3 store',
  (ctx) => {
    useCoveredSale(ctx);
    it('uploads go to the bucket, the claim names them, the CLI exports them from the bucket', async () => {
      const before = new Set(appS3.objects.keys());
      const [token] = await tokensFor(ctx, [{ name: 'receta.png', bytes: png }]);
      const keys = [...appS3.objects.keys()].filter((key) => !before.has(key));
      expect(keys).toHaveLength(1);
      expect(Buffer.compare(appS3.objects.get(keys[0] ?? '')?.body ?? Buffer.alloc(0), png)).toBe(0);
      expect(keys[0]).toMatch(/^refund-documents\/[0-9a-f-]{36}$/);
      const answer = await claim(ctx, [token ?? '']);
      expect(answer.status, answer.text).toBe(204);
      const number = String(answer.headers['x-refund-number']);
      const folder = join(dataDir, `export-${number}`);
      const log = console.log;
      console.log = () => {};
      try {
        expect(await runRefundsCli(['files', number, folder], (await cliEnvironment(ctx, ['support'])).env)).toBe(0);
      } finally {
        console.log = log;
      }
      expect(Buffer.compare(await readFile(join(folder, '1-receta.png')), png)).toBe(0);
    });
  },
  s3Env,
);

// ─── Documents of before the store ─────────────────────────────────────────────────────────────────────────────────

describeOnEachDatabase(
  'documents kept in the database before the store',
  (ctx) => {
    useCoveredSale(ctx);
    it('move to the store at start-up, the bytea column goes, and the CLI exports them from the store', async () => {
      const [token] = await tokensFor(ctx, [{ name: 'nueva.pdf', bytes: pdf }]);
      const number = String((await claim(ctx, [token ?? ''])).headers['x-refund-number']);
      const [row] = await ctx.database.db.select().from(refundRequests).where(eq(refundRequests.number, number));
      // Two rows as the earlier versions wrote them: the bytes in `content`, no storage key.
      const old = [
        { name: 'vieja.png', type: 'image/png', bytes: png },
        { name: 'vieja.jpg', type: 'image/jpeg', bytes: jpeg },
      ];
      for (const file of old) {
        await ctx.database.db.execute(
          sql`INSERT INTO refund_files (request_id, file_name, content_type, size, content) VALUES (${row?.id ?? 0}, ${file.name}, ${file.type}, ${file.bytes.length}, ${file.bytes})`,
        );
      }
      expect(await moveDocumentsToStore(ctx.database.db, ctx.app.documentStore)).toBe(2);
      const columns = await ctx.database.db.execute(
        sql`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'refund_files' ORDER BY column_name`,
      );
      const names = (columns as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name);
      expect(names).not.toContain('content');
      expect(names).toContain('storage_key');
      const stored = await storedDocuments(ctx, number);
      expect(stored.map((file) => file.fileName)).toStrictEqual(['nueva.pdf', 'vieja.png', 'vieja.jpg']);
      expect(Buffer.compare(stored[1]?.content ?? Buffer.alloc(0), png)).toBe(0);
      expect(Buffer.compare(stored[2]?.content ?? Buffer.alloc(0), jpeg)).toBe(0);
      // Run again (every start): nothing left to move.
      expect(await moveDocumentsToStore(ctx.database.db, ctx.app.documentStore)).toBe(0);
      const folder = join(dataDir, `moved-${number}`);
      const log = console.log;
      console.log = () => {};
      try {
        expect(await runRefundsCli(['files', number, folder], (await cliEnvironment(ctx, ['support'])).env)).toBe(0);
      } finally {
        console.log = log;
      }
      expect((await readdir(folder)).sort()).toStrictEqual(['1-nueva.pdf', '2-vieja.png', '3-vieja.jpg']);
      const [files] = await ctx.database.db.select({ n: count() }).from(refundFiles);
      expect(files?.n).toBe(3);
    });
  },
  { DATA_DIR: dataDir },
);

// ─── The refund pages' forms ───────────────────────────────────────────────────────────────────────────────────────

describeOnEachDatabase(
  'the refund page streams its form',
  (ctx) => {
    useCoveredSale(ctx);
    /** What the page's action got: its body (as it reads it) and the uploads the server put in its load context. */
    const seen: { body: string; contentType: string | null; uploads: unknown; claimStatus?: number }[] = [];
    let base: string;
    // An app of its own, with the pages mounted (the suite's app is ready already), on the suite's database.
    let pageApp: FastifyInstance;
    beforeAll(async () => {
      pageApp = await buildApp({ config: ctx.config, db: ctx.database.db });
      await mountPages(pageApp, async (request, context) => {
        const body = request.method === 'POST' ? await request.text() : '';
        const entry: (typeof seen)[number] = {
          body,
          contentType: request.headers.get('content-type'),
          uploads: context.refundUploads,
        };
        const uploads = context.refundUploads;
        // The action claims when asked: the claim names the tokens the server gave it.
        if (uploads && 'tokens' in uploads && new URLSearchParams(body).get('claim') === 'yes') {
          const answer = await context.apiFetch(`http://localhost${claimUrl}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(claimBody(uploads.tokens.map((token) => ({ token })))),
          });
          entry.claimStatus = answer.status;
        }
        seen.push(entry);
        return new Response('<p>ok</p>', { headers: { 'content-type': 'text/html' } });
      });
      base = await pageApp.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await pageApp?.close();
    });

    const postPage = (path: string, files: Part[], fields: Record<string, string>, client = '198.51.100.50') => {
      const { body, contentType } = multipart(files, fields);
      return fetch(`${base}${path}`, {
        method: 'POST',
        body,
        headers: { 'content-type': contentType, 'x-forwarded-for': client },
      });
    };

    it('files go to the store, the action reads only the fields and gets the tokens from the server', async () => {
      const claims = await requestCount(ctx);
      const answer = await postPage('/reembolsos.data', [{ name: 'boleta.pdf', bytes: pdfOf(1024 * 1024) }], {
        nombreTitular: 'Ana',
        claim: 'yes',
      });
      expect(answer.status).toBe(200);
      const last = seen.at(-1);
      expect(last?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
      expect(Object.fromEntries(new URLSearchParams(last?.body))).toStrictEqual({ nombreTitular: 'Ana', claim: 'yes' });
      expect(last?.uploads).toStrictEqual({
        tokens: [expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)],
        errors: [],
        fileCount: 1,
      });
      expect(last?.claimStatus).toBe(204);
      expect(await requestCount(ctx)).toBe(claims + 1);
    });

    it('a refused file reaches the action as its field error; a post whose claim was refused keeps none of its files', async () => {
      const before = await filesIn(dataDir);
      await postPage('/reembolsos', [{ name: 'foto.pdf', bytes: png }], { nombreTitular: 'Ana' });
      expect(seen.at(-1)?.uploads).toStrictEqual({
        tokens: [],
        errors: [{ field: 'documentos.0', code: 'invalid_file_type', message: expect.stringContaining('foto.pdf') }],
        fileCount: 1,
      });
      // Stored, named by a token, but the action made no claim: gone once the page has answered.
      await postPage('/reembolsos/seguimiento', [{ name: 'boleta.pdf', bytes: pdf }], { intent: 'upload' });
      expect(seen.at(-1)?.uploads).toMatchObject({ tokens: [expect.any(String)], errors: [] });
      await waitFor('the unclaimed upload discarded', async () => {
        const rows = await ctx.database.db.select().from(refundUploads);
        const now = await filesIn(dataDir);
        return rows.length === 0 && now.length === before.length && now.every((name) => before.includes(name));
      });
    });

    it('over the caps the page is told why (429 or 503), before a byte of the body is read', async () => {
      const slow = [openOneFileUpload(base, 4096, '203.0.113.60'), openOneFileUpload(base, 4096, '203.0.113.60')];
      for (const upload of slow) await upload.send(pdf);
      await waitFor('two uploads in flight', async () => pageApp.uploadGate.current === 2);
      const answer = await postPage('/reembolsos', [{ name: 'boleta.pdf', bytes: pdf }], { a: 'b' }, '203.0.113.60');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(seen.at(-1)?.uploads).toStrictEqual({
        refused: { status: 429, message: refundMessages.uploadsBusyForClient, retryAfterSeconds: 5 },
      });
      expect(seen.at(-1)?.body).toBe('');
      for (const upload of slow) {
        upload.finish(Buffer.concat([Buffer.alloc(4096 - pdf.length, 0x20), upload.tail]));
        expect((await upload.answer).status).toBe(201);
      }
    });
  },
  { DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.1', UPLOADS_MAX_IN_FLIGHT_PER_CLIENT: '2' },
);

describe('a store of the previous version, started again (migration 0021 and the start-up move) [pglite]', () => {
  it('its documents, held in the bytea column, are in the document store after start-up, the column gone', async () => {
    const storeDir = join(dataDir, 'previous-version');
    // The previous version's schema: every migration before 0021, on an embedded database in DATA_DIR.
    const migrations = mkdtempSync(join(tmpdir(), 'travesia-migrations-'));
    const migrationsFolder = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
    await cp(migrationsFolder, migrations, { recursive: true });
    const journalPath = join(migrations, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0021');
    await writeFile(journalPath, JSON.stringify(journal));
    const previous = await openPglite({ dataDir: storeDir });
    await migratePglite(previous.db as unknown as PgliteDatabase, { migrationsFolder: migrations });
    // Only the company the request belongs to, in that version's columns: today's seed writes today's columns.
    await previous.db.execute(
      sql`INSERT INTO companies (id, name, legal_name, rut, address) VALUES (1, 'Travesía', 'Travesía SpA', '76.123.456-7', 'Santiago')`,
    );
    const request = await previous.db.execute(
      sql`INSERT INTO refund_requests (company_id, number, holder_name, document_type, document_number, document_key, email, phone, certificate_number, description, incident_date, amount, currency, bank_code, account_type, account_number)
          VALUES (1, 'R-7K3M9XQ2', 'Ana', 1, '12.345.678-5', '123456785', 'ana@example.cl', '+56912345678', 'TRV-1', 'Consulta', '2026-11-01', 185000, 'CLP', '012', 'vista', '12345678') RETURNING id`,
    );
    const requestId = (request as unknown as { rows: { id: number }[] }).rows[0]?.id ?? 0;
    for (const [name, type, bytes] of [
      ['boleta.pdf', 'application/pdf', pdf],
      ['receta.png', 'image/png', png],
    ] as const) {
      await previous.db.execute(
        sql`INSERT INTO refund_files (request_id, file_name, content_type, size, content) VALUES (${requestId}, ${name}, ${type}, ${bytes.length}, ${bytes})`,
      );
    }
    await previous.close();

    // The new version starts on it, as server.ts, the worker and the CLI do.
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: storeDir });
    const log = console.log;
    console.log = () => {};
    const database = await openMigratedDatabase(config, { log: () => undefined }).finally(() => {
      console.log = log;
    });
    try {
      const rows = await database.db.select().from(refundFiles);
      expect(rows.map((row) => [row.fileName, row.storageKey])).toStrictEqual([
        ['boleta.pdf', expect.stringMatching(/^refund-documents\/moved-\d+$/)],
        ['receta.png', expect.stringMatching(/^refund-documents\/moved-\d+$/)],
      ]);
      const store = createDocumentStore(config.documents);
      expect(Buffer.compare(await buffer(await store.get(rows[0]?.storageKey ?? '')), pdf)).toBe(0);
      expect(Buffer.compare(await buffer(await store.get(rows[1]?.storageKey ?? '')), png)).toBe(0);
      const columns = await database.db.execute(
        sql`SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = 'refund_files' AND column_name IN ('content', 'storage_key')`,
      );
      expect((columns as unknown as { rows: unknown[] }).rows).toStrictEqual([
        { column_name: 'storage_key', is_nullable: 'NO' },
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
