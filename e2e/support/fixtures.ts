import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/api/src/app.ts';
import { backofficeBuildExists, mountBackoffice } from '../../apps/api/src/backoffice-web.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { type DatabaseHandle, openPglite } from '../../apps/api/src/db/client.ts';
import { mountStorefront, storefrontBuildExists } from '../../apps/api/src/web.ts';
import { type FakeSiteverify, startFakeSiteverify } from '../../apps/api/test/support/siteverify.ts';
import { type FakeSmtp, startFakeSmtp } from '../../apps/api/test/support/smtp.ts';
import { seededStoreDumpVariable } from './global-setup.ts';
import { startFakeRecaptchaHost } from './recaptcha.ts';

const webBuildDir = fileURLToPath(new URL('../../apps/web/build', import.meta.url));
const backofficeBuildDir = fileURLToPath(new URL('../../apps/backoffice/build', import.meta.url));

export type Storefront = {
  baseURL: string;
  database: DatabaseHandle;
  app: FastifyInstance;
  smtp: FakeSmtp;
  /** Google's siteverify on loopback (RECAPTCHA_VERIFY_URL): the contact form's tokens are checked there. */
  siteverify: FakeSiteverify;
};

/**
 * The storefront as `npm start` serves it (same app, same SSR build), on an in-memory database holding the
 * demo company (loaded from the dump support/global-setup.ts made), started once per worker, sending e-mail to an
 * SMTP server on loopback. Tests read `storefront.database` to check what a page stored and
 * `storefront.smtp.received` for what was mailed.
 * reCAPTCHA never reaches Google: the browser gets a stand-in api.js from loopback (support/recaptcha.ts); the
 * server verifies tokens with a siteverify on loopback, through the same HTTP code path as in production.
 */
/** A port no one listens on now, on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No free port')),
      );
    });
  });
}

export const test = base.extend<object, { storefront: Storefront }>({
  // Each worker's browser resolves Google's reCAPTCHA host to its own loopback stand-in (support/recaptcha.ts).
  launchOptions: [
    async ({ launchOptions }, use) => {
      const recaptcha = await startFakeRecaptchaHost();
      await use({
        ...launchOptions,
        args: [
          ...(launchOptions.args ?? []),
          `--host-resolver-rules=MAP www.google.com 127.0.0.1:${recaptcha.port}`,
          '--ignore-certificate-errors',
        ],
      });
      await recaptcha.close();
    },
    { scope: 'worker' },
  ],
  storefront: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      if (!storefrontBuildExists(webBuildDir)) throw new Error('No storefront build: run `npm run build` first');
      if (!backofficeBuildExists(backofficeBuildDir)) throw new Error('No console build: run `npm run build` first');
      const dumpPath = process.env[seededStoreDumpVariable];
      if (!dumpPath) throw new Error('No seeded store: playwright.config.ts runs support/global-setup.ts first');
      const database = await openPglite({ loadDataDir: new Blob([await readFile(dumpPath)]) });
      const smtp = await startFakeSmtp();
      const siteverify = await startFakeSiteverify();
      // The console's API refuses a post whose Origin is not the console's: the port is chosen first, so that the
      // console's origin is the one the browser uses.
      const port = await freePort();
      const config = loadConfig({
        NODE_ENV: 'test',
        PORT: String(port),
        BACKOFFICE_ORIGIN: `http://127.0.0.1:${port}`,
        SMTP_URL: smtp.url,
        RECAPTCHA_VERIFY_URL: siteverify.url,
        // One worker plays every visitor from 127.0.0.1, paying many times a minute; the per-client limits have their
        // own API tests (rate-limits.test.ts, scale-out.test.ts).
        RATE_LIMIT_FACTOR: '10',
      });
      const app = await buildApp({ config, db: database.db });
      await mountStorefront(app, webBuildDir);
      await mountBackoffice(app, backofficeBuildDir);
      await app.listen({ port, host: '127.0.0.1' });
      await use({ baseURL: `http://127.0.0.1:${port}`, database, app, smtp, siteverify });
      await app.close();
      await smtp.close();
      await siteverify.close();
      await database.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ storefront }, use) => {
    await use(storefront.baseURL);
  },
});

export { expect } from '@playwright/test';
