import { join } from 'node:path';
import { z } from 'zod';
import { type LegacyRedirects, LegacyRedirectsError, parseLegacyRedirects } from './lib/http/legacy-redirects.ts';
import { type RateLimits, scaledRateLimits } from './lib/http/rate-limit.ts';
import { type Network, parseNetworks } from './lib/security/networks.ts';
import { defaultAllowedHosts, type HostAndPort, isProxyAddressEntry, parseHost } from './lib/security/origins.ts';

/** Environment flags accept the usual spellings; anything else is a start-up error, not a silent false. */
const flag = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? defaultValue : ['true', '1', 'on', 'yes'].includes(value)));

const databaseUrl = z
  .string()
  .optional()
  .refine((value) => value === undefined || value === '' || /^postgres(ql)?:\/\//.test(value), {
    message: 'must start with postgres:// or postgresql://',
  })
  .transform((value) => (value ? value : undefined));

/** A retention period in whole months, 1 to 600 (50 years); a clear start-up error otherwise. */
const retentionMonths = (defaultMonths: number) =>
  z.coerce
    .number({ error: 'must be a whole number of months' })
    .int({ error: 'must be a whole number of months' })
    .min(1, { error: 'must be at least 1 month' })
    .max(600, { error: 'must be at most 600 months' })
    .default(defaultMonths);

/** A duration in milliseconds: a whole number from 1 ms up to an hour (no 0 for "off": these are safety limits). */
const milliseconds = z.coerce.number().int().min(1).max(3_600_000);

/**
 * How long the API waits on PostgreSQL, so a server that is gone or frozen costs a request seconds, never forever.
 * The client-side query timeout is a little longer than the server's statement timeout: the server normally cancels
 * first and keeps the connection; the client's only fires when the server or the network does not answer at all.
 */
const queryTimeoutMarginMs = 2_000;
export const defaultDatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  queryMs: 10_000 + queryTimeoutMarginMs,
  idleInTransactionMs: 10_000,
} as const;

export type DatabaseTimeouts = { connectMs: number; statementMs: number; queryMs: number; idleInTransactionMs: number };

/**
 * Transbank's public integration credentials (chile-facts; its SDK's IntegrationCommerceCodes.WEBPAY_PLUS and
 * IntegrationApiKeys.WEBPAY): anyone can use them, and they only ever take test money on the integration environment.
 */
export const transbankIntegration = {
  commerceCode: '597055555532',
  apiKey: '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C',
} as const;

/** Whether these are public integration credentials: every commerce code of the SDK's list is 5970555555NN. */
export function isTransbankIntegrationCredential(commerceCode: string, apiKey: string): boolean {
  return /^5970555555\d{2}$/.test(commerceCode.trim()) || integrationApiKeys.has(apiKey.trim());
}
const integrationApiKeys = new Set<string>([transbankIntegration.apiKey, 'cxxXQgGD9vrVe4M41FIt']);

const otlpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional();
const otlpProtocol = z
  .enum(['http/protobuf', 'http/json', 'grpc'], { error: 'must be http/protobuf, http/json or grpc' })
  .optional();

/**
 * OpenTelemetry tracing (observability/tracing.ts), by the standard OTEL_* variables. Off by default: on when an
 * exporter or an OTLP endpoint is named (the SDK itself reads the rest: headers, sampler, batch sizes…).
 */
const tracingEnvironmentSchema = z.object({
  OTEL_SDK_DISABLED: flag(false),
  OTEL_TRACES_EXPORTER: z
    .enum(['otlp', 'console', 'none'], { error: 'must be otlp, console or none (the exporters this build carries)' })
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol,
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional(),
});

/** Whether traces are exported, and under which service name (OTEL_SERVICE_NAME, else the process's own). */
export type TracingConfig = { enabled: boolean; serviceName: string | undefined };

function tracingOf(e: z.output<typeof tracingEnvironmentSchema>): TracingConfig {
  const named =
    e.OTEL_TRACES_EXPORTER ?? (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || e.OTEL_EXPORTER_OTLP_ENDPOINT ? 'otlp' : 'none');
  return { enabled: !e.OTEL_SDK_DISABLED && named !== 'none', serviceName: e.OTEL_SERVICE_NAME };
}

/**
 * The tracing settings alone, read before anything else is loaded (start.ts: instrumentation must come first). A
 * bad value throws the same one-line ConfigError loadConfig would.
 */
export function loadTracingConfig(source: NodeJS.ProcessEnv = process.env): TracingConfig {
  const parsed = tracingEnvironmentSchema.safeParse(source);
  if (!parsed.success) throw configErrorOf(parsed.error);
  return tracingOf(parsed.data);
}

/** An optional http(s) origin setting (no path, query or user), normalised; `example` shows a good value. */
const originSetting = (example: string) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const origin = httpOrigin(value);
      if (origin === null) {
        context.addIssue({
          code: 'custom',
          message: `must be an http:// or https:// origin such as ${example} (no path, query or user)`,
        });
        return z.NEVER;
      }
      return origin;
    });

