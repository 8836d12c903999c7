import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inProcessFetch } from '#app/web.ts';
import {
  drainJobsAfterAll,
  givenConsents,
  type PaymentCreated,
  pathAndQuery,
  readyToPay,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { type FakeWebpay, startFakeWebpay } from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';

/**
 * Where the gateways send the payer back (and where the sandbox gateway's own page is) comes from configuration
 * only: PUBLIC_URL, else a Host of the ALLOWED_HOSTS list (forwarded headers only from a TRUST_PROXY peer), else
 * http://localhost:${PORT}. No Host, X-Forwarded-Host or X-Forwarded-Proto a visitor sends can point it elsewhere.
 */

let webpay: FakeWebpay;
const plainEnv: NodeJS.ProcessEnv = {};
const trustedProxyEnv: NodeJS.ProcessEnv = { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' };
const publicUrlEnv: NodeJS.ProcessEnv = { PUBLIC_URL: 'https://tienda.travesia.cl/', TRUST_PROXY: 'true' };
const envs = [plainEnv, trustedProxyEnv, publicUrlEnv];
for (const env of envs) useTemporaryDataDir(env);

beforeAll(async () => {
  webpay = await startFakeWebpay();
  for (const env of envs) env.WEBPAY_ENVIRONMENT = webpay.url;
});
afterAll(async () => {
  await webpay?.close();
});

const evilHeaders: Record<string, Record<string, string>> = {
  'an evil Host': { host: 'evil.example' },
  'an evil Host with an allowed port': { host: 'evil.example:3000' },
  'a Host that only starts like an allowed one': { host: 'localhost.evil.example' },
  'a Host with user info': { host: 'localhost@evil.example' },
  'a Host with a path': { host: 'localhost/@evil.example' },
  'a Host with a fragment': { host: 'evil.example#localhost' },
  'an evil X-Forwarded-Host': { host: 'localhost:80', 'x-forwarded-host': 'evil.example' },
  'an evil X-Forwarded-Proto': { host: 'localhost:80', 'x-forwarded-proto': 'https://evil.example/#' },
  'an evil X-Forwarded-Proto and Host together': {
    host: 'evil.example',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https://evil.example/#',
  },
};

type Started = {
  /** Where POST /payments sends the browser. */
  redirectUrl: string;
  /** The return URL the gateway was given: the sandbox page's «back to the store», or Webpay's return_url. */
  returnUrl: string;
};

/**
 * Starts paying `quotationId` through `gatewayId` with the given request headers and peer address; answers where the
 * payer is sent and where the gateway will send them back.
 */
async function start(
  ctx: TestContext,
  quotationId: string,
  gatewayId: 'sandbox' | 'webpay',
  headers: Record<string, string>,
  remoteAddress = '127.0.0.1',
): Promise<Started> {
  const before = webpay.calls.length;
  const options: InjectOptions = {
    method: 'POST',
    url: '/api/payments',
    headers,
    remoteAddress,
    payload: { quotationId, gatewayId, consents: givenConsents },
  };
  const answer = await call(ctx.app, options);
  expect(answer.status, answer.text).toBe(201);
  const { redirectUrl } = answer.json<PaymentCreated>();
  if (gatewayId === 'webpay') {
    const creates = webpay.calls.slice(before).filter((c) => c.kind === 'create');
    expect(creates).toHaveLength(1);
    const body = creates[0]?.body as { return_url: string };
    return { redirectUrl, returnUrl: body.return_url };
  }
  // The sandbox page sends the payer back to the return URL it was given (here: abandoning, which decides nothing).
  const decided = await ctx.app.inject({
    method: 'POST',
    url: pathAndQuery(redirectUrl),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'decision=abandon',
  });
  expect(decided.statusCode, decided.body).toBe(303);
  return { redirectUrl, returnUrl: String(decided.headers.location) };
}

/** Both gateways, started with `headers` from `remoteAddress`, return to `origin` (and the sandbox page is there). */
async function expectOrigin(
  ctx: TestContext,
  quotationId: string,
  headers: Record<string, string>,
  origin: string,
  remoteAddress?: string,
) {
  const sandbox = await start(ctx, quotationId, 'sandbox', headers, remoteAddress);
  expect(sandbox.redirectUrl.startsWith(`${origin}/api/payments/sandbox/sbx_`), sandbox.redirectUrl).toBe(true);
  expect(sandbox.returnUrl.startsWith(`${origin}/api/payments/return/sandbox?`), sandbox.returnUrl).toBe(true);
  const viaWebpay = await start(ctx, quotationId, 'webpay', headers, remoteAddress);
  expect(viaWebpay.redirectUrl.startsWith(webpay.formUrl)).toBe(true);
  expect(viaWebpay.returnUrl).toBe(`${origin}/api/payments/return/webpay`);
  for (const url of [sandbox.redirectUrl, sandbox.returnUrl, viaWebpay.returnUrl]) {
    expect(url).not.toContain('evil');
  }
}

describeOnEachDatabase(
  'absolute URLs without PUBLIC_URL nor TRUST_PROXY (development)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    let quotationId = '';
    beforeAll(async () => {
      quotationId = await readyToPay(ctx);
    });

    it('the Host of the tests (localhost:80) is allowed: the gateways return to http://localhost', async () => {
      await expectOrigin(ctx, quotationId, { host: 'localhost:80' }, 'http://localhost');
    });

    it.each([
      ['127.0.0.1:5173', 'http://127.0.0.1:5173'],
      ['[::1]:3000', 'http://[::1]:3000'],
      ['LocalHost:8080', 'http://localhost:8080'],
      ['localhost', 'http://localhost'],
    ])('an allowed Host (%s), any port → %s', async (host, origin) => {
      await expectOrigin(ctx, quotationId, { host }, origin);
    });

    it.each(Object.entries(evilHeaders))(
      '%s never reaches the return URL: the default origin http://localhost:3000 or the allowed Host is used',
      async (_case, headers) => {
        const allowedHost = headers.host === 'localhost:80';
        await expectOrigin(ctx, quotationId, headers, allowedHost ? 'http://localhost' : 'http://localhost:3000');
      },
    );

    it('forwarded headers from any peer are ignored: https and another allowed port are not taken from them', async () => {
      await expectOrigin(
        ctx,
        quotationId,
        { host: 'localhost:80', 'x-forwarded-host': '127.0.0.1:8443', 'x-forwarded-proto': 'https' },
        'http://localhost',
        '10.1.2.3',
      );
    });
  },
  plainEnv,
);

describeOnEachDatabase(
  'absolute URLs with TRUST_PROXY=10.0.0.0/8, 127.0.0.1',
  (ctx) => {
    drainJobsAfterAll(ctx);
    let quotationId = '';
    beforeAll(async () => {
      quotationId = await readyToPay(ctx);
    });

    it('a trusted proxy may say https and an allowed host: both are used', async () => {
      await expectOrigin(
        ctx,
        quotationId,
        { host: 'api:3000', 'x-forwarded-host': 'localhost:8443', 'x-forwarded-proto': 'https' },
        'https://localhost:8443',
        '10.1.2.3',
      );
    });

    it('the same headers from an untrusted peer are ignored (its allowed Host is used)', async () => {
      await expectOrigin(
        ctx,
        quotationId,
        { host: 'localhost:80', 'x-forwarded-host': '127.0.0.1:8443', 'x-forwarded-proto': 'https' },
        'http://localhost',
        '203.0.113.7',
      );
    });

    it('the storefront’s in-process API calls carry its page’s peer: forwarded headers count only from a trusted one', async () => {
      const headers = { host: 'localhost:80', 'x-forwarded-host': 'localhost:8443', 'x-forwarded-proto': 'https' };
      const returnUrlVia = async (peer: string) => {
        const before = webpay.calls.length;
        const answer = await inProcessFetch(ctx.app, peer)('http://in-process/api/payments', {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ quotationId, gatewayId: 'webpay', consents: givenConsents }),
        });
        expect(answer.status, await answer.clone().text()).toBe(201);
        const create = webpay.calls.slice(before).find((c) => c.kind === 'create');
        const body = create?.body as { return_url: string };
        return body.return_url;
      };
      expect(await returnUrlVia('10.1.2.3')).toBe('https://localhost:8443/api/payments/return/webpay');
      expect(await returnUrlVia('203.0.113.7')).toBe('http://localhost/api/payments/return/webpay');
    });

    it.each(Object.entries(evilHeaders))(
      '%s from an untrusted peer never reaches the return URL',
      async (_case, headers) => {
        const allowedHost = headers.host === 'localhost:80';
        await expectOrigin(
          ctx,
          quotationId,
          headers,
          allowedHost ? 'http://localhost' : 'http://localhost:3000',
          '203.0.113.7',
        );
      },
    );

    it.each([
      ['an X-Forwarded-Host outside the allow-list', { host: 'localhost:80', 'x-forwarded-host': 'evil.example' }],
      [
        'an X-Forwarded-Host list ending outside the allow-list',
        { host: 'localhost:80', 'x-forwarded-host': 'localhost, evil.example' },
      ],
      [
        'an X-Forwarded-Proto that is not http or https',
        { host: 'localhost:80', 'x-forwarded-proto': 'https://evil.example/#' },
      ],
      ['an X-Forwarded-Proto javascript', { host: 'localhost:80', 'x-forwarded-proto': 'javascript' }],
      [
        'an allowed X-Forwarded-Host with an evil X-Forwarded-Proto',
        { host: 'localhost:80', 'x-forwarded-host': 'localhost:8443', 'x-forwarded-proto': 'https://evil.example/#' },
      ],
    ])('%s from a trusted proxy → the default origin http://localhost:3000', async (_case, headers) => {
      await expectOrigin(ctx, quotationId, headers, 'http://localhost:3000', '10.1.2.3');
    });
  },
  trustedProxyEnv,
);

describeOnEachDatabase(
  'absolute URLs with PUBLIC_URL=https://tienda.travesia.cl/ (even with TRUST_PROXY=true)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    let quotationId = '';
    beforeAll(async () => {
      quotationId = await readyToPay(ctx);
    });

    it.each([
      ['the tests’ Host', { host: 'localhost:80' }],
      ['an allowed Host and forwarded https', { host: '127.0.0.1:5173', 'x-forwarded-proto': 'https' }],
      ['a trusted allowed X-Forwarded-Host', { host: 'localhost:80', 'x-forwarded-host': 'localhost:8443' }],
      ...Object.entries(evilHeaders),
    ])('%s → PUBLIC_URL is the origin', async (_case, headers) => {
      await expectOrigin(ctx, quotationId, headers, 'https://tienda.travesia.cl', '10.1.2.3');
    });
  },
  publicUrlEnv,
);
