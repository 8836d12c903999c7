import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from './support/fixtures.ts';

/**
 * How the built storefront is served (apps/api/src/web.ts): server-rendered pages compressed as they stream,
 * hashed assets sent as the .br/.gz the build wrote beside them with a year of immutable cache, the other static
 * files with an hour. Plain node:http, so the test sees the bytes on the wire (a browser or Playwright's request
 * context would decode them).
 */

const clientDir = fileURLToPath(new URL('../apps/web/build/client/', import.meta.url));
const immutable = 'public, max-age=31536000, immutable';

type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

function rawGet(baseURL: string, path: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      new URL(path, baseURL),
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  expect(encoding, 'no other encoding').toBeUndefined();
  return answer.body;
}

const varies = (answer: RawAnswer) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .includes('accept-encoding');

test.describe('serving the storefront', () => {
  test('a server-rendered page leaves as Brotli or gzip when asked, with Vary, whole once decoded', async ({
    baseURL,
  }) => {
    const base = String(baseURL);
    const plain = await rawGet(base, '/contactanos');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toContain('text/html');
    const plainHtml = plain.body.toString('utf8');
    expect(plainHtml).toMatch(/^<!DOCTYPE html>/i);
    expect(plainHtml).toContain('</html>');

    for (const encoding of ['br', 'gzip']) {
      const answer = await rawGet(base, '/contactanos', encoding);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding'], encoding).toBe(encoding);
      expect(answer.headers['content-type']).toContain('text/html');
      expect(varies(answer), `Vary of the ${encoding} page`).toBe(true);
      const html = decoded(answer).toString('utf8');
      expect(html).toMatch(/^<!DOCTYPE html>/i);
      expect(html.trimEnd()).toMatch(/<\/html>$/);
      expect(html).toContain('<title>');
      // The same document the plain request got, give or take per-render values (none today, but not promised).
      expect(Math.abs(html.length - plainHtml.length)).toBeLessThan(200);
      expect(answer.body.length, `${encoding} saves most of the page`).toBeLessThan(html.length / 3);
    }
  });

  test('a redirect from the storefront stays a bodiless redirect', async ({ baseURL }) => {
    const answer = await rawGet(String(baseURL), '/no-such-page', 'br, gzip');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.length).toBe(0);
  });

  test('hashed assets: the precompressed copy the browser accepts, cached a year as immutable', async ({ baseURL }) => {
    const base = String(baseURL);
    const home = decoded(await rawGet(base, '/', 'br')).toString('utf8');
    // React, React DOM and React Router: the largest script (the entry itself is a few hundred bytes, too small to
    // be worth a compressed copy).
    const script = home.match(/\/assets\/framework-[\w-]+\.js/)?.[0];
    const stylesheet = home.match(/\/assets\/root-[\w-]+\.css/)?.[0];
    expect(script, 'the framework script named in the home page').toBeDefined();
    expect(stylesheet, 'the root stylesheet named in the home page').toBeDefined();

    for (const asset of [script, stylesheet] as string[]) {
      const onDisk = await readFile(`${clientDir}${asset.slice(1)}`);
      for (const [encoding, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ]) {
        const answer = await rawGet(base, asset, encoding);
        expect(answer.status, `${asset} ${encoding}`).toBe(200);
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.headers['cache-control']).toBe(immutable);
        expect(varies(answer)).toBe(true);
        expect(answer.headers['content-type']).toMatch(asset.endsWith('.js') ? /javascript/ : /^text\/css/);
        // The build's copy itself (no compression per request), which decodes to the asset.
        expect(answer.body.equals(await readFile(`${clientDir}${asset.slice(1)}${suffix}`))).toBe(true);
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(decoded(answer).equals(onDisk)).toBe(true);
        expect(answer.body.length).toBeLessThan(onDisk.length / 2);
      }
      const plain = await rawGet(base, asset);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe(immutable);
      expect(plain.body.equals(onDisk)).toBe(true);
    }
  });

  test('the compressed copies are never served under their own names', async ({ baseURL }) => {
    const base = String(baseURL);
    const home = decoded(await rawGet(base, '/', 'gzip')).toString('utf8');
    const script = home.match(/\/assets\/entry\.client-[\w-]+\.js/)?.[0];
    const answer = await rawGet(base, `${script}.br`);
    expect(answer.status).not.toBe(200);
    expect(answer.headers['content-type'] ?? '').not.toContain('javascript');
  });

  test('other static files: an hour of cache; small ones leave uncompressed', async ({ baseURL }) => {
    const base = String(baseURL);
    const favicon = await rawGet(base, '/favicon.svg', 'br, gzip');
    expect(favicon.status).toBe(200);
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
    expect(favicon.body.length).toBeLessThan(1024);
    expect(favicon.headers['content-encoding']).toBeUndefined();

    const image = await rawGet(base, '/img/plans/premium.svg', 'br');
    expect(image.status).toBe(200);
    expect(image.headers['cache-control']).toBe('public, max-age=3600');
    expect(image.headers['content-encoding']).toBe('br');
    expect(decoded(image).equals(await readFile(`${clientDir}img/plans/premium.svg`))).toBe(true);
  });
});