const environmentSchema = z.object({
  ...tracingEnvironmentSchema.shape,
  /** The runtime mode libraries read (React's production build); without DEPLOYMENT, production also means a real store. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Whether this is a real store (strict checks: secrets, own keys, no test gateway by default) or a local one. */
  DEPLOYMENT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['local', 'production'], { error: 'must be local or production' }).optional(),
  ),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL server; when unset the API runs embedded PGlite persisted under DATA_DIR. */
  DATABASE_URL: databaseUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * How V8 compiles embedded PGlite's WebAssembly: `baseline` (Liftoff only) keeps ~60 MB less resident and starts
   * faster; `optimizing` adds V8's optimising tier, ~20 % faster on long SQL-heavy runs (docs/performance.md).
   */
  PGLITE_COMPILER: z.enum(['baseline', 'optimizing']).default('baseline'),
  /** Opening a connection, or waiting for a free one in the pool. */
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds.default(defaultDatabaseTimeouts.connectMs),
  /** PostgreSQL's statement_timeout: the server cancels a longer statement. */
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds.default(defaultDatabaseTimeouts.statementMs),
  /** node-postgres' query_timeout: the client gives up on an unanswered query (a frozen server or network). */
  DATABASE_QUERY_TIMEOUT_MS: milliseconds.optional(),
  /** PostgreSQL's idle_in_transaction_session_timeout: a transaction left open holds no locks for longer. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds.default(defaultDatabaseTimeouts.idleInTransactionMs),
  /** Receiving a whole request (headers and body): a client that trickles its body is cut off. */
  HTTP_REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
  /** A connection with no traffic either way for this long is closed (longer than any request takes). */
  HTTP_CONNECTION_TIMEOUT_MS: milliseconds.default(120_000),
  /** An idle keep-alive connection is closed after this; above the usual 60 s of load balancers. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(72_000),
  /** The one company this storefront sells for (spec §1: fixed by environment configuration). */
  COMPANY_ID: z.coerce.number().int().positive().default(1),
  /** Seed the demo company on an empty database. */
  SEED_DEMO_DATA: flag(true),
  /** Where the built storefront lives; when present the same process serves it next to the API. */
  WEB_BUILD_DIR: z.string().optional(),
  /** The store's public origin: every absolute URL the server makes (gateway return URLs). Required in production. */
  PUBLIC_URL: originSetting('https://tienda.travesia.cl'),
  /** Without PUBLIC_URL: the Host names (optionally host:port) a request may use for absolute URLs. */
  ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === '') return defaultAllowedHosts;
      const entries = value.split(',').map((entry) => entry.trim());
      const hosts = entries.map(parseHost);
      const bad = entries.filter((_entry, index) => hosts[index] === null);
      if (bad.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of host names or addresses, each maybe with :port (not ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
        });
        return z.NEVER;
      }
      return hosts.filter((host) => host !== null);
    }),
  // --- Operator console (apps/backoffice, mounted by backoffice-web.ts; docs/backoffice.md) ---
  /**
   * The console's one origin (e.g. https://consola.travesia.cl): the only one it answers on, the one its API's CSRF
   * check accepts in an Origin header, and the one of the enrolment links; unset: PUBLIC_URL (unset too: the console
   * answers on any origin the store does, and the API and links take http://localhost:PORT).
   */
  BACKOFFICE_ORIGIN: originSetting('https://consola.travesia.cl'),
  /** The client networks (CIDR, comma-separated) the console answers; unset: every network. */
  BACKOFFICE_ALLOWED_NETWORKS: z
    .string()
    .optional()
    .transform((value, context): Network[] => {
      const { networks, bad } = parseNetworks(value ?? '');
      if (bad.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of networks such as 10.0.0.0/8, 2001:db8::/32 (not ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
        });
        return z.NEVER;
      }
      return networks;
    }),
  // --- end of the operator console's keys ---
  /** Sites allowed to show the store in a frame (CSP frame-ancestors): none but the store itself by default. */
  FRAME_ANCESTORS: z
    .string()
    .optional()
    .transform((value, context): string[] => {
      const entries = (value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const origins = entries.map(httpOrigin);
      const bad = entries.filter((_entry, index) => origins[index] === null);
      if (bad.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of origins such as https://socio.example.cl (not ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
        });
        return z.NEVER;
      }
      return origins.filter((origin) => origin !== null);
    }),
  /** Which peers' X-Forwarded-* headers to believe: off by default; IPs/CIDR ranges of the proxies, or true (all). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context): TrustProxy => {
      const trimmed = value?.trim().toLowerCase() ?? '';
      if (trimmed === '' || ['false', 'off', 'no'].includes(trimmed)) return false;
      if (['true', 'on', 'yes'].includes(trimmed)) return true;
      if (/^[0-9]+$/.test(trimmed)) {
        if (Number(trimmed) === 0) return false;
        // Fastify ignores hop counts (trusts nothing) since they cannot tell a proxy from a client that adds hops.
        context.addIssue({
          code: 'custom',
          message:
            "must name the proxies' addresses (IPs or CIDR ranges), not a hop count: Fastify trusts no hop count",
        });
        return z.NEVER;
      }
      const entries = trimmed.split(',').map((entry) => entry.trim());
      const bad = entries.filter((entry) => !isProxyAddressEntry(entry));
      if (bad.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `must be false, true, or a comma-separated list of IP addresses and CIDR ranges (not ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
        });
        return z.NEVER;
      }
      return entries;
    }),
  /** Spec §9: old paths answered with 301 to other hosts: a JSON object "/path" → absolute URL, or a file holding one. */
  LEGACY_REDIRECTS: z
    .string()
    .optional()
    .transform((value, context): LegacyRedirects => {
      try {
        return parseLegacyRedirects(value);
      } catch (error) {
        if (!(error instanceof LegacyRedirectsError)) throw error;
        context.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    }),
  /** How long catalogue reads (company, documents, modalities, contacts…) are reused, in ms; 0 reads every time. */
  CATALOG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** Redis (redis:// or rediss://) that carries read-cache invalidations to every instance; unset: this process only. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** The pub/sub channel of those invalidations: instances sharing one database share one channel. */
  REDIS_CHANNEL: z.string().trim().min(1).max(200).default('travesia:read-cache:invalidate'),
  /** The prefix of the shared rate-limit counters' keys in Redis: every instance of one store uses the same one. */
  REDIS_RATE_LIMIT_PREFIX: z.string().trim().min(1).max(200).default('travesia:rate-limit:'),
  /** Validate every API answer against its schema before sending (on outside production); `false` only serializes. */
  RESPONSE_VALIDATION: z.enum(['true', 'false']).optional(),
  /** Multiplies every per-client rate limit (lib/http/rate-limit.ts): 2 doubles them; tests raise it. */
  RATE_LIMIT_FACTOR: z.coerce.number().min(0.01).max(100_000).default(1),
  /** Signs the storefront's cookies (the buyer's proof of a sale); required in production, 32+ characters. */
  COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Signs the «Mi compra» links of purchase e-mails (HMAC-SHA256); unset: COOKIE_SECRET, else a local development value. */
  PURCHASE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Signs the console's preview links of drafts (issue 25); required in production, 32+ characters. */
  PREVIEW_SECRET: z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
  /** How long a signed «Mi compra» link of an e-mail opens the purchase, in days. */
  PURCHASE_LINK_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** How long «Mi compra» stays open after a code or a link was accepted, in minutes. */
  PURCHASE_SESSION_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** Webpay Plus: Transbank's public integration credentials by default; production ones by configuration. */
  WEBPAY_ENVIRONMENT: z
    .union([z.enum(['integration', 'production']), z.url()])
    .default('integration')
    .describe('integration, production, or the base URL of a Webpay-compatible server (tests)'),
  WEBPAY_COMMERCE_CODE: z.string().trim().min(1).default(transbankIntegration.commerceCode),
  /** The built-in test gateway; on by default, except in a production deployment (unless true) and next to Webpay production (never). */
  PAYMENTS_SANDBOX: z.enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no']).optional(),
  WEBPAY_API_KEY: z.string().trim().min(1).default(transbankIntegration.apiKey),
  /** smtp(s)://user:pass@host:port; unset: e-mails are written as .eml files under DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Travesía <certificados@travesia.cl>'),
  /**
   * Where the USD→CLP rate comes from (integrations/exchange-rates): `manual` (the console only, the default),
   * `bcch` (the Banco Central's web service, needs BCCH_USER and BCCH_PASSWORD) or `mindicador` (its public mirror).
   */
  EXCHANGE_RATE_SOURCE: z
    .enum(['manual', 'bcch', 'mindicador'], { error: 'must be manual, bcch or mindicador' })
    .default('manual'),
  /** The user (an e-mail) and password registered with the Banco Central's statistics web service. */
  BCCH_USER: z.string().trim().min(1).optional(),
  BCCH_PASSWORD: z.string().min(1).optional(),
  /** The BCCh web service's address; tests point it at a fake on loopback. */
  BCCH_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx'),
  /** mindicador.cl's origin (no trailing slash); tests point it at a fake on loopback. */
  MINDICADOR_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .transform((value) => value.replace(/\/+$/, ''))
    .default('https://mindicador.cl'),
  /** The longest wait for the exchange-rate source's answer. */
  EXCHANGE_RATE_TIMEOUT_MS: milliseconds.max(60_000).default(10_000),
  /** reCAPTCHA v2 (the contact form): Google's public test keys by default, which accept every token. */
  RECAPTCHA_SITE_KEY: z.string().trim().min(1).optional(),
  RECAPTCHA_SECRET_KEY: z.string().trim().min(1).optional(),
  /** Google's siteverify; tests point it at a fake on loopback. */
  RECAPTCHA_VERIFY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://www.google.com/recaptcha/api/siteverify'),
  /** Where contact-form messages are e-mailed; unset: the e-mail of the contact directory's entry that links to /contacto. */
  CONTACT_FORM_TO: z.email({ error: 'must be an e-mail address' }).optional(),
  /** Where the company receives refund requests; unset: the e-mail of the contact directory's refunds entry. */
  REFUNDS_NOTIFY_EMAIL: z.email('must be an e-mail address').optional(),
  /** Enables the admin API (refund status changes) for whoever sends it as a Bearer token; unset: the admin API is off (404). */
  ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
  /** Encrypts operators' TOTP secrets and keys their CSRF tokens (32+ characters); unset: derived from COOKIE_SECRET. */
  OPERATOR_SECRETS_KEY: z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
  /** Where visitors' documents (refund claims) are kept: `local` (files under DOCUMENT_STORE_DIR) or `s3` (S3_*). */
  DOCUMENT_STORE: z.enum(['local', 's3'], { error: 'must be local or s3' }).optional(),
  /** The local store's directory; unset: DATA_DIR/documents. */
  DOCUMENT_STORE_DIR: z.string().trim().min(1).optional(),
  /** The bucket of DOCUMENT_STORE=s3. */
  S3_BUCKET: z.string().trim().min(3).max(63).optional(),
  /** The S3 region; unset with S3_ENDPOINT: us-east-1 (what MinIO and most S3-compatible stores take). */
  S3_REGION: z.string().trim().min(1).optional(),
  /** Another S3 API than AWS's (MinIO, Ceph, R2…): its base URL. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** Path-style URLs (host/bucket/key), which MinIO and most self-hosted stores need; default: on with S3_ENDPOINT. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no']).optional(),
  /** Both or neither; neither: the AWS SDK's own chain (AWS_* variables, an instance's or a task's role). */
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  /** Prepended to every object key, so one bucket may serve several stores (e.g. `travesia/`). */
  S3_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9/_.-]*$/, 'may hold only letters, digits, /, _, . and -')
    .optional(),
  /**
   * Who issues the Chilean tax documents (boletas, facturas, notas de crédito; docs/tax-documents.md): `local` (test
   * folios, PDFs «SIN VALOR TRIBUTARIO»; the default outside production), `openfactura` (Haulmer's API), or
   * `external` (the insurer issues them elsewhere: the store issues none). A production deployment must say which.
   */
  TAX_DOCUMENTS_PROVIDER: z
    .enum(['local', 'openfactura', 'external'], { error: 'must be local, openfactura or external' })
    .optional(),
  OPENFACTURA_API_KEY: z.string().trim().min(1).optional(),
  OPENFACTURA_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://api.haulmer.com'),
  /** The issuer printed on every document: RUT (12345678-9), razón social, giro, address and comuna. */
  TAX_ISSUER_RUT: z
    .string()
    .trim()
    .regex(/^\d{7,8}-[\dkK]$/, 'must be a RUT like 76123456-7')
    .optional(),
  TAX_ISSUER_NAME: z.string().trim().min(1).optional(),
  TAX_ISSUER_GIRO: z.string().trim().min(1).optional(),
  TAX_ISSUER_ADDRESS: z.string().trim().min(1).optional(),
  TAX_ISSUER_COMMUNE: z.string().trim().min(1).optional(),
  /** Document uploads being received at once by this process; more answer 503 with Retry-After. */
  UPLOADS_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(8),
  /** Document uploads one client (its address, as the rate limits see it) may have in flight; more answer 429. */
  UPLOADS_MAX_IN_FLIGHT_PER_CLIENT: z.coerce.number().int().min(1).max(100).default(2),
  /** Background work (job queue, payment sweeper) in this web process (inline, the default) or not at all (off). */
  WORKER: z.enum(['inline', 'off']).optional(),
  /** How often the worker runs the due jobs (certificate e-mails…). */
  JOBS_INTERVAL_MS: milliseconds.optional(),
  /** How often the worker settles payments left in confirmation. */
  PAYMENT_SWEEP_INTERVAL_MS: milliseconds.optional(),
  /**
   * The worker alone (`npm run worker`) serves its own GET /api/metrics on this port (behind ADMIN_TOKEN, like the
   * server's); unset: no HTTP at all. The web processes ignore it.
   */
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Personal data (modules/privacy): contact requests older than this many months are anonymised by the worker. */
  RETENTION_CONTACT_MONTHS: retentionMonths(24),
  /** Personal data: closed claims (pagada, rechazada) unchanged for this many months are anonymised, documents deleted. */
  RETENTION_CLAIMS_MONTHS: retentionMonths(60),
  /** Deprecated alias of both intervals; 0 meant no background work (WORKER=off). */
  OUTBOX_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  // Feature flags of spec §6, with the spec's defaults.
  FEATURE_VIRTUAL_BRANCH: flag(true),
  FEATURE_EXCLUSIVE_MEMBERS: flag(true),
  FEATURE_DISCOUNT_LABEL: flag(true),
  FEATURE_DOWNLOAD_CERTIFICATES: flag(false),
  FEATURE_SLIDER_VIDEO: flag(false),
  FEATURE_REMOTE_MARKETING_SCRIPT: flag(true),
  FEATURE_LOCAL_TAG_MANAGER_SCRIPT: flag(false),
});

