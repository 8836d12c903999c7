import type { Redis, RedisOptions } from 'ioredis';

/**
 * The API's Redis clients, all made here: the read cache's invalidation publisher and subscriber
 * (lib/cache/cache-invalidation.ts) and the shared rate-limit counters (lib/http/rate-limit.ts). Redis is optional
 * (REDIS_URL); a store without it never loads ioredis.
 */

/** The Redis URL without its password, for log lines. */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}

/**
 * How every Redis connection of the API is made (read-cache invalidations, shared rate-limit counters): connected by
 * the caller, fails a command at once while disconnected instead of queuing it, and retries for as long as the
 * process lives.
 */
export const redisConnectionOptions: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 2_000,
  // A command while disconnected fails at once instead of waiting in a queue: the caller is told and falls back.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  // Retried for as long as the process lives, at most every 5 s.
  retryStrategy: (attempt) => Math.min(attempt * 250, 5_000),
};

/**
 * The Redis client class, loaded on first use: a store without REDIS_URL never loads ioredis (issue #10's memory).
 */
export async function redisClient(url: string, options: RedisOptions): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, options);
}
