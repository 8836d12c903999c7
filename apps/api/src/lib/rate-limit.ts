import fastifyRateLimit from '@fastify/rate-limit';
import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/**
 * Per-client limits for the calls anyone can make at no cost to themselves but at a cost to us or to a third
 * party: look-ups that reveal whether data exists (certificate search), forms that send e-mail (contact,
 * newsletter, certificate re-send, refunds). A route opts in with
 * `config: { rateLimit: app.config.rateLimits.<name> }`.
 *
 * Counts are kept in this process's memory: with several instances behind a balancer each counts its own share,
 * so the effective limit is at most instances × max. The client is `request.ip`, which honours X-Forwarded-For only
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
  /** Look-ups by a number and a document (refund tracking, certificate verification). */
  lookup: { max: 20, timeWindow: minute },
  /** «Mi compra»: checking a one-time code (each code also dies after 5 wrong tries). */
  purchaseAccess: { max: 10, timeWindow: minute },
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

/**
 * Registers the limiter for the whole API without limiting anything by itself (`global: false`); an exceeded
 * limit is the spec §8 body with status 429 and a Retry-After header.
 */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(context.statusCode === 403 ? 403 : 429, errorMessages.tooManyRequests),
  });
}