export type Environment = z.output<typeof environmentSchema>;

/** Fastify's trustProxy: off, every peer, or these addresses and ranges (proxy-addr's named ranges too). */
export type TrustProxy = boolean | string[];

/** `value` as an origin (scheme://host[:port]) when it is an http(s) URL with nothing else; otherwise null. */
function httpOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const plain = url.pathname === '/' && url.search === '' && url.hash === '' && !url.username && !url.password;
  return (url.protocol === 'http:' || url.protocol === 'https:') && plain && !/[?#]$/.test(value) ? url.origin : null;
}

export type FeatureFlags = {
  virtualBranch: boolean;
  exclusiveMembers: boolean;
  discountLabel: boolean;
  downloadCertificates: boolean;
  sliderVideo: boolean;
  remoteMarketingScript: boolean;
  localTagManagerScript: boolean;
};

/**
 * `production`: a real store, which refuses to start without PUBLIC_URL, COOKIE_SECRET and its own reCAPTCHA keys
 * and has the test gateway off unless PAYMENTS_SANDBOX=true. `local`: a developer's or a demo's, with working
 * defaults for all of them. DEPLOYMENT says which; unset, NODE_ENV=production means production (so a deployment
 * configured by NODE_ENV alone stays strict) and anything else local. See docs/decisions/012-production-mode-and-deployment.md.
 */
