import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { type BackofficeLoadContext, backofficeContentSecurityPolicy, mountConsolePages } from '#app/backoffice-web.ts';
import { loadConfig } from '#app/config.ts';
import type { DatabaseHandle } from '#app/db/client.ts';
import { inNetworks, parseNetworks } from '#app/lib/security/networks.ts';
import { openTestDatabase, productionEnv } from './support/harness.ts';

/**
 * The operator console's mounting under /backoffice (backoffice-web.ts), with a stand-in for its React Router build:
 * its own headers, where it answers (BACKOFFICE_ORIGIN, BACKOFFICE_ALLOWED_NETWORKS), and the load context its
 * loaders get. The console's pages themselves are tested in apps/backoffice and e2e/backoffice-shell.spec.ts.
 */

let app: FastifyInstance | undefined;
let database: DatabaseHandle | undefined;

afterEach(async () => {
  await app?.close();
  await database?.close();
  app = undefined;
  database = undefined;
});

/** The API with the console mounted; each page answers what its load context reached: /api/health's status. */
async function consoleApp(env: NodeJS.ProcessEnv = {}) {
  database = await openTestDatabase('pglite');
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  app = await buildApp({ config, db: database.db });
  const contexts: BackofficeLoadContext[] = [];
  await mountConsolePages(app, async (request, context) => {
    contexts.push(context);
    const health = await context.apiFetch('http://localhost/api/health');
    const page = `<!DOCTYPE html><title>consola</title><p>${new URL(request.url).pathname} ${health.status}</p>`;
    return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  });
  return { app, contexts };
}

describe('the console under /backoffice', () => {
  it('answers with its own policy (a nonce, no other origin, never framed), noindex and no-store', async () => {
    const { app, contexts } = await consoleApp();
    const response = await app.inject({ url: '/backoffice/ingresar' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/backoffice/ingresar 200');
    const nonce = contexts[0]?.cspNonce ?? '';
    expect(nonce).not.toBe('');
    expect(response.headers['content-security-policy']).toBe(backofficeContentSecurityPolicy(nonce, false));
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).not.toMatch(/https?:/);
    // Frames and images only from the console's own origin: the claims screen's document viewer, nothing else.
    expect(response.headers['content-security-policy']).toMatch(/; frame-src 'self';/);
    expect(response.headers['content-security-policy']).toMatch(/; img-src 'self' data:;/);
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    // Each answer its own nonce.
    await app.inject({ url: '/backoffice' });
    expect(contexts[1]?.cspNonce).not.toBe(nonce);
    // The API itself keeps the store's headers.
    expect((await app.inject({ url: '/api/health' })).headers['x-robots-tag']).toBeUndefined();
  });

  it('upgrades insecure requests in production', () => {
    expect(backofficeContentSecurityPolicy('n', true)).toContain('upgrade-insecure-requests');
  });

  it('answers only on BACKOFFICE_ORIGIN when it is set', async () => {
    const { app } = await consoleApp({ BACKOFFICE_ORIGIN: 'https://consola.travesia.cl' });
    const elsewhere = await app.inject({ url: '/backoffice/ingresar', headers: { host: 'tienda.travesia.cl' } });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({ status: 404, instance: '/backoffice/ingresar' });
    expect(elsewhere.headers['content-type']).toContain('application/json');
    const there = await app.inject({ url: '/backoffice/ingresar', headers: { host: 'consola.travesia.cl' } });
    expect(there.statusCode).toBe(200);
  });

  it('answers only the client networks of BACKOFFICE_ALLOWED_NETWORKS when set', async () => {
    const { app } = await consoleApp({ BACKOFFICE_ALLOWED_NETWORKS: '10.0.0.0/8, 2001:db8::/32' });
    expect((await app.inject({ url: '/backoffice', remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/backoffice', remoteAddress: '::ffff:10.1.2.3' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/backoffice', remoteAddress: '2001:db8::5' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/backoffice', remoteAddress: '192.0.2.7' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/backoffice/x', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    // The console's API too: from elsewhere even the sign-in does not exist; from inside, the guard asks who calls.
    expect((await app.inject({ url: '/api/backoffice/me', remoteAddress: '192.0.2.7' })).statusCode).toBe(404);
    const outside = await app.inject({
      method: 'POST',
      url: '/api/backoffice/sign-in',
      remoteAddress: '192.0.2.7',
      payload: { email: 'a@travesia.cl', password: 'x' },
    });
    expect(outside.statusCode).toBe(404);
    expect((await app.inject({ url: '/api/backoffice/me', remoteAddress: '10.1.2.3' })).statusCode).toBe(401);
  });

  it('refuses a page post larger than any form before reading it', async () => {
    const { app } = await consoleApp();
    const response = await app.inject({
      method: 'POST',
      url: '/backoffice/ingresar',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a='.padEnd(300 * 1024, 'x'),
    });
    expect(response.statusCode).toBe(413);
  });
});

describe('the console configuration', () => {
  it('reads BACKOFFICE_ORIGIN as an origin and the networks as CIDR', () => {
    const config = loadConfig({
      BACKOFFICE_ORIGIN: 'https://consola.travesia.cl/',
      BACKOFFICE_ALLOWED_NETWORKS: '10.0.0.0/8,192.0.2.7, 2001:db8::/32',
    });
    expect(config.backoffice.origin).toBe('https://consola.travesia.cl');
    expect(config.backoffice.allowedNetworks).toHaveLength(3);
    expect(loadConfig({}).backoffice).toMatchObject({ origin: undefined, allowedNetworks: [] });
    // Without BACKOFFICE_ORIGIN the console's one origin is the store's public one (pages, CSRF check and links alike).
    expect(loadConfig({ PUBLIC_URL: 'https://www.travesia.cl' }).backoffice.origin).toBe('https://www.travesia.cl');
  });

  it('stops start-up on a bad value, naming the variable', () => {
    expect(() => loadConfig({ BACKOFFICE_ORIGIN: 'https://consola.travesia.cl/admin' })).toThrow(/BACKOFFICE_ORIGIN/);
    expect(() => loadConfig({ BACKOFFICE_ALLOWED_NETWORKS: '10.0.0.0/33' })).toThrow(
      /BACKOFFICE_ALLOWED_NETWORKS.*"10\.0\.0\.0\/33"/,
    );
    expect(() => loadConfig({ BACKOFFICE_ALLOWED_NETWORKS: 'oficina' })).toThrow(/BACKOFFICE_ALLOWED_NETWORKS/);
    expect(() => loadConfig({ ...productionEnv, BACKOFFICE_ORIGIN: 'http://consola.travesia.cl' })).toThrow(
      /BACKOFFICE_ORIGIN must be an https:\/\/ origin/,
    );
    expect(loadConfig({ ...productionEnv, BACKOFFICE_ORIGIN: 'https://consola.travesia.cl' }).backoffice.origin).toBe(
      'https://consola.travesia.cl',
    );
  });

  it('matches addresses against networks of either family', () => {
    const { networks } = parseNetworks('10.0.0.0/8, 2001:db8::/32, ::ffff:192.0.2.0/120');
    expect(inNetworks('10.255.0.1', networks)).toBe(true);
    expect(inNetworks('11.0.0.1', networks)).toBe(false);
    expect(inNetworks('2001:db8:1::1', networks)).toBe(true);
    expect(inNetworks('192.0.2.9', networks)).toBe(true);
    expect(inNetworks('not an address', networks)).toBe(false);
  });
});
