import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { compressionSettings, compressionThresholdBytes, keptBody } from '#app/lib/http/compression.ts';
import { drainJobsAfterAll, paidSale, pathAndQuery, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { inDays } from './support/trips.ts';

/**
 * API answers leave Brotli- or gzip-compressed as the client's Accept-Encoding asks (lib/http/compression.ts), say so in
 * Vary, decode to exactly the plain answer, and stay plain when not asked, when small or when not text.
 * The server-rendered pages and the precompressed assets are checked with the built storefront in
 * e2e/serving.spec.ts.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

const fetchWith = (ctx: TestContext, url: string, acceptEncoding?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

const decoded = (answer: LightMyRequestResponse): string => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(answer.rawPayload).toString('utf8');
  expect(encoding, 'an encoding this test knows').toBeUndefined();
  return answer.rawPayload.toString('utf8');
};

const varyTokens = (answer: LightMyRequestResponse) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim());

describeOnEachDatabase(
  'Compression of the API answers',
  (ctx) => {
    drainJobsAfterAll(ctx);
    const websiteParameters = '/api/companies/1/website-parameters';

    it('JSON leaves as Brotli or gzip when asked, with Vary, and decodes to the plain answer', async () => {
      const plain = await fetchWith(ctx, websiteParameters);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(compressionThresholdBytes);
      const plainJson = JSON.parse(plain.body) as unknown;

      for (const encoding of ['br', 'gzip'] as const) {
        const answer = await fetchWith(ctx, websiteParameters, encoding);
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding'], encoding).toBe(encoding);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(varyTokens(answer)).toContain('accept-encoding');
        expect(answer.rawPayload.length, `${encoding} is smaller`).toBeLessThan(plain.rawPayload.length / 2);
        const text = decoded(answer);
        expect(text).toBe(plain.body);
        expect(JSON.parse(text)).toStrictEqual(plainJson);
      }
    });

    it('a plan search answer kept whole is compressed once and decodes to the plain answer every time', async () => {
      const departure = inDays(12);
      const search = `/api/1/plans?origin=1&destination=3&modality=1&departureDate=${departure}&returnDate=${inDays(21)}&passengers=1:2,2:1`;
      const plain = await fetchWith(ctx, search);
      expect(plain.statusCode, plain.body).toBe(200);
      expect(plain.rawPayload.length).toBeGreaterThan(compressionThresholdBytes);
      for (const encoding of ['br', 'gzip', 'br', 'gzip'] as const) {
        const answer = await fetchWith(ctx, search, encoding);
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding'], encoding).toBe(encoding);
        expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
        expect(varyTokens(answer)).toContain('accept-encoding');
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(decoded(answer)).toBe(plain.body);
      }
    });

    it("follows the client's preference: a browser's list gets Brotli, gzip first by weight gets gzip", async () => {
      expect((await fetchWith(ctx, websiteParameters, 'gzip, deflate, br, zstd')).headers['content-encoding']).toBe(
        'br',
      );
      expect((await fetchWith(ctx, websiteParameters, 'gzip;q=1, br;q=0.5')).headers['content-encoding']).toBe('gzip');
      expect((await fetchWith(ctx, websiteParameters, 'br;q=0, gzip')).headers['content-encoding']).toBe('gzip');
      // Only what the client can read: deflate alone, identity, or nothing at all get the plain answer.
      for (const acceptEncoding of ['deflate', 'identity', undefined]) {
        const answer = await fetchWith(ctx, websiteParameters, acceptEncoding);
        expect(answer.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
        expect(JSON.parse(answer.body)).toHaveProperty('companyId', 1);
      }
    });

    it('a large error body is compressed too, and is the §8 body once decoded', async () => {
      const passangers = Array.from({ length: 9 }, () => ({ firstName: '', email: 'no' }));
      const answer = await ctx.app.inject({
        method: 'PUT',
        url: '/api/quotations/00000000-0000-4000-8000-000000000000/passangers',
        headers: { 'accept-encoding': 'gzip' },
        payload: { passangers },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-encoding']).toBe('gzip');
      const body = JSON.parse(decoded(answer)) as { status: number; errors: unknown[] };
      expect(body.status).toBe(400);
      expect(body.errors.length).toBeGreaterThan(9);
    });

    it('small answers leave uncompressed: the headers would outweigh the saving', async () => {
      const small = await fetchWith(ctx, '/api/no-such-call', 'br, gzip');
      expect(small.statusCode).toBe(404);
      expect(small.rawPayload.length).toBeLessThan(compressionThresholdBytes);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(small.body)).toMatchObject({ status: 404 });
    });

    it('the OpenAPI document and its viewer are compressed', async () => {
      const document = await fetchWith(ctx, '/api/docs', 'br');
      expect(document.headers['content-encoding']).toBe('br');
      expect(JSON.parse(decoded(document))).toHaveProperty('openapi');
      const viewer = await fetchWith(ctx, '/api/docs/ui/static/swagger-ui-bundle.js', 'gzip');
      expect(viewer.statusCode).toBe(200);
      expect(viewer.headers['content-encoding']).toBe('gzip');
      expect(decoded(viewer).length).toBeGreaterThan(viewer.rawPayload.length * 2);
    });

    it('a certificate PDF (already compressed) leaves as it is, whatever the client accepts', async () => {
      const sale = await paidSale(ctx);
      const link = await fetchWith(ctx, `/api/certificates/b2c/${sale.idVenta}?token=${sale.accessToken}`);
      expect(link.statusCode, link.body).toBe(200);
      const pdf = await fetchWith(
        ctx,
        pathAndQuery((JSON.parse(link.body) as { message: string }).message),
        'br, gzip',
      );
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
      expect(pdf.rawPayload.length).toBeGreaterThan(compressionThresholdBytes);
      expect(pdf.headers['content-encoding']).toBeUndefined();
      expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    });
  },
  env,
);

it('a kept body is compressed once per encoding; any other buffer every time', () => {
  const zlib = compressionSettings().zlib as {
    brotliCompressSync(input: Buffer): Buffer;
    gzipSync(input: Buffer): Buffer;
  };
  const json = Buffer.from(JSON.stringify({ plans: Array.from({ length: 50 }, (_, id) => ({ id, name: 'Plan' })) }));
  const kept = keptBody(Buffer.from(json));
  const first = zlib.brotliCompressSync(kept);
  expect(zlib.brotliCompressSync(kept)).toBe(first);
  expect(brotliDecompressSync(first)).toStrictEqual(json);
  expect(gunzipSync(zlib.gzipSync(kept))).toStrictEqual(json);
  expect(zlib.gzipSync(kept)).toBe(zlib.gzipSync(kept));
  // Not kept: compressed afresh each time (its owner may change it), the same bytes as node:zlib's.
  const other = Buffer.from(json);
  expect(zlib.brotliCompressSync(other)).not.toBe(zlib.brotliCompressSync(other));
  expect(brotliDecompressSync(zlib.brotliCompressSync(other))).toStrictEqual(json);
  expect(brotliDecompressSync(brotliCompressSync(other))).toStrictEqual(json);
});