export type Deployment = 'local' | 'production';

export type Config = {
  env: Environment['NODE_ENV'];
  deployment: Deployment;
  catalogCacheTtlMs: number;
  /** Where read-cache invalidations are published and heard (lib/cache/cache-invalidation.ts); no url: this process only. */
  redis: { url: string | undefined; channel: string; rateLimitPrefix: string };
  /** Answers checked against their zod schema on the way out (tests, development), or only serialized (production). */
  responseValidation: boolean;
  rateLimits: RateLimits;
  port: number;
  host: string;
  logLevel: Environment['LOG_LEVEL'];
  databaseUrl: string | undefined;
  dataDir: string;
  /** How V8 compiles embedded PGlite (PGLITE_COMPILER). */
  pgliteCompiler: 'baseline' | 'optimizing';
  database: DatabaseTimeouts;
  http: { requestTimeoutMs: number; connectionTimeoutMs: number; keepAliveTimeoutMs: number };
  companyId: number;
  seedDemoData: boolean;
  webBuildDir: string | undefined;
  /** The store's public origin (no trailing slash); required in a production deployment. */
  publicUrl: string | undefined;
  /** Without publicUrl: the Hosts whose origin absolute URLs may use; any other gets http://localhost:${port}. */
  allowedHosts: HostAndPort[];
  trustProxy: TrustProxy;
  /** Origins that may frame the store (CSP frame-ancestors), besides the store itself. */
  frameAncestors: string[];
  /** Spec §9: exact old paths → absolute URLs, answered with 301 before the storefront renders. */
  legacyRedirects: LegacyRedirects;
  /**
   * Webpay Plus. `testMode`: its payments move no real money (the integration environment, or Transbank's public
   * integration credentials anywhere), so they are marked as test payments, as the sandbox's are.
   */
  webpay: { environment: string; commerceCode: string; apiKey: string; testMode: boolean };
  payments: { sandboxEnabled: boolean };
  mail: { smtpUrl: string | undefined; from: string };
  recaptcha: RecaptchaConfig;
  /** The USD→CLP rate's source (integrations/exchange-rates) and how the worker reaches it. */
  exchangeRates: ExchangeRatesConfig;
  /** Where contact-form messages go when set; otherwise the company's contact address from its directory. */
  contactFormTo: string | undefined;
  worker: WorkerConfig;
  retention: RetentionConfig;
  features: FeatureFlags;
  refunds: RefundsConfig;
  /** Where visitors' documents are kept (integrations/document-store). */
  documents: DocumentStoreConfig;
  /** Who issues the tax documents, and as whom (integrations/tax-documents). */
  taxDocuments: TaxDocumentsConfig;
  /** How many document uploads may be received at once (modules/claims/uploads.ts). */
  uploads: UploadsConfig;
  purchases: PurchasesConfig;
  /** The secret that signs preview links of drafts (PREVIEW_SECRET; a public development value on a local store). */
  previewSecret: string;
  /** OpenTelemetry tracing by the OTEL_* variables: off unless an exporter or endpoint is named. */
  tracing: TracingConfig;
  /** The operator console (modules/operators): its origin, its secrets' key and its session cookie. */
  backoffice: BackofficeConfig;
  /** Things to tell the operator at start-up (a deprecated variable…); the configuration works as it is. */
  warnings: string[];
};

