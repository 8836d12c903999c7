import fastifyRateLimit from '@fastify/rate-limit';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from '#app/errors.ts';
import { redactedRedisUrl, redisClient, redisConnectionOptions } from '#app/lib/redis.ts';

/**
 * Per-client limits for the calls anyone can make at no cost to themselves but at a cost to us or to a third
 * party: look-ups that reveal whether data exists (certificate search), forms that send e-mail (contact,
 * newsletter, certificate re-send, refunds). A route opts in with
 * `config: { rateLimit: app.config.rateLimits.<name> }`.
 *
 * Counts are kept in this process's memory, or in Redis when REDIS_URL is set, so that every instance behind a
 * balancer counts against the same limit (keys `{REDIS_RATE_LIMIT_PREFIX}{method}{route}-{client}`, each expiring
 * with its window). Redis is a help, never a requirement: while it cannot be reached the limits fail open (requests
 * are let through, uncounted) with one warning in the log, rather than refusing every visitor. The client is `request.ip`, which honours X-Forwarded-For only
 * from the proxies TRUST_PROXY names; the storefront's server-side calls pass the visitor's own address.
 */
export type RateLimit = { max: number; timeWindow: number };

const minute = 60_000;

/** The limits by name, per client. Generous for a person, tight for a script. */
export const defaultRateLimits = {
  /** Certificate search by RUT, document or e-mail: each answer says whether someone bought. */
  certificateSearch: { max: 10, timeWindow: minute },
  /** Any call that sends an e-mail on the visitor's say-so. */
  emailSend: { max: 5, timeWindow: minute },
  /** Forms that store a request for a person to read (contact, refunds) or add to a list (newsletter). */
  formSubmit: { max: 5, timeWindow: minute },
  /** Uploads of documents (refund claims): each one writes up to 25 MB to the document store. */
  documentUpload: { max: 10, timeWindow: minute },
  /** Look-ups by a number and a document (refund tracking, certificate verification). */
  lookup: { max: 20, timeWindow: minute },
  /** Starting a payment: each one opens a transaction at a gateway. */
  paymentStart: { max: 10, timeWindow: minute },
  /** Plan searches and quotations that carry a discount code: each answer says whether a code exists. */
  discountCode: { max: 10, timeWindow: minute },
  /** «Mi compra»: checking a one-time code (each code also dies after 5 wrong tries). */
  purchaseAccess: { max: 10, timeWindow: minute },
  /** The operator console's sign-in and enrolment steps (accounts also lock after repeated failures). */
  operatorSignIn: { max: 10, timeWindow: minute },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof defaultRateLimits;
export type RateLimits = Record<RateLimitName, RateLimit>;

/** The limits with every `max` multiplied by `factor` (RATE_LIMIT_FACTOR), at least 1. */
export function scaledRateLimits(factor: number): RateLimits {
  const entries = Object.entries(defaultRateLimits).map(([name, limit]) => [
    name,
    { ...limit, max: Math.max(1, Math.round(limit.max * factor)) },
  ]);
  return Object.fromEntries(entries) as RateLimits;
}

/** Whether a request's query string or JSON body names a non-blank `discountCode`. */
const carriesDiscountCode = (request: FastifyRequest) =>
  [request.query, request.body].some((source) => {
    const code = (source as { discountCode?: unknown } | null | undefined)?.discountCode;
    return typeof code === 'string' && code.trim() !== '';
  });

/**
 * The route config of the discount-code limit: counts only the requests that carry a code (plain plan searches, the
 * hot path, are never counted). Checked once the body is parsed and before it is validated, so a refused code counts
 * too.
 */
export const discountCodeRateLimit = (limits: RateLimits) => ({
  ...limits.discountCode,
  hook: 'preValidation' as const,
  allowList: (request: FastifyRequest) => !carriesDiscountCode(request),
});

type Log = { info(message: string): void; warn(message: string): void };

export type RateLimitStoreOptions = {
  /** REDIS_URL: the counters are kept there, shared by every instance; unset, in this process. */
  redisUrl: string | undefined;
  /** The prefix of every counter's key in Redis (REDIS_RATE_LIMIT_PREFIX). */
  keyPrefix: string;
  log: Log;
};

/**
 * Registers the limiter for the whole API without limiting anything by itself (`global: false`); an exceeded
 * limit is the spec §8 body with status 429 and a Retry-After header.
 */
export async function registerRateLimits(app: FastifyInstance, store: RateLimitStoreOptions): Promise<void> {
  const redis = store.redisUrl ? await sharedCounters(store.redisUrl, store.log) : undefined;
  if (redis) {
    app.addHook('onClose', async () => redis.disconnect());
    // A reachable Redis counts from the first request; an unreachable one does not hold the start-up.
    await connectedWithin(redis, 2_500);
  }
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: store.keyPrefix, skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError(context.statusCode === 403 ? 403 : 429, errorMessages.tooManyRequests),
  });
}

/**
 * The Redis connection the counters live on, made as every other Redis connection of the API. A command that
 * cannot be done within half a second (Redis down, cut off or frozen) fails, and the limiter lets the request
 * through (`skipOnError`): one warning when the connection is lost, one line when it is back.
 */
async function sharedCounters(url: string, log: Log): Promise<Redis> {
  const where = redactedRedisUrl(url);
  const client = await redisClient(url, { ...redisConnectionOptions, commandTimeout: 500 });
  let healthy = true;
  client.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    log.warn(
      `Redis at ${where} unreachable (${error.message}): rate limits are not enforced until it answers (requests are let through)`,
    );
  });
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    log.info(`Redis at ${where} answers again: rate limits are counted there again`);
  });
  client.connect().catch(() => {});
  return client;
}

function connectedWithin(client: Redis, waitMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, waitMs);
    timer.unref();
    function done() {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    }
    client.once('ready', done);
  });
}
