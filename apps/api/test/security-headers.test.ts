import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { DatabaseHandle } from '#app/db/client.ts';
import { openTestDatabase, productionEnv } from './support/harness.ts';
import { type Answer, call, get } from './support/http.ts';

/**
 * The headers that protect every answer (SECURITY.md): pages, the API's JSON, its errors and the test gateway's
 * page. The storefront's pages get the same headers; the browser suite (e2e/security-headers.spec.ts) checks that
 * the policy lets the store's own and the company's marketing scripts run and stops an injected one.
 */

function directives(answer: Answer): Map<string, string> {
  const policy = String(answer.headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

function expectProtected(answer: Answer, what: string) {
  const headers = answer.headers;
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
  expect(String(headers['permissions-policy']), what).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(\)/);
  const policy = directives(answer);
  expect(policy.get('frame-ancestors'), what).toBe("'self'");
  expect(policy.get('object-src'), what).toBe("'none'");
  expect(policy.get('base-uri'), what).toBe("'self'");
  expect(policy.get('script-src-attr'), what).toBe("'none'");
  expect(policy.get('script-src'), what).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
}

describe('security headers', () => {
  let database: DatabaseHandle;
  const apps: FastifyInstance[] = [];
  const appWith = async (env: NodeJS.ProcessEnv) => {
    const app = await buildApp({ config: loadConfig({ RATE_LIMIT_FACTOR: '1000', ...env }), db: database.db });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.close();
  });

  it('every kind of answer carries them: catalogue JSON, a §8 error, an unknown path, malformed JSON', async () => {
    const app = await appWith({ NODE_ENV: 'test' });
    const footer = await get(app, '/api/companies/1/footer');
    expect(footer.status).toBe(200);
    expectProtected(footer, 'catalogue');
    const unknownCompany = await get(app, '/api/companies/999/footer');
    expect(unknownCompany.status).toBe(404);
    expect(unknownCompany.json()).toMatchObject({ detail: errorMessages.companyNotFound });
    expectProtected(unknownCompany, '§8 error');
    const unknownPath = await get(app, '/api/nothing-here');
    expect(unknownPath.status).toBe(404);
    expectProtected(unknownPath, 'unknown path');
    const badBody = await call(app, {
      method: 'POST',
      url: '/api/quotations/1',
      payload: '{"origin":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badBody.status).toBe(400);
    expectProtected(badBody, 'malformed JSON');
  });

  it('each answer has its own nonce, so one seen in a page is no use in another', async () => {
    const app = await appWith({ NODE_ENV: 'test' });
    const nonces = new Set<string>();
    for (let round = 0; round < 20; round += 1) {
      const answer = await get(app, '/api/companies/1/footer');
      nonces.add(String(directives(answer).get('script-src')));
    }
    expect(nonces.size).toBe(20);
  });

  it("the OpenAPI viewer loads its scripts by URL: its policy allows the store's own scripts, with no nonce", async () => {
    const app = await appWith({ NODE_ENV: 'test' });
    const viewer = await get(app, '/api/docs/ui/');
    expect(viewer.status).toBe(200);
    const policy = directives(viewer);
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(viewer.headers['x-content-type-options']).toBe('nosniff');
    expect(String(viewer.headers['permissions-policy'])).toMatch(/camera=\(\)/);
    // And the answers after it are back to their nonce.
    expectProtected(await get(app, '/api/companies/1/footer'), 'after the viewer');
  });

  it('forms may only post to the store and to the configured Webpay (a payment sent without JavaScript)', async () => {
    const integration = directives(await get(await appWith({ NODE_ENV: 'test' }), '/api/health'));
    expect(integration.get('form-action')).toBe("'self' https://webpay3gint.transbank.cl");
    const own = directives(
      await get(
        await appWith({ NODE_ENV: 'test', WEBPAY_ENVIRONMENT: 'http://127.0.0.1:4999/webpay/' }),
        '/api/health',
      ),
    );
    expect(own.get('form-action')).toBe("'self' http://127.0.0.1:4999");
  });

  it('HSTS and upgrade-insecure-requests only in a production deployment (a local store is plain http)', async () => {
    const local = await get(await appWith({ NODE_ENV: 'test' }), '/api/health');
    expect(local.headers['strict-transport-security']).toBeUndefined();
    expect(directives(local).has('upgrade-insecure-requests')).toBe(false);
    const live = await get(await appWith(productionEnv), '/api/health');
    expect(live.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(directives(live).has('upgrade-insecure-requests')).toBe(true);
    expectProtected(live, 'production');
  });

  it('FRAME_ANCESTORS lets the named partner sites frame the store, and nothing else', async () => {
    const app = await appWith({
      NODE_ENV: 'test',
      FRAME_ANCESTORS: 'https://socio.example.cl, https://otro.example.cl/',
    });
    const answer = await get(app, '/api/health');
    expect(directives(answer).get('frame-ancestors')).toBe("'self' https://socio.example.cl https://otro.example.cl");
    // frame-ancestors is what browsers follow; an X-Frame-Options SAMEORIGIN beside it would block the partners in
    // the browsers that only know the older header.
    expect(answer.headers['x-frame-options']).toBeUndefined();
    expect(() => loadConfig({ FRAME_ANCESTORS: 'socio.example.cl' })).toThrow(/FRAME_ANCESTORS must be a comma/);
    expect(() => loadConfig({ FRAME_ANCESTORS: 'https://socio.example.cl/quoter' })).toThrow(/FRAME_ANCESTORS/);
    expect(() => loadConfig({ FRAME_ANCESTORS: 'javascript:alert(1)' })).toThrow(/FRAME_ANCESTORS/);
  });

  it('/api/health and /api/ready answer a load balancer (the database is reachable here)', async () => {
    const app = await appWith({ NODE_ENV: 'test' });
    const health = await get(app, '/api/health');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await get(app, '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
    expect(String(ready.headers['cache-control'])).toContain('no-store');
  });
});