/**
 * The background work: the job queue and the payment sweeper. `inline` runs it in the web process (so `npm start`
 * is one command); `off` leaves it to worker processes (`npm run worker`), which run it whatever WORKER says.
 */
export type WorkerConfig = {
  mode: 'inline' | 'off';
  jobsIntervalMs: number;
  paymentSweepIntervalMs: number;
  /** WORKER_METRICS_PORT: where the worker alone serves its metrics (observability/worker-metrics.ts). */
  metricsPort?: number;
};

/** RETENTION_CONTACT_MONTHS / RETENTION_CLAIMS_MONTHS: the personal-data retention the worker applies hourly. */
export type RetentionConfig = { contactMonths: number; claimsMonths: number; intervalMs: number };

/** How often the worker applies the retention (modules/privacy applyRetention). */
export const retentionIntervalMs = 60 * 60 * 1000;

const defaultWorkerIntervalMs = 5_000;

/** WORKER and its intervals, honouring the deprecated OUTBOX_INTERVAL_MS (which drove one timer for both). */
function workerConfig(e: Environment): { worker: WorkerConfig; warnings: string[] } {
  const legacy = e.OUTBOX_INTERVAL_MS;
  const legacyInterval = legacy !== undefined && legacy > 0 ? legacy : undefined;
  const worker: WorkerConfig = {
    mode: e.WORKER ?? (legacy === 0 ? 'off' : 'inline'),
    jobsIntervalMs: e.JOBS_INTERVAL_MS ?? legacyInterval ?? defaultWorkerIntervalMs,
    paymentSweepIntervalMs: e.PAYMENT_SWEEP_INTERVAL_MS ?? legacyInterval ?? defaultWorkerIntervalMs,
    ...(e.WORKER_METRICS_PORT === undefined ? {} : { metricsPort: e.WORKER_METRICS_PORT }),
  };
  const warnings =
    legacy === undefined
      ? []
      : [
          'OUTBOX_INTERVAL_MS is deprecated and will be removed: use WORKER=off instead of 0, JOBS_INTERVAL_MS and PAYMENT_SWEEP_INTERVAL_MS for the intervals',
        ];
  if (e.WORKER_METRICS_PORT !== undefined && !e.ADMIN_TOKEN) {
    warnings.push(
      'WORKER_METRICS_PORT is set without ADMIN_TOKEN: the worker serves its metrics only to Bearer ADMIN_TOKEN, so every scrape answers 404',
    );
  }
  return { worker, warnings };
}

/** EXCHANGE_RATE_SOURCE and what its adapter needs (docs/operations.md «El tipo de cambio»). */
export type ExchangeRatesConfig = {
  source: 'manual' | 'bcch' | 'mindicador';
  bcch: { url: string; user: string; password: string };
  mindicadorUrl: string;
  timeoutMs: number;
};

/** The exchange-rate source: `bcch` without its credentials refuses to start, rather than fail every day. */
function exchangeRatesConfig(e: Environment, warnings: string[]): ExchangeRatesConfig {
  if (e.EXCHANGE_RATE_SOURCE === 'bcch' && (!e.BCCH_USER || !e.BCCH_PASSWORD)) {
    throw new ConfigError(
      'Invalid configuration: EXCHANGE_RATE_SOURCE=bcch needs BCCH_USER and BCCH_PASSWORD (the Banco Central web service account); use EXCHANGE_RATE_SOURCE=mindicador or manual without them',
    );
  }
  if (e.EXCHANGE_RATE_SOURCE !== 'bcch' && (e.BCCH_USER || e.BCCH_PASSWORD)) {
    warnings.push(
      `BCCH_USER/BCCH_PASSWORD are set but EXCHANGE_RATE_SOURCE=${e.EXCHANGE_RATE_SOURCE}: the Banco Central is not asked`,
    );
  }
  return {
    source: e.EXCHANGE_RATE_SOURCE,
    bcch: { url: e.BCCH_URL, user: e.BCCH_USER ?? '', password: e.BCCH_PASSWORD ?? '' },
    mindicadorUrl: e.MINDICADOR_URL,
    timeoutMs: e.EXCHANGE_RATE_TIMEOUT_MS,
  };
}

/** Google's public reCAPTCHA v2 test keys: every token passes (a warning shows in the widget). Never for production. */
export const recaptchaTestKeys = {
  siteKey: '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI',
  secretKey: '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe',
} as const;

export type RecaptchaConfig = { siteKey: string; secretKey: string; verifyUrl: string };
/** The document store: a local directory, or an S3-compatible bucket (docs/document-store.md). */
export type DocumentStoreConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      keyPrefix: string;
    };

/** Caps on uploads being received (per process), and how long an upload's token may be named by a claim. */
export type UploadsConfig = { maxInFlight: number; maxInFlightPerClient: number; tokenTtlMs: number };

const s3Variables = [
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_KEY_PREFIX',
] as const;

export type TaxIssuer = { rut: string; name: string; giro: string; address: string; commune: string };
export type TaxDocumentsConfig =
  | { provider: 'local'; issuer: TaxIssuer }
  | { provider: 'openfactura'; apiKey: string; baseUrl: string; issuer: TaxIssuer }
  | { provider: 'external' };

