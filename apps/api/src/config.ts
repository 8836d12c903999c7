import { z } from 'zod';

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

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL server; when unset the API runs embedded PGlite persisted under DATA_DIR. */
  DATABASE_URL: databaseUrl,
  DATA_DIR: z.string().min(1).default('./data'),
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
  /** The store's public address (gateway return URLs, links in e-mails); by default taken from each request. */
  PUBLIC_URL: z.url().optional(),
  /** Webpay Plus: Transbank's public integration credentials by default; production ones by configuration. */
  WEBPAY_ENVIRONMENT: z
    .union([z.enum(['integration', 'production']), z.url()])
    .default('integration')
    .describe('integration, production, or the base URL of a Webpay-compatible server (tests)'),
  WEBPAY_COMMERCE_CODE: z.string().min(1).default('597055555532'),
  /** The built-in test gateway; on by default except next to Webpay's production environment. */
  PAYMENTS_SANDBOX: z.enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no']).optional(),
  WEBPAY_API_KEY: z.string().min(1).default('579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C'),
  /** smtp(s)://user:pass@host:port; unset: e-mails are written as .eml files under DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Travesía <certificados@travesia.cl>'),
  /** How often the e-mail worker looks for pending e-mails, in milliseconds (0 turns the worker off). */
  OUTBOX_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
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

export type FeatureFlags = {
  virtualBranch: boolean;
  exclusiveMembers: boolean;
  discountLabel: boolean;
  downloadCertificates: boolean;
  sliderVideo: boolean;
  remoteMarketingScript: boolean;
  localTagManagerScript: boolean;
};

export type Config = {
  env: Environment['NODE_ENV'];
  port: number;
  host: string;
  logLevel: Environment['LOG_LEVEL'];
  databaseUrl: string | undefined;
  dataDir: string;
  database: DatabaseTimeouts;
  http: { requestTimeoutMs: number; connectionTimeoutMs: number; keepAliveTimeoutMs: number };
  companyId: number;
  seedDemoData: boolean;
  webBuildDir: string | undefined;
  publicUrl: string | undefined;
  webpay: { environment: string; commerceCode: string; apiKey: string };
  payments: { sandboxEnabled: boolean };
  mail: { smtpUrl: string | undefined; from: string; outboxIntervalMs: number };
  features: FeatureFlags;
};

export class ConfigError extends Error {}

/** Parses the environment once; a bad value stops start-up with a one-line message naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const webpayProduction = e.WEBPAY_ENVIRONMENT === 'production';
  if (webpayProduction && (!source.WEBPAY_COMMERCE_CODE || !source.WEBPAY_API_KEY)) {
    throw new ConfigError(
      'Invalid configuration: WEBPAY_ENVIRONMENT=production needs your own WEBPAY_COMMERCE_CODE and WEBPAY_API_KEY',
    );
  }
  const sandboxFlag =
    e.PAYMENTS_SANDBOX === undefined ? undefined : ['true', '1', 'on', 'yes'].includes(e.PAYMENTS_SANDBOX);
  if (webpayProduction && sandboxFlag === true) {
    throw new ConfigError('Invalid configuration: PAYMENTS_SANDBOX cannot be on with WEBPAY_ENVIRONMENT=production');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
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
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    webpay: { environment: e.WEBPAY_ENVIRONMENT, commerceCode: e.WEBPAY_COMMERCE_CODE, apiKey: e.WEBPAY_API_KEY },
    payments: { sandboxEnabled: sandboxFlag ?? !webpayProduction },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxIntervalMs: e.OUTBOX_INTERVAL_MS },
    features: {
      virtualBranch: e.FEATURE_VIRTUAL_BRANCH,
      exclusiveMembers: e.FEATURE_EXCLUSIVE_MEMBERS,
      discountLabel: e.FEATURE_DISCOUNT_LABEL,
      downloadCertificates: e.FEATURE_DOWNLOAD_CERTIFICATES,
      sliderVideo: e.FEATURE_SLIDER_VIDEO,
      remoteMarketingScript: e.FEATURE_REMOTE_MARKETING_SCRIPT,
      localTagManagerScript: e.FEATURE_LOCAL_TAG_MANAGER_SCRIPT,
    },
  };
}
