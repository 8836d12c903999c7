import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A token the fake accepts; any other token is refused as Google refuses a bad one. */
export const passingToken = (label = 'ok') => `pass-${label}-${Math.random().toString(36).slice(2)}`;

export type FakeSiteverify = {
  /** http://127.0.0.1:port/recaptcha/api/siteverify — what RECAPTCHA_VERIFY_URL is set to. */
  readonly url: string;
  /** Each verification asked for: the form fields as received. */
  readonly requests: { secret: string; response: string; remoteip: string | null }[];
  /** `ok`: answers like Google; `error`: answers 500. */
  mode: 'ok' | 'error';
  close(): Promise<void>;
};

/**
 * Google's siteverify on loopback (a plain node http server): `POST` form-encoded `secret`, `response`, `remoteip`
 * → `{ success, 'error-codes' }`. Tokens starting with `pass-` pass, once each (as Google's do); anything else is
 * `invalid-input-response`, a token seen before `timeout-or-duplicate`.
 */
export async function startFakeSiteverify(): Promise<FakeSiteverify> {
  const seen = new Set<string>();
  const fake: Omit<FakeSiteverify, 'url' | 'close'> = { requests: [], mode: 'ok' };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const secret = form.get('secret') ?? '';
      const token = form.get('response') ?? '';
      fake.requests.push({ secret, response: token, remoteip: form.get('remoteip') });
      if (fake.mode === 'error') {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('backend error');
        return;
      }
      let answer: object;
      if (request.method !== 'POST' || !secret) answer = { success: false, 'error-codes': ['missing-input-secret'] };
      else if (!token) answer = { success: false, 'error-codes': ['missing-input-response'] };
      else if (seen.has(token)) answer = { success: false, 'error-codes': ['timeout-or-duplicate'] };
      else if (token.startsWith('pass-'))
        answer = { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost' };
      else answer = { success: false, 'error-codes': ['invalid-input-response'] };
      seen.add(token);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/**
 * A fake siteverify for a whole test file, listening before the suites' beforeAll reads `env.RECAPTCHA_VERIFY_URL`
 * (call it at the top of the file, before describeOnEachDatabase). Both database runs share it.
 */
export function useFakeSiteverify(env: NodeJS.ProcessEnv) {
  let fake: FakeSiteverify | undefined;
  beforeAll(async () => {
    fake = await startFakeSiteverify();
    env.RECAPTCHA_VERIFY_URL = fake.url;
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    get current(): FakeSiteverify {
      if (!fake) throw new Error('The fake siteverify is not running yet');
      return fake;
    },
  };
}