/** The demo issuer of local documents (they carry no tax value and say so). */
export const localTaxIssuer: TaxIssuer = {
  rut: '76000000-0',
  name: 'Travesía Asistencia en Viaje (demo)',
  giro: 'Servicios de asistencia en viaje',
  address: 'Av. Providencia 1000',
  commune: 'Providencia',
};

/**
 * TAX_DOCUMENTS_PROVIDER and its variables. A production deployment never issues test documents: it names
 * openfactura with its key and the issuer, or says `external` (documents issued elsewhere) explicitly.
 */
function taxDocumentsConfig(e: Environment, production: boolean, because: string): TaxDocumentsConfig {
  const provider = e.TAX_DOCUMENTS_PROVIDER ?? (production ? undefined : 'local');
  if (provider === undefined || (production && provider === 'local')) {
    throw new ConfigError(
      `Invalid configuration: TAX_DOCUMENTS_PROVIDER must be openfactura (with OPENFACTURA_API_KEY and TAX_ISSUER_*) or external when ${because}: local documents have no tax value`,
    );
  }
  if (provider === 'external') return { provider };
  const given = {
    rut: e.TAX_ISSUER_RUT,
    name: e.TAX_ISSUER_NAME,
    giro: e.TAX_ISSUER_GIRO,
    address: e.TAX_ISSUER_ADDRESS,
    commune: e.TAX_ISSUER_COMMUNE,
  };
  if (provider === 'local') {
    return {
      provider,
      issuer: { ...localTaxIssuer, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v)) },
    };
  }
  const missing = [
    ...(e.OPENFACTURA_API_KEY ? [] : ['OPENFACTURA_API_KEY']),
    ...Object.entries({
      TAX_ISSUER_RUT: given.rut,
      TAX_ISSUER_NAME: given.name,
      TAX_ISSUER_GIRO: given.giro,
      TAX_ISSUER_ADDRESS: given.address,
      TAX_ISSUER_COMMUNE: given.commune,
    })
      .filter(([, v]) => !v)
      .map(([k]) => k),
  ];
  if (missing.length > 0 || !e.OPENFACTURA_API_KEY) {
    throw new ConfigError(`Invalid configuration: TAX_DOCUMENTS_PROVIDER=openfactura needs ${missing.join(', ')}`);
  }
  return {
    provider,
    apiKey: e.OPENFACTURA_API_KEY,
    baseUrl: e.OPENFACTURA_BASE_URL,
    issuer: given as TaxIssuer,
  };
}

/**
 * DOCUMENT_STORE and its variables, checked so that no store starts on a configuration other than the one meant: S3
 * variables without DOCUMENT_STORE=s3 (a forgotten line) refuse to start rather than keep documents on local disk.
 */
function documentStoreConfig(e: Environment, production: boolean, warnings: string[]): DocumentStoreConfig {
  const kind = e.DOCUMENT_STORE ?? 'local';
  if (kind === 'local') {
    const stray = s3Variables.filter((name) => e[name] !== undefined);
    if (stray.length > 0) {
      throw new ConfigError(
        `Invalid configuration: ${stray.join(', ')} set but DOCUMENT_STORE is not s3: set DOCUMENT_STORE=s3 to keep documents in that bucket, or remove them`,
      );
    }
    if (production && e.DOCUMENT_STORE === undefined && e.DATABASE_URL) {
      warnings.push(
        "Refund documents are kept on this machine's disk (DOCUMENT_STORE unset: local). Several instances need a shared store: DOCUMENT_STORE=s3 (docs/document-store.md), or DOCUMENT_STORE=local on a shared disk",
      );
    }
    return { kind, dir: e.DOCUMENT_STORE_DIR ?? join(e.DATA_DIR, 'documents') };
  }
  if (!e.S3_BUCKET) throw new ConfigError('Invalid configuration: DOCUMENT_STORE=s3 needs S3_BUCKET');
  if (!e.S3_REGION && !e.S3_ENDPOINT) {
    throw new ConfigError(
      'Invalid configuration: DOCUMENT_STORE=s3 needs S3_REGION (or S3_ENDPOINT for another S3 API)',
    );
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      "Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or neither, for the AWS SDK's own credentials)",
    );
  }
  if (e.DOCUMENT_STORE_DIR) {
    throw new ConfigError('Invalid configuration: DOCUMENT_STORE_DIR is for DOCUMENT_STORE=local, not s3');
  }
  if (production && e.S3_ENDPOINT?.startsWith('http://')) {
    warnings.push(
      `S3_ENDPOINT ${e.S3_ENDPOINT} is plain http: documents and credentials cross the network unencrypted`,
    );
  }
  const pathStyle = e.S3_FORCE_PATH_STYLE;
  return {
    kind,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION ?? 'us-east-1',
    endpoint: e.S3_ENDPOINT,
    forcePathStyle:
      pathStyle === undefined ? e.S3_ENDPOINT !== undefined : ['true', '1', 'on', 'yes'].includes(pathStyle),
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    keyPrefix: e.S3_KEY_PREFIX ?? '',
  };
}

/**
 * The operator console (issue 24). `origin`: BACKOFFICE_ORIGIN, else PUBLIC_URL (undefined: the configured origin at
 * http://localhost:PORT). `secretsKey`: OPERATOR_SECRETS_KEY, else COOKIE_SECRET (production always has one), else a
 * public development value; modules/operators derives its encryption and CSRF keys from it. The session cookie is
 * `__Host-` prefixed and Secure when the console is served over https or in a production deployment.
 */
export type BackofficeConfig = {
  origin: string | undefined;
  /** The client networks the console's pages answer (backoffice-web.ts); empty: every network. */
  allowedNetworks: Network[];
  secretsKey: string;
  secureCookie: boolean;
};

/** The operators' secrets key of a local store without OPERATOR_SECRETS_KEY nor COOKIE_SECRET: never for production. */
export const developmentOperatorSecretsKey = 'travesia-development-operator-secrets-key-not-for-production';

