import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#app/config.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call, get } from './support/http.ts';

const redirects = {
  '/cotizador-socio': 'https://cotiza.example.com/socio',
  '/aliado/peru': 'https://www.example.pe/?pais=pe',
  '/niños': 'https://ninos.example.cl/',
};

/** The one-line start-up error for LEGACY_REDIRECTS=value. */
function startupError(value: string): string {
  try {
    loadConfig({ LEGACY_REDIRECTS: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error(`LEGACY_REDIRECTS=${value} was accepted`);
}

describe('LEGACY_REDIRECTS configuration', () => {
  const folder = mkdtemp(join(tmpdir(), 'legacy-'));
  afterAll(async () => rm(await folder, { recursive: true, force: true }));

  it('unset or empty: no redirects', () => {
    expect(loadConfig({}).legacyRedirects.size).toBe(0);
    expect(loadConfig({ LEGACY_REDIRECTS: ' ' }).legacyRedirects.size).toBe(0);
  });

  it('reads a JSON object inline, or from the file it names', async () => {
    expect(Object.fromEntries(loadConfig({ LEGACY_REDIRECTS: JSON.stringify(redirects) }).legacyRedirects)).toEqual(
      redirects,
    );
    const file = join(await folder, 'redirects.json');
    await writeFile(file, JSON.stringify(redirects));
    expect(Object.fromEntries(loadConfig({ LEGACY_REDIRECTS: file }).legacyRedirects)).toEqual(redirects);
  });

  it('refuses bad values at start-up, in words naming the variable and the entry', async () => {
    expect(startupError('{"/a": ')).toMatch(/^Invalid configuration: LEGACY_REDIRECTS is not valid JSON/);
    expect(startupError('["/a"]')).toMatch(/LEGACY_REDIRECTS must be a JSON object/);
    expect(startupError(join(await folder, 'missing.json'))).toMatch(
      /LEGACY_REDIRECTS is not JSON and names no readable file .*missing\.json.*ENOENT/,
    );
    expect(startupError('{"viejo": "https://a.example"}')).toContain('"viejo" must start with /');
    expect(startupError('{"/a?b=1": "https://a.example"}')).toContain('"/a?b=1" must be a path only');
    expect(startupError('{"/api/companies": "https://a.example"}')).toContain('must not be under /api');
    expect(startupError('{"/a": "/relativo"}')).toContain('the target of "/a" must be an absolute http(s) URL');
    expect(startupError('{"/a": "javascript:alert(1)"}')).toContain('must be an absolute http(s) URL');
    expect(startupError('{"/a": 3}')).toContain('the target of "/a" must be an absolute http(s) URL in quotes');
    // Every bad entry is named at once.
    expect(startupError('{"x": "https://a.example", "/y": "ftp://b"}')).toMatch(/"x" must start with \/.*"\/y"/);
  });
});

describeOnEachDatabase(
  'legacy redirects',
  (ctx) => {
    it('answers a configured path with 301 to its URL, before any route', async () => {
      const answer = await get(ctx.app, '/cotizador-socio');
      expect(answer.status).toBe(301);
      expect(answer.headers.location).toBe('https://cotiza.example.com/socio');
    });

    it('ignores the query string for matching and carries it along', async () => {
      const answer = await get(ctx.app, '/aliado/peru?utm_source=correo&x=1');
      expect(answer.status).toBe(301);
      expect(answer.headers.location).toBe('https://www.example.pe/?pais=pe&utm_source=correo&x=1');
    });

    it('matches a percent-encoded path against its entry', async () => {
      const answer = await get(ctx.app, '/ni%C3%B1os');
      expect(answer.status).toBe(301);
      expect(answer.headers.location).toBe('https://ninos.example.cl/');
    });

    it('matches exactly: another path, a trailing slash or a POST are not redirected', async () => {
      expect((await get(ctx.app, '/cotizador-socio/')).status).not.toBe(301);
      expect((await get(ctx.app, '/cotizador-socio/otro')).status).not.toBe(301);
      expect((await call(ctx.app, { method: 'POST', url: '/cotizador-socio' })).status).not.toBe(301);
      expect((await get(ctx.app, '/api/companies/1/footer')).status).toBe(200);
    });
  },
  { LEGACY_REDIRECTS: JSON.stringify(redirects) },
);
