import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import {
  ConfigError,
  developmentOperatorSecretsKey,
  developmentPreviewSecret,
  developmentPurchaseLinkSecret,
  loadConfig,
  localTaxIssuer,
  recaptchaTestKeys,
  transbankIntegration,
} from '#app/config.ts';
import { startEnvironment } from '#app/start-mode.ts';
import { openTestDatabase, productionEnv, productionWebpay } from './support/harness.ts';

const specDefaultFeatures = {
  virtualBranch: true,
  exclusiveMembers: true,
  discountLabel: true,
  downloadCertificates: false,
  sliderVideo: false,
  remoteMarketingScript: true,
  localTagManagerScript: false,
};

/** The error loadConfig throws for `env`, checked to be a ConfigError with a one-line message. */
function configErrorFor(env: NodeJS.ProcessEnv): string {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  const { message } = thrown as ConfigError;
  expect(message).not.toContain('\n');
  return message;
}

describe('loadConfig', () => {
  it('RATE_LIMIT_FACTOR multiplies every limit and refuses 0', () => {
    expect(loadConfig({ RATE_LIMIT_FACTOR: '3' }).rateLimits.formSubmit).toStrictEqual({ max: 15, timeWindow: 60_000 });
    expect(() => loadConfig({ RATE_LIMIT_FACTOR: '0' })).toThrow(/RATE_LIMIT_FACTOR/);
  });

  it('REDIS_URL must be a redis:// or rediss:// URL; REDIS_CHANNEL names the invalidations channel, REDIS_RATE_LIMIT_PREFIX the counters', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      'Invalid configuration: REDIS_URL must start with redis:// or rediss://',
    );
    expect(
      loadConfig({
        REDIS_URL: 'rediss://cache:6380',
        REDIS_CHANNEL: 'tienda:cache',
        REDIS_RATE_LIMIT_PREFIX: 'tienda:rl:',
      }).redis,
    ).toStrictEqual({
      url: 'rediss://cache:6380',
      channel: 'tienda:cache',
      rateLimitPrefix: 'tienda:rl:',
    });
  });

  it('defaults: port 3000, embedded database under ./data, demo company 1, spec §6 feature flags', () => {
    expect(loadConfig({})).toStrictEqual({
      env: 'development',
      deployment: 'local',
      catalogCacheTtlMs: 60_000,
      redis: { url: undefined, channel: 'travesia:read-cache:invalidate', rateLimitPrefix: 'travesia:rate-limit:' },
      responseValidation: true,
      rateLimits: {
        certificateSearch: { max: 10, timeWindow: 60_000 },
        emailSend: { max: 5, timeWindow: 60_000 },
        formSubmit: { max: 5, timeWindow: 60_000 },
        documentUpload: { max: 10, timeWindow: 60_000 },
        lookup: { max: 20, timeWindow: 60_000 },
        paymentStart: { max: 10, timeWindow: 60_000 },
        discountCode: { max: 10, timeWindow: 60_000 },
        purchaseAccess: { max: 10, timeWindow: 60_000 },
        operatorSignIn: { max: 10, timeWindow: 60_000 },
      },
      port: 3000,
      previewSecret: developmentPreviewSecret,
      // Issue 25: the rate is entered by hand unless a source is named (ADR 018).
      exchangeRates: {
        source: 'manual',
        bcch: { url: 'https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx', user: '', password: '' },
        mindicadorUrl: 'https://mindicador.cl',
        timeoutMs: 10_000,
      },
      host: '0.0.0.0',
      logLevel: 'info',
      databaseUrl: undefined,
      dataDir: './data',
      pgliteCompiler: 'baseline',
      database: { connectMs: 5_000, statementMs: 10_000, queryMs: 12_000, idleInTransactionMs: 10_000 },
      http: { requestTimeoutMs: 30_000, connectionTimeoutMs: 120_000, keepAliveTimeoutMs: 72_000 },
      companyId: 1,
      seedDemoData: true,
      webBuildDir: undefined,
      publicUrl: undefined,
      allowedHosts: [
        { hostname: 'localhost', port: null },
        { hostname: '127.0.0.1', port: null },
        { hostname: '[::1]', port: null },
      ],
      tracing: { enabled: false, serviceName: undefined },
      trustProxy: false,
      frameAncestors: [],
      legacyRedirects: new Map(),
      webpay: {
        environment: 'integration',
        commerceCode: '597055555532',
        apiKey: '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C',
        testMode: true,
      },
      payments: { sandboxEnabled: true },
      mail: { smtpUrl: undefined, from: 'Travesía <certificados@travesia.cl>' },
      recaptcha: {
        siteKey: recaptchaTestKeys.siteKey,
        secretKey: recaptchaTestKeys.secretKey,
        verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      },
      contactFormTo: undefined,
      worker: { mode: 'inline', jobsIntervalMs: 5_000, paymentSweepIntervalMs: 5_000 },
      features: specDefaultFeatures,
      refunds: { notifyEmail: undefined, adminToken: undefined },
      documents: { kind: 'local', dir: 'data/documents' },
      taxDocuments: { provider: 'local', issuer: localTaxIssuer },
      uploads: { maxInFlight: 8, maxInFlightPerClient: 2, tokenTtlMs: 60 * 60 * 1000 },
      retention: { contactMonths: 24, claimsMonths: 60, intervalMs: 60 * 60 * 1000 },
      purchases: {
        linkSecret: developmentPurchaseLinkSecret,
        linkTtlMs: 30 * 24 * 60 * 60 * 1000,
        sessionTtlMs: 30 * 60 * 1000,
        codeTtlMs: 10 * 60 * 1000,
        codesPerSalePerDay: 5,
        failedTriesPerSalePerDay: 10,
        codeMaxAttempts: 5,
      },
      backoffice: {
        origin: undefined,
        allowedNetworks: [],
        secretsKey: developmentOperatorSecretsKey,
        secureCookie: false,
      },
      warnings: [],
    });
  });

  it('«Mi compra» links are signed with PURCHASE_LINK_SECRET, else COOKIE_SECRET: never the public value when either is set', () => {
    const cookie = 'c'.repeat(32);
    expect(loadConfig({ COOKIE_SECRET: cookie }).purchases.linkSecret).toBe(cookie);
    expect(loadConfig({ COOKIE_SECRET: cookie, PURCHASE_LINK_SECRET: 'p'.repeat(32) }).purchases.linkSecret).toBe(
      'p'.repeat(32),
    );
    expect(() => loadConfig({ PURCHASE_LINK_SECRET: 'short' })).toThrow(/PURCHASE_LINK_SECRET/);
    expect(loadConfig({ PURCHASE_SESSION_TTL_MINUTES: '15' }).purchases.sessionTtlMs).toBe(15 * 60_000);
  });

  it('payments default to the Webpay integration environment and mail to the local catcher', () => {
    const config = loadConfig({
      WEBPAY_ENVIRONMENT: 'http://127.0.0.1:9999',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PUBLIC_URL: 'https://tienda.travesia.cl/',
    });
    expect(config.webpay.environment).toBe('http://127.0.0.1:9999');
    expect(config.mail.smtpUrl).toBe('smtp://127.0.0.1:2525');
    expect(config.publicUrl).toBe('https://tienda.travesia.cl');
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ WEBPAY_ENVIRONMENT: 'staging' })).toThrow(/WEBPAY_ENVIRONMENT/);
  });

  it('Webpay production needs its own credentials and turns the test gateway off', () => {
    expect(() => loadConfig({ WEBPAY_ENVIRONMENT: 'production' })).toThrow(/WEBPAY_COMMERCE_CODE and WEBPAY_API_KEY/);
    const production = loadConfig({
      WEBPAY_ENVIRONMENT: 'production',
      WEBPAY_COMMERCE_CODE: '597012345678',
      WEBPAY_API_KEY: 'secret-key',
    });
    expect(production.payments.sandboxEnabled).toBe(false);
    expect(() =>
      loadConfig({
        WEBPAY_ENVIRONMENT: 'production',
        WEBPAY_COMMERCE_CODE: '597012345678',
        WEBPAY_API_KEY: 'secret-key',
        PAYMENTS_SANDBOX: 'true',
      }),
    ).toThrow(/PAYMENTS_SANDBOX/);
    expect(loadConfig({ PAYMENTS_SANDBOX: 'false' }).payments.sandboxEnabled).toBe(false);
  });

  it('a production store names its Webpay environment and credentials, never Transbank’s public ones; integration payments are test payments', () => {
    const { WEBPAY_ENVIRONMENT, WEBPAY_COMMERCE_CODE, WEBPAY_API_KEY, ...secretsOnly } = productionEnv;
    // With only the other required secrets it used to start on the integration environment with the public
    // credentials, and take test money as if real (issue 22).
    for (const because of ['NODE_ENV=production', 'DEPLOYMENT=production']) {
      const env =
        because === 'NODE_ENV=production'
          ? secretsOnly
          : { ...secretsOnly, NODE_ENV: 'test', DEPLOYMENT: 'production' };
      expect(configErrorFor(env)).toBe(
        `Invalid configuration: WEBPAY_ENVIRONMENT, WEBPAY_COMMERCE_CODE, WEBPAY_API_KEY must be set when ${because}: Webpay Plus's environment (production) and the commerce code and API key Transbank gave you. Unset, the store would take test payments on Webpay's integration environment`,
      );
      expect(configErrorFor({ ...env, WEBPAY_ENVIRONMENT: 'production', WEBPAY_API_KEY: 'own-key' })).toMatch(
        /^Invalid configuration: WEBPAY_COMMERCE_CODE must be set when/,
      );
      expect(configErrorFor({ ...env, WEBPAY_ENVIRONMENT: 'production', WEBPAY_COMMERCE_CODE: ' ' })).toMatch(
        /^Invalid configuration: WEBPAY_COMMERCE_CODE /,
      );
      // Named, but Transbank's public integration commerce codes (any of its SDK's 5970555555NN) or API key.
      const refused =
        /^Invalid configuration: WEBPAY_COMMERCE_CODE and WEBPAY_API_KEY are Transbank's public integration credentials, which only take test money/;
      for (const credentials of [
        { WEBPAY_COMMERCE_CODE: transbankIntegration.commerceCode, WEBPAY_API_KEY: 'own-key' },
        { WEBPAY_COMMERCE_CODE: '597055555540', WEBPAY_API_KEY: 'own-key' },
        { WEBPAY_COMMERCE_CODE: '597012345678', WEBPAY_API_KEY: transbankIntegration.apiKey },
      ]) {
        for (const environment of ['production', 'integration', 'http://127.0.0.1:9999']) {
          expect(configErrorFor({ ...env, WEBPAY_ENVIRONMENT: environment, ...credentials })).toMatch(refused);
        }
        expect(configErrorFor({ WEBPAY_ENVIRONMENT: 'production', ...credentials })).toMatch(refused);
      }
    }
    const own = loadConfig(productionEnv).webpay;
    expect(own).toStrictEqual({
      environment: 'production',
      commerceCode: WEBPAY_COMMERCE_CODE,
      apiKey: WEBPAY_API_KEY,
      testMode: false,
    });
    expect(WEBPAY_ENVIRONMENT).toBe('production');
    // What a Webpay payment is: a test payment on the integration environment, or with the public credentials
    // anywhere (a local store's default); a real one only on production with credentials of its own.
    expect(loadConfig({}).webpay.testMode).toBe(true);
    expect(loadConfig({ WEBPAY_ENVIRONMENT: 'http://127.0.0.1:9999' }).webpay.testMode).toBe(true);
    expect(loadConfig({ ...productionEnv, WEBPAY_ENVIRONMENT: 'integration' }).webpay.testMode).toBe(true);
    expect(
      loadConfig({
        WEBPAY_ENVIRONMENT: 'http://127.0.0.1:9999',
        WEBPAY_COMMERCE_CODE: '597012345678',
        WEBPAY_API_KEY: 'k',
      }).webpay.testMode,
    ).toBe(false);
  });

  it('the test gateway is the local default, but off in production unless PAYMENTS_SANDBOX=true', () => {
    // Beside Webpay's integration environment (a staging store's, with credentials of its own): never beside production.
    const production = { ...productionEnv, WEBPAY_ENVIRONMENT: 'integration' };
    expect(loadConfig({}).payments.sandboxEnabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).payments.sandboxEnabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).payments.sandboxEnabled).toBe(true);
    expect(loadConfig(production).payments.sandboxEnabled).toBe(false);
    expect(loadConfig({ ...production, PAYMENTS_SANDBOX: 'false' }).payments.sandboxEnabled).toBe(false);
    expect(loadConfig({ ...production, PAYMENTS_SANDBOX: 'true' }).payments.sandboxEnabled).toBe(true);
    expect(loadConfig({ ...production, PAYMENTS_SANDBOX: 'yes' }).payments.sandboxEnabled).toBe(true);
  });

  it('production needs PUBLIC_URL: without it start-up stops with one line naming it', () => {
    const message = configErrorFor({ NODE_ENV: 'production' });
    expect(message).toMatch(/^Invalid configuration: PUBLIC_URL must be set when NODE_ENV=production/);
    expect(configErrorFor({ NODE_ENV: 'production', PUBLIC_URL: '' })).toMatch(/PUBLIC_URL must be set/);
    const production = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tienda.travesia.cl',
      BACKOFFICE_ORIGIN: 'https://consola.travesia.cl',
      COOKIE_SECRET: 'x'.repeat(32),
      PREVIEW_SECRET: 'p'.repeat(32),
      RECAPTCHA_SITE_KEY: 'production-site-key',
      RECAPTCHA_SECRET_KEY: 'production-secret-key',
      TAX_DOCUMENTS_PROVIDER: 'external',
      ...productionWebpay,
    });
    expect(production.publicUrl).toBe('https://tienda.travesia.cl');
    // Development and tests work without it (absolute URLs then come from ALLOWED_HOSTS).
    expect(loadConfig({ NODE_ENV: 'development' }).publicUrl).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test' }).publicUrl).toBeUndefined();
  });

  it.each([
    ['https://tienda.travesia.cl', 'https://tienda.travesia.cl'],
    ['https://tienda.travesia.cl/', 'https://tienda.travesia.cl'],
    ['HTTPS://Tienda.Travesia.CL:443/', 'https://tienda.travesia.cl'],
    ['http://localhost:8080', 'http://localhost:8080'],
  ])('PUBLIC_URL=%s is the origin %s', (value, origin) => {
    expect(loadConfig({ PUBLIC_URL: value }).publicUrl).toBe(origin);
  });

  it.each([
    'tienda.travesia.cl',
    'javascript:alert(1)',
    'ftp://tienda.travesia.cl',
    'https://tienda.travesia.cl/tienda',
    'https://tienda.travesia.cl/?x=1',
    'https://tienda.travesia.cl/#x',
    'https://user:pass@tienda.travesia.cl',
  ])('PUBLIC_URL=%s is not an http(s) origin: a ConfigError naming PUBLIC_URL', (value) => {
    expect(configErrorFor({ PUBLIC_URL: value })).toMatch(/^Invalid configuration: PUBLIC_URL must be an http/);
  });

  it('ALLOWED_HOSTS: host names or addresses, each maybe with a port, lower-cased', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'Tienda.Local, 192.168.1.20:3000,[::1]' }).allowedHosts).toStrictEqual([
      { hostname: 'tienda.local', port: null },
      { hostname: '192.168.1.20', port: 3000 },
      { hostname: '[::1]', port: null },
    ]);
    expect(loadConfig({ ALLOWED_HOSTS: ' ' }).allowedHosts).toStrictEqual(loadConfig({}).allowedHosts);
  });

  it.each(['*', 'http://tienda.local', 'tienda.local/x', 'user@tienda.local', 'tienda.local:99999', 'a,,b', '[::g]'])(
    'ALLOWED_HOSTS=%s throws a ConfigError naming ALLOWED_HOSTS',
    (value) => {
      expect(configErrorFor({ ALLOWED_HOSTS: value })).toMatch(/^Invalid configuration: ALLOWED_HOSTS must be/);
    },
  );

  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['off', false],
    ['0', false],
    ['true', true],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.0.0/255.255.0.0,::1, fd00::/8', ['10.0.0.0/8', '192.168.0.0/255.255.0.0', '::1', 'fd00::/8']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('TRUST_PROXY=%s is Fastify’s trustProxy %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toStrictEqual(expected);
  });

  it.each(['evil.example', '10.0.0.0/33', '10.0.0.1/8/8', '::1/129', '10.0.0.1,', 'everyone', '-1'])(
    'TRUST_PROXY=%s throws a ConfigError naming TRUST_PROXY',
    (value) => {
      expect(configErrorFor({ TRUST_PROXY: value })).toMatch(/^Invalid configuration: TRUST_PROXY must be/);
    },
  );

  it.each(['1', '2'])(
    'TRUST_PROXY=%s (a hop count, which Fastify 5 no longer trusts) is refused, not silently off',
    (value) => {
      expect(configErrorFor({ TRUST_PROXY: value })).toMatch(
        /^Invalid configuration: TRUST_PROXY must name the proxies/,
      );
    },
  );

  it('production needs COOKIE_SECRET (32+ characters): it signs the cookie that proves who bought a sale', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://tienda.travesia.cl' })).toThrow(
      /COOKIE_SECRET is required/,
    );
    expect(() => loadConfig({ COOKIE_SECRET: 'too-short' })).toThrow(/COOKIE_SECRET must be at least 32 characters/);
  });

  it("production needs its own reCAPTCHA keys: none, or Google's test keys (which pass every robot), stop start-up", () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tienda.travesia.cl',
      BACKOFFICE_ORIGIN: 'https://consola.travesia.cl',
      COOKIE_SECRET: 'x'.repeat(32),
      PREVIEW_SECRET: 'p'.repeat(32),
      TAX_DOCUMENTS_PROVIDER: 'external',
      ...productionWebpay,
    };
    const ownKeys = { RECAPTCHA_SITE_KEY: 'own-site-key', RECAPTCHA_SECRET_KEY: 'own-secret-key' };
    const refused =
      /^Invalid configuration: RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be your own reCAPTCHA v2 keys/;
    expect(configErrorFor(production)).toMatch(refused);
    expect(configErrorFor({ ...production, RECAPTCHA_SITE_KEY: 'own-site-key' })).toMatch(refused);
    expect(configErrorFor({ ...production, ...ownKeys, RECAPTCHA_SECRET_KEY: recaptchaTestKeys.secretKey })).toMatch(
      refused,
    );
    expect(loadConfig({ ...production, ...ownKeys }).recaptcha).toStrictEqual({
      siteKey: 'own-site-key',
      secretKey: 'own-secret-key',
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    });
    // Elsewhere Google's public test keys are the default, and the verify URL can point at a fake.
    expect(loadConfig({ RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:4000/siteverify' }).recaptcha).toStrictEqual({
      siteKey: recaptchaTestKeys.siteKey,
      secretKey: recaptchaTestKeys.secretKey,
      verifyUrl: 'http://127.0.0.1:4000/siteverify',
    });
    expect(configErrorFor({ RECAPTCHA_VERIFY_URL: 'ftp://example.cl' })).toMatch(/RECAPTCHA_VERIFY_URL/);
    expect(configErrorFor({ CONTACT_FORM_TO: 'no-es-correo' })).toMatch(/CONTACT_FORM_TO must be an e-mail address/);
  });

  it('DEPLOYMENT says whether this is a real store; unset, NODE_ENV=production means one (as before DEPLOYMENT)', () => {
    const secrets = {
      PUBLIC_URL: 'https://tienda.travesia.cl',
      BACKOFFICE_ORIGIN: 'https://consola.travesia.cl',
      COOKIE_SECRET: 'x'.repeat(32),
      PREVIEW_SECRET: 'p'.repeat(32),
      RECAPTCHA_SITE_KEY: 'production-site-key',
      RECAPTCHA_SECRET_KEY: 'production-secret-key',
      TAX_DOCUMENTS_PROVIDER: 'external',
      ...productionWebpay,
    };
    expect(loadConfig({}).deployment).toBe('local');
    expect(loadConfig({ NODE_ENV: 'test' }).deployment).toBe('local');
    expect(loadConfig({ NODE_ENV: 'production', ...secrets }).deployment).toBe('production');
    expect(loadConfig({ DEPLOYMENT: '' }).deployment).toBe('local');

    // React's production build on a local store (what `npm start` runs): no secrets needed, the test gateway on.
    const local = loadConfig({ NODE_ENV: 'production', DEPLOYMENT: 'local' });
    expect(local).toMatchObject({ env: 'production', deployment: 'local', publicUrl: undefined });
    expect(local.payments.sandboxEnabled).toBe(true);
    expect(local.recaptcha.siteKey).toBe(recaptchaTestKeys.siteKey);

    // DEPLOYMENT=production is as strict as NODE_ENV=production, whatever NODE_ENV says, and says why.
    for (const env of [{ DEPLOYMENT: 'production' }, { NODE_ENV: 'production', DEPLOYMENT: 'production' }]) {
      expect(configErrorFor(env)).toMatch(/^Invalid configuration: PUBLIC_URL must be set when DEPLOYMENT=production/);
      expect(configErrorFor({ ...env, PUBLIC_URL: secrets.PUBLIC_URL })).toBe(
        'Invalid configuration: COOKIE_SECRET is required when DEPLOYMENT=production',
      );
      expect(configErrorFor({ ...env, PUBLIC_URL: secrets.PUBLIC_URL, COOKIE_SECRET: secrets.COOKIE_SECRET })).toMatch(
        /RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be your own reCAPTCHA v2 keys when DEPLOYMENT=production/,
      );
      const strict = loadConfig({ ...env, ...secrets });
      expect(strict.deployment).toBe('production');
      expect(strict.payments.sandboxEnabled).toBe(false);
    }
    expect(configErrorFor({ DEPLOYMENT: 'staging' })).toMatch(
      /^Invalid configuration: DEPLOYMENT must be local or production/,
    );
  });

  it('npm start (src/start.ts) sets React production mode only where the operator set no NODE_ENV', () => {
    // A fresh machine: React's production build on a local store.
    expect(startEnvironment({})).toStrictEqual({ NODE_ENV: 'production', DEPLOYMENT: 'local' });
    expect(startEnvironment({ NODE_ENV: '' })).toStrictEqual({ NODE_ENV: 'production', DEPLOYMENT: 'local' });
    expect(startEnvironment({ DEPLOYMENT: 'production' })).toStrictEqual({
      NODE_ENV: 'production',
      DEPLOYMENT: 'production',
    });
    // An operator's NODE_ENV is kept as it is: NODE_ENV=production alone still means a production deployment.
    expect(startEnvironment({ NODE_ENV: 'production' })).toStrictEqual({});
    expect(startEnvironment({ NODE_ENV: 'development' })).toStrictEqual({});
    const realStore = { NODE_ENV: 'production' };
    expect(configErrorFor({ ...realStore, ...startEnvironment(realStore) })).toMatch(
      /^Invalid configuration: PUBLIC_URL must be set when NODE_ENV=production/,
    );
  });

  it('reads the process environment when given no source', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfig().port).toBe(4321);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('an empty DATABASE_URL means no PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it.each(['postgres://user:secret@db:5432/travesia', 'postgresql://localhost/travesia'])(
    'accepts DATABASE_URL %s',
    (url) => {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    },
  );

  it('reads PORT, HOST, COMPANY_ID and DATA_DIR', () => {
    const config = loadConfig({ PORT: '8080', HOST: '127.0.0.1', COMPANY_ID: '7', DATA_DIR: '/var/lib/travesia' });
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', companyId: 7, dataDir: '/var/lib/travesia' });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['on', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['off', false],
    ['no', false],
  ])('a feature flag set to %s is %s', (value, expected) => {
    expect(loadConfig({ FEATURE_VIRTUAL_BRANCH: value }).features.virtualBranch).toBe(expected);
    expect(loadConfig({ FEATURE_SLIDER_VIDEO: value }).features.sliderVideo).toBe(expected);
  });

  it('PGLITE_COMPILER: the embedded database compiles with Liftoff only unless optimizing is asked', () => {
    expect(loadConfig({}).pgliteCompiler).toBe('baseline');
    expect(loadConfig({ PGLITE_COMPILER: 'optimizing' }).pgliteCompiler).toBe('optimizing');
    expect(configErrorFor({ PGLITE_COMPILER: 'turbo' })).toMatch(/^Invalid configuration: PGLITE_COMPILER /);
  });

  it.each(['abc', '0', '70000', '80.5'])('PORT=%s throws a ConfigError naming PORT', (port) => {
    const message = configErrorFor({ PORT: port });
    expect(message).toMatch(/^Invalid configuration: PORT /);
  });

  it('DATABASE_URL=mysql://x throws a ConfigError naming DATABASE_URL', () => {
    expect(configErrorFor({ DATABASE_URL: 'mysql://x' })).toBe(
      'Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://',
    );
  });

  it('reads the database and HTTP timeouts; the query timeout follows the statement timeout unless set', () => {
    const config = loadConfig({
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '4000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_CONNECTION_TIMEOUT_MS: '90000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    });
    expect(config.database).toStrictEqual({
      connectMs: 1_500,
      statementMs: 3_000,
      queryMs: 5_000,
      idleInTransactionMs: 4_000,
    });
    expect(config.http).toStrictEqual({
      requestTimeoutMs: 20_000,
      connectionTimeoutMs: 90_000,
      keepAliveTimeoutMs: 65_000,
    });
    expect(loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '7000' }).database.queryMs).toBe(7_000);
  });

  it.each([
    ['DATABASE_STATEMENT_TIMEOUT_MS', '0'],
    ['DATABASE_QUERY_TIMEOUT_MS', 'soon'],
    ['DATABASE_CONNECT_TIMEOUT_MS', '2.5'],
    ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', '-1'],
    ['HTTP_REQUEST_TIMEOUT_MS', '99999999'],
  ])('%s=%s throws a ConfigError naming it (a limit cannot be turned off)', (name, value) => {
    expect(configErrorFor({ [name]: value })).toMatch(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('the worker: inline in the web process by default, jobs and payment sweep every 5 s; WORKER=off leaves it to workers', () => {
    expect(loadConfig({}).worker).toStrictEqual({
      mode: 'inline',
      jobsIntervalMs: 5_000,
      paymentSweepIntervalMs: 5_000,
    });
    const config = loadConfig({ WORKER: 'off', JOBS_INTERVAL_MS: '1000', PAYMENT_SWEEP_INTERVAL_MS: '30000' });
    expect(config.worker).toStrictEqual({ mode: 'off', jobsIntervalMs: 1_000, paymentSweepIntervalMs: 30_000 });
    expect(config.warnings).toStrictEqual([]);
  });

  it.each([
    ['WORKER', 'separate'],
    ['JOBS_INTERVAL_MS', '0'],
    ['PAYMENT_SWEEP_INTERVAL_MS', 'soon'],
    ['OUTBOX_INTERVAL_MS', '-1'],
  ])('%s=%s throws a ConfigError naming it', (name, value) => {
    expect(configErrorFor({ [name]: value })).toMatch(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('personal-data retention: RETENTION_CONTACT_MONTHS 24 and RETENTION_CLAIMS_MONTHS 60 by default, or as set', () => {
    expect(loadConfig({}).retention).toStrictEqual({ contactMonths: 24, claimsMonths: 60, intervalMs: 3_600_000 });
    expect(loadConfig({ RETENTION_CONTACT_MONTHS: '6', RETENTION_CLAIMS_MONTHS: '120' }).retention).toMatchObject({
      contactMonths: 6,
      claimsMonths: 120,
    });
  });

  it.each([
    ['RETENTION_CONTACT_MONTHS', '0', 'at least 1 month'],
    ['RETENTION_CONTACT_MONTHS', 'dos años', 'whole number of months'],
    ['RETENTION_CLAIMS_MONTHS', '1.5', 'whole number of months'],
    ['RETENTION_CLAIMS_MONTHS', '601', 'at most 600 months'],
  ])('%s=%s throws a ConfigError naming it (%s)', (name, value, words) => {
    const message = configErrorFor({ [name]: value });
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).toContain(words);
  });

  it('the operator console: BACKOFFICE_ORIGIN else PUBLIC_URL; its secrets key; ADMIN_TOKEN warns it is deprecated', () => {
    expect(loadConfig({}).backoffice.origin).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'https://tienda.travesia.cl' }).backoffice).toStrictEqual({
      origin: 'https://tienda.travesia.cl',
      allowedNetworks: [],
      secretsKey: developmentOperatorSecretsKey,
      secureCookie: true,
    });
    const own = loadConfig({ BACKOFFICE_ORIGIN: 'https://consola.travesia.cl/', COOKIE_SECRET: 'c'.repeat(32) });
    expect(own.backoffice).toStrictEqual({
      origin: 'https://consola.travesia.cl',
      allowedNetworks: [],
      secretsKey: 'c'.repeat(32),
      secureCookie: true,
    });
    expect(
      loadConfig({ OPERATOR_SECRETS_KEY: 'k'.repeat(32), COOKIE_SECRET: 'c'.repeat(32) }).backoffice.secretsKey,
    ).toBe('k'.repeat(32));
    expect(configErrorFor({ BACKOFFICE_ORIGIN: 'https://consola.travesia.cl/path' })).toMatch(
      /^Invalid configuration: BACKOFFICE_ORIGIN /,
    );
    expect(configErrorFor({ OPERATOR_SECRETS_KEY: 'short' })).toMatch(/^Invalid configuration: OPERATOR_SECRETS_KEY /);
    expect(
      configErrorFor({ ...productionEnv, COOKIE_SECRET: undefined, OPERATOR_SECRETS_KEY: 'k'.repeat(32) }),
    ).toMatch(/COOKIE_SECRET is required/);
    expect(loadConfig(productionEnv).backoffice.secureCookie).toBe(true);
    // A real store keeps the console on a host of its own: on the storefront's, its scripts could reach the cookie.
    expect(configErrorFor({ ...productionEnv, BACKOFFICE_ORIGIN: undefined })).toMatch(
      /^Invalid configuration: BACKOFFICE_ORIGIN is required when NODE_ENV=production/,
    );
    expect(configErrorFor({ ...productionEnv, BACKOFFICE_ORIGIN: 'https://tienda.travesia.cl' })).toMatch(
      /^Invalid configuration: BACKOFFICE_ORIGIN must be another host than PUBLIC_URL/,
    );
    const warned = loadConfig({ ADMIN_TOKEN: 'a'.repeat(40) }).warnings;
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^ADMIN_TOKEN is deprecated and will be removed in the next release.*API key/);
  });

  it('the deprecated OUTBOX_INTERVAL_MS still works, with a warning: 0 is WORKER=off, any other value both intervals', () => {
    const off = loadConfig({ OUTBOX_INTERVAL_MS: '0' });
    expect(off.worker).toStrictEqual({ mode: 'off', jobsIntervalMs: 5_000, paymentSweepIntervalMs: 5_000 });
    expect(off.warnings).toHaveLength(1);
    expect(off.warnings[0]).toMatch(
      /^OUTBOX_INTERVAL_MS is deprecated.*WORKER=off.*JOBS_INTERVAL_MS.*PAYMENT_SWEEP_INTERVAL_MS/,
    );
    expect(loadConfig({ OUTBOX_INTERVAL_MS: '2000' }).worker).toStrictEqual({
      mode: 'inline',
      jobsIntervalMs: 2_000,
      paymentSweepIntervalMs: 2_000,
    });
    // The new names win over the old one.
    expect(
      loadConfig({
        OUTBOX_INTERVAL_MS: '0',
        WORKER: 'inline',
        JOBS_INTERVAL_MS: '700',
        PAYMENT_SWEEP_INTERVAL_MS: '900',
      }).worker,
    ).toStrictEqual({ mode: 'inline', jobsIntervalMs: 700, paymentSweepIntervalMs: 900 });
  });

  it('a feature flag that is not a boolean spelling throws instead of silently meaning false', () => {
    expect(configErrorFor({ FEATURE_DOWNLOAD_CERTIFICATES: 'maybe' })).toMatch(
      /^Invalid configuration: FEATURE_DOWNLOAD_CERTIFICATES /,
    );
  });

  it('several bad variables are all named on the one line', () => {
    const message = configErrorFor({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
  });
});

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

type Run = { code: number | null; stdout: string; stderr: string };

/** Starts the real server (or the worker) as a user would (`tsx apps/api/src/server.ts`) and waits for it to exit. */
function runServer(env: Record<string, string>, timeoutMs = 45_000, entry = 'apps/api/src/server.ts'): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, 'node_modules/.bin/tsx'), [entry], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('server start-up failures', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'travesia-startup-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('an unreachable PostgreSQL stops start-up with exit code 1 and one line naming the server, no stack', async () => {
    const run = await runServer({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nowhere', DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: Cannot connect to PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/nowhere/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain('nobody');
    // It failed before touching the embedded database.
    expect(await readdir(dataDir)).toStrictEqual([]);
  });

  it('production without PUBLIC_URL stops start-up with exit code 1 and one line naming PUBLIC_URL, no stack', async () => {
    const run = await runServer({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Error: Invalid configuration: PUBLIC_URL must be set when NODE_ENV=production[^\n]*\n?$/,
    );
    expect(run.stdout).toBe('');
    expect(await readdir(dataDir)).toStrictEqual([]);
  });

  it('npm start (src/start.ts) for a real store set by NODE_ENV=production or DEPLOYMENT=production still refuses to start without its secrets', async () => {
    const byNodeEnv = await runServer({ NODE_ENV: 'production', DATA_DIR: dataDir }, 45_000, 'apps/api/src/start.ts');
    expect(byNodeEnv.code).toBe(1);
    expect(byNodeEnv.stderr).toMatch(
      /^Error: Invalid configuration: PUBLIC_URL must be set when NODE_ENV=production[^\n]*\n?$/,
    );
    const byDeployment = await runServer(
      { DEPLOYMENT: 'production', DATA_DIR: dataDir },
      45_000,
      'apps/api/src/start.ts',
    );
    expect(byDeployment.code).toBe(1);
    expect(byDeployment.stderr).toMatch(
      /^Error: Invalid configuration: PUBLIC_URL must be set when DEPLOYMENT=production[^\n]*\n?$/,
    );
    expect(byDeployment.stdout).toBe('');
    expect(await readdir(dataDir)).toStrictEqual([]);
  });

  it('the worker alone without DATABASE_URL stops with exit code 1 and one line: the embedded database serves one process', async () => {
    const run = await runServer({ DATA_DIR: dataDir }, 45_000, 'apps/api/src/worker-main.ts');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: Invalid configuration: the worker alone needs DATABASE_URL [^\n]*\n?$/);
    expect(run.stdout).toBe('');
    expect(await readdir(dataDir)).toStrictEqual([]);
  });

  it('the worker alone with an unreachable PostgreSQL stops with exit code 1 and one line naming the server', async () => {
    const run = await runServer(
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nowhere', DATA_DIR: dataDir },
      45_000,
      'apps/api/src/worker-main.ts',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Error: Cannot connect to PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/nowhere[^\n]*\n?$/,
    );
    expect(run.stderr).not.toContain('nobody');
  });

  it('a bad PORT stops start-up with exit code 1 and one line naming PORT, no stack', async () => {
    const run = await runServer({ PORT: 'abc', DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: Invalid configuration: PORT [^\n]*\n?$/);
    expect(run.stdout).toBe('');
  });
});

describe('the HTTP server limits', () => {
  it('the request, connection and keep-alive timeouts of the configuration reach the Node server', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      HTTP_REQUEST_TIMEOUT_MS: '21000',
      HTTP_CONNECTION_TIMEOUT_MS: '91000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '66000',
    });
    const database = await openTestDatabase('pglite');
    const app = await buildApp({ config, db: database.db });
    try {
      expect(app.server.requestTimeout).toBe(21_000);
      expect(app.server.timeout).toBe(91_000);
      expect(app.server.keepAliveTimeout).toBe(66_000);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('PREVIEW_SECRET (issue 25)', () => {
  it("production refuses to start without it: it signs the console's preview links of unpublished prices", () => {
    expect(configErrorFor({ ...productionEnv, PREVIEW_SECRET: undefined })).toMatch(/PREVIEW_SECRET is required/);
    expect(configErrorFor({ PREVIEW_SECRET: 'short' })).toMatch(/PREVIEW_SECRET must be at least 32 characters/);
    expect(loadConfig({ ...productionEnv }).previewSecret).toBe(productionEnv.PREVIEW_SECRET);
  });
});