/** Refund requests: where the company is told of them, and the operator's secret for the admin API. */
export type RefundsConfig = { notifyEmail: string | undefined; adminToken: string | undefined };

/**
 * «Mi compra» (modules/purchases): the secret that signs the links purchase e-mails carry, how long a link lasts, how
 * long an opened purchase stays open (the access token), and how long an e-mailed code is valid and how many tries.
 */
export type PurchasesConfig = {
  linkSecret: string;
  linkTtlMs: number;
  sessionTtlMs: number;
  codeTtlMs: number;
  codeMaxAttempts: number;
  /** Per sale and Chile day: codes issued at most, and wrong tries at most (docs/my-purchase.md). */
  codesPerSalePerDay: number;
  failedTriesPerSalePerDay: number;
};

/** The preview secret of a local store without PREVIEW_SECRET: public, so never for production (refused there). */
export const developmentPreviewSecret = 'travesia-development-preview-secret-not-for-production';

/** The link secret of a local store without PURCHASE_LINK_SECRET nor COOKIE_SECRET: public, so never for production. */
export const developmentPurchaseLinkSecret = 'travesia-development-purchase-link-secret-not-for-production';

export class ConfigError extends Error {}

function configErrorOf(error: z.ZodError): ConfigError {
  const problems = error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
  return new ConfigError(`Invalid configuration: ${problems}`);
}

