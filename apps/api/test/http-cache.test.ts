import { brotliDecompressSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { companyDocuments } from '#app/db/schema.ts';
import { publicCacheControl } from '#app/lib/http/http-cache.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';

/**
 * Public catalogue answers (no personal data, the same for every visitor) are cacheable for a minute with an ETag,
 * and a conditional GET that sends the ETag back is a bodiless 304 (lib/http/http-cache.ts). Answers with personal data
 * stay no-store (cache-control.test.ts).
 */

/** Every answer marked publicCatalogue: the company-scoped catalogue of spec §7, contact settings, blog list, legal page. */
const publicPaths = [
  '/api/companies/1',
  '/api/companies/1/navigation-bar',
  '/api/companies/1/footer',
  '/api/companies/1/website-parameters',
  '/api/companies/1/marketing',
  '/api/companies/1/mission',
  '/api/companies/1/vision',
  '/api/companies/1/origins',
  '/api/companies/1/destinations/1',
  '/api/companies/1/destinations/3/countries',
  '/api/companies/1/modalities',
  '/api/companies/1/passanger-types',
  '/api/companies/1/passanger-type-product',
  '/api/companies/1/payment-gateways',
  '/api/companies/1/exchange-rate?amount=100',
  '/api/companies/1/frequently-asked-questions',
  '/api/companies/1/subjects',
  '/api/companies/1/contacts-info',
  '/api/companies/1/contacts?isEmergencyOrSaleContact=true',
  '/api/companies/1/contacts?isEmergencyOrSaleContact=false',
  '/api/companies/1/contact-forms/settings',
  '/api/companies/1/blog-posts',
  '/api/companies/1/legal-pages/terminos',
  '/api/legal/condiciones-generales.pdf',
];

const getWith = (ctx: TestContext, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

const varyTokens = (answer: LightMyRequestResponse) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim());

describeOnEachDatabase(
  'HTTP caching of public catalogue answers',
  (ctx) => {
    it('every public catalogue answer is cacheable for a minute, with a weak ETag and Vary', async () => {
      const etags = new Set<string>();
      for (const url of publicPaths) {
        const answer = await getWith(ctx, url);
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
        expect(answer.headers['cache-control'], url).toBe(publicCacheControl);
        expect(answer.headers.etag, url).toMatch(/^W\/"[\w-]{20,}"$/);
        expect(varyTokens(answer), url).toContain('accept-encoding');
        etags.add(String(answer.headers.etag));
      }
      // Each answer has its own: the ETag is of the body.
      expect(etags.size).toBe(publicPaths.length);
    });

    it('a conditional GET with the ETag is a bodiless 304 that keeps the caching headers; another ETag gets the body', async () => {
      for (const url of ['/api/companies/1/website-parameters', '/api/companies/1/modalities']) {
        const first = await getWith(ctx, url);
        const etag = String(first.headers.etag);
        const again = await getWith(ctx, url, { 'if-none-match': etag });
        expect(again.statusCode, url).toBe(304);
        expect(again.rawPayload.length).toBe(0);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers['cache-control']).toBe(publicCacheControl);
        expect(again.headers['content-encoding']).toBeUndefined();
        // A list naming it, the strong form of the same tag, and * match too (If-None-Match compares weakly).
        for (const header of [`W/"other", ${etag}`, etag.replace(/^W\//, ''), '*']) {
          expect((await getWith(ctx, url, { 'if-none-match': header })).statusCode, header).toBe(304);
        }
        const other = await getWith(ctx, url, { 'if-none-match': 'W/"something-else"' });
        expect(other.statusCode).toBe(200);
        expect(other.body).toBe(first.body);
      }
    });

    it('the ETag is the same whatever the encoding, and a compressed request gets its 304 too', async () => {
      const url = '/api/companies/1/website-parameters';
      const plain = await getWith(ctx, url);
      const brotli = await getWith(ctx, url, { 'accept-encoding': 'br' });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers.etag).toBe(plain.headers.etag);
      expect(varyTokens(brotli).filter((token) => token === 'accept-encoding')).toHaveLength(1);
      const notModified = await getWith(ctx, url, {
        'accept-encoding': 'br, gzip',
        'if-none-match': String(plain.headers.etag),
      });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.rawPayload.length).toBe(0);
    });

    it('when the catalogue changes the ETag changes, and the old one gets the new body', async () => {
      const url = '/api/companies/1/footer';
      const before = await getWith(ctx, url);
      // The same answer again: the same ETag and, compressed, the same bytes (remembered with the last answer).
      const brotliBefore = await getWith(ctx, url, { 'accept-encoding': 'br' });
      expect(brotliBefore.headers.etag).toBe(before.headers.etag);
      expect(brotliDecompressSync(brotliBefore.rawPayload).toString('utf8')).toBe(before.body);
      expect((await getWith(ctx, url, { 'accept-encoding': 'br' })).rawPayload).toStrictEqual(brotliBefore.rawPayload);
      const footer = JSON.parse(before.body) as { copyright: string };
      const where = and(eq(companyDocuments.companyId, 1), eq(companyDocuments.kind, 'footer'));
      await ctx.database.db
        .update(companyDocuments)
        .set({ body: { ...footer, copyright: `${footer.copyright} (nuevo)` } })
        .where(where);
      try {
        const after = await getWith(ctx, url, { 'if-none-match': String(before.headers.etag) });
        expect(after.statusCode).toBe(200);
        expect(after.headers.etag).not.toBe(before.headers.etag);
        expect((JSON.parse(after.body) as { copyright: string }).copyright).toBe(`${footer.copyright} (nuevo)`);
        const brotliAfter = await getWith(ctx, url, { 'accept-encoding': 'br' });
        expect(brotliAfter.headers.etag).toBe(after.headers.etag);
        expect(brotliDecompressSync(brotliAfter.rawPayload).toString('utf8')).toBe(after.body);
      } finally {
        await ctx.database.db.update(companyDocuments).set({ body: footer }).where(where);
      }
    });

    it('errors of public routes are not cached and carry no ETag', async () => {
      for (const url of ['/api/companies/999/footer', '/api/companies/1/destinations/999999/countries']) {
        const answer = await getWith(ctx, url);
        expect(answer.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(answer.headers['cache-control'], url).toBe('no-store');
        expect(answer.headers.etag, url).toBeUndefined();
        expect((await getWith(ctx, url, { 'if-none-match': '*' })).statusCode, url).toBe(answer.statusCode);
      }
    });
  },
  // Every read reaches the database, so a change shows at once (the read cache is not what is tested here).
  { CATALOG_CACHE_TTL_MS: '0' },
);