/** Parses the environment once; a bad value stops start-up with a one-line message naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) throw configErrorOf(parsed.error);
  const e = parsed.data;
  const deployment: Deployment = e.DEPLOYMENT ?? (e.NODE_ENV === 'production' ? 'production' : 'local');
  const production = deployment === 'production';
  // The variable that made this a production deployment, named in the refusals below.
  const because = e.DEPLOYMENT ? 'DEPLOYMENT=production' : 'NODE_ENV=production';
  if (production && !e.PUBLIC_URL) {
    throw new ConfigError(
      `Invalid configuration: PUBLIC_URL must be set when ${because} (the store's public origin, e.g. https://tienda.travesia.cl): gateway return URLs are built from it`,
    );
  }
  if (production && !e.COOKIE_SECRET) {
    throw new ConfigError(`Invalid configuration: COOKIE_SECRET is required when ${because}`);
  }
  if (production) {
    const testKey =
      e.RECAPTCHA_SITE_KEY === recaptchaTestKeys.siteKey || e.RECAPTCHA_SECRET_KEY === recaptchaTestKeys.secretKey;
    if (!e.RECAPTCHA_SITE_KEY || !e.RECAPTCHA_SECRET_KEY || testKey) {
      throw new ConfigError(
        `Invalid configuration: RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be your own reCAPTCHA v2 keys when ${because} (Google's test keys accept every visitor, robots included)`,
      );
    }
  }
  if (production && !e.PREVIEW_SECRET) {
    throw new ConfigError(
      `Invalid configuration: PREVIEW_SECRET is required when ${because} (32+ random characters): it signs the console's preview links of unpublished prices and content`,
    );
  }
  const webpayProduction = e.WEBPAY_ENVIRONMENT === 'production';
  const publicWebpayCredentials = isTransbankIntegrationCredential(e.WEBPAY_COMMERCE_CODE, e.WEBPAY_API_KEY);
  if (production) {
    // A real store says where its card payments go: left to the defaults, it took test money (issue 22).
    const unnamed = ['WEBPAY_ENVIRONMENT', 'WEBPAY_COMMERCE_CODE', 'WEBPAY_API_KEY'].filter(
      (name) => !source[name]?.trim(),
    );
    if (unnamed.length > 0) {
      throw new ConfigError(
        `Invalid configuration: ${unnamed.join(', ')} must be set when ${because}: Webpay Plus's environment (production) and the commerce code and API key Transbank gave you. Unset, the store would take test payments on Webpay's integration environment`,
      );
    }
  }
  if (webpayProduction && (!source.WEBPAY_COMMERCE_CODE || !source.WEBPAY_API_KEY)) {
    throw new ConfigError(
      'Invalid configuration: WEBPAY_ENVIRONMENT=production needs your own WEBPAY_COMMERCE_CODE and WEBPAY_API_KEY',
    );
  }
  if ((production || webpayProduction) && publicWebpayCredentials) {
    throw new ConfigError(
      `Invalid configuration: WEBPAY_COMMERCE_CODE and WEBPAY_API_KEY are Transbank's public integration credentials, which only take test money: ${production ? because : 'WEBPAY_ENVIRONMENT=production'} needs the ones Transbank gave you`,
    );
  }
  const sandboxFlag =
    e.PAYMENTS_SANDBOX === undefined ? undefined : ['true', '1', 'on', 'yes'].includes(e.PAYMENTS_SANDBOX);
  if (webpayProduction && sandboxFlag === true) {
    throw new ConfigError('Invalid configuration: PAYMENTS_SANDBOX cannot be on with WEBPAY_ENVIRONMENT=production');
  }
  if (production && e.BACKOFFICE_ORIGIN?.startsWith('http:')) {
    // The operator's session cookie is a __Host- cookie, which browsers keep only over https.
    throw new ConfigError(`Invalid configuration: BACKOFFICE_ORIGIN must be an https:// origin when ${because}`);
  }
  // On the storefront's host, any script the store runs (a tag manager, an XSS) could call the console's API with an
  // operator's cookie and read its CSRF token: a real store keeps the console on a host of its own.
  if (production && !e.BACKOFFICE_ORIGIN) {
    throw new ConfigError(
      `Invalid configuration: BACKOFFICE_ORIGIN is required when ${because}: the operator console needs a host of its own (for example https://consola.tu-dominio.cl), apart from the storefront's scripts`,
    );
  }
  if (
    production &&
    e.BACKOFFICE_ORIGIN &&
    e.PUBLIC_URL &&
    new URL(e.BACKOFFICE_ORIGIN).host === new URL(e.PUBLIC_URL).host
  ) {
    throw new ConfigError(
      `Invalid configuration: BACKOFFICE_ORIGIN must be another host than PUBLIC_URL when ${because} (the storefront's scripts must not reach the console's cookie)`,
    );
  }
  const { worker, warnings } = workerConfig(e);
  const documents = documentStoreConfig(e, production, warnings);
  const exchangeRates = exchangeRatesConfig(e, warnings);
  const taxDocuments = taxDocumentsConfig(e, production, because);
  if (e.ADMIN_TOKEN) {
    warnings.push(
      'ADMIN_TOKEN is deprecated and will be removed in the next release: create an API key with role admin or finance (operator console, «Claves API») and send it as the Bearer token instead',
    );
  }
  const secretsKey = e.OPERATOR_SECRETS_KEY ?? e.COOKIE_SECRET ?? developmentOperatorSecretsKey;
  if (production && secretsKey === developmentOperatorSecretsKey) {
    throw new ConfigError(`Invalid configuration: OPERATOR_SECRETS_KEY (or COOKIE_SECRET) is required when ${because}`);
  }
  const backofficeOrigin = e.BACKOFFICE_ORIGIN ?? e.PUBLIC_URL;
  return {
    env: e.NODE_ENV,
    deployment,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    pgliteCompiler: e.PGLITE_COMPILER,
    database: {
      connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      queryMs: e.DATABASE_QUERY_TIMEOUT_MS ?? e.DATABASE_STATEMENT_TIMEOUT_MS + queryTimeoutMarginMs,
      idleInTransactionMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: e.HTTP_CONNECTION_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    companyId: e.COMPANY_ID,
    seedDemoData: e.SEED_DEMO_DATA,
    webBuildDir: e.WEB_BUILD_DIR,
    publicUrl: e.PUBLIC_URL,
    allowedHosts: e.ALLOWED_HOSTS,
    trustProxy: e.TRUST_PROXY,
    frameAncestors: e.FRAME_ANCESTORS,
    legacyRedirects: e.LEGACY_REDIRECTS,
    webpay: {
      environment: e.WEBPAY_ENVIRONMENT,
      commerceCode: e.WEBPAY_COMMERCE_CODE,
      apiKey: e.WEBPAY_API_KEY,
      testMode: e.WEBPAY_ENVIRONMENT === 'integration' || publicWebpayCredentials,
    },
    // The test gateway approves without money: a local default, off in production unless explicitly enabled.
    payments: { sandboxEnabled: sandboxFlag ?? (!webpayProduction && !production) },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    recaptcha: {
      siteKey: e.RECAPTCHA_SITE_KEY ?? recaptchaTestKeys.siteKey,
      secretKey: e.RECAPTCHA_SECRET_KEY ?? recaptchaTestKeys.secretKey,
      verifyUrl: e.RECAPTCHA_VERIFY_URL,
    },
    contactFormTo: e.CONTACT_FORM_TO,
    exchangeRates,
    worker,
    retention: {
      contactMonths: e.RETENTION_CONTACT_MONTHS,
      claimsMonths: e.RETENTION_CLAIMS_MONTHS,
      intervalMs: retentionIntervalMs,
    },
    catalogCacheTtlMs: e.CATALOG_CACHE_TTL_MS,
    redis: { url: e.REDIS_URL, channel: e.REDIS_CHANNEL, rateLimitPrefix: e.REDIS_RATE_LIMIT_PREFIX },
    // Production mode (npm start's NODE_ENV=production, or a production deployment) trusts the types; the rest checks.
    responseValidation:
      e.RESPONSE_VALIDATION === undefined
        ? !(production || e.NODE_ENV === 'production')
        : e.RESPONSE_VALIDATION === 'true',
    rateLimits: scaledRateLimits(e.RATE_LIMIT_FACTOR),
    features: {
      virtualBranch: e.FEATURE_VIRTUAL_BRANCH,
      exclusiveMembers: e.FEATURE_EXCLUSIVE_MEMBERS,
      discountLabel: e.FEATURE_DISCOUNT_LABEL,
      downloadCertificates: e.FEATURE_DOWNLOAD_CERTIFICATES,
      sliderVideo: e.FEATURE_SLIDER_VIDEO,
      remoteMarketingScript: e.FEATURE_REMOTE_MARKETING_SCRIPT,
      localTagManagerScript: e.FEATURE_LOCAL_TAG_MANAGER_SCRIPT,
    },
    refunds: { notifyEmail: e.REFUNDS_NOTIFY_EMAIL, adminToken: e.ADMIN_TOKEN },
    documents,
    taxDocuments,
    uploads: {
      maxInFlight: e.UPLOADS_MAX_IN_FLIGHT,
      maxInFlightPerClient: e.UPLOADS_MAX_IN_FLIGHT_PER_CLIENT,
      tokenTtlMs: 60 * 60 * 1000,
    },
    previewSecret: e.PREVIEW_SECRET ?? developmentPreviewSecret,
    purchases: {
      // A production deployment always has COOKIE_SECRET (checked above), so it never signs with the public value.
      linkSecret: e.PURCHASE_LINK_SECRET ?? e.COOKIE_SECRET ?? developmentPurchaseLinkSecret,
      linkTtlMs: e.PURCHASE_LINK_TTL_DAYS * 24 * 60 * 60 * 1000,
      sessionTtlMs: e.PURCHASE_SESSION_TTL_MINUTES * 60 * 1000,
      codeTtlMs: 10 * 60 * 1000,
      codeMaxAttempts: 5,
      codesPerSalePerDay: 5,
      failedTriesPerSalePerDay: 10,
    },
    tracing: tracingOf(e),
    backoffice: {
      origin: backofficeOrigin,
      allowedNetworks: e.BACKOFFICE_ALLOWED_NETWORKS,
      secretsKey,
      secureCookie: production || backofficeOrigin?.startsWith('https:') === true,
    },
    warnings,
  };
}
