import { randomUUID } from 'node:crypto';
import { redactedRedisUrl, redisClient, redisConnectionOptions } from '#app/lib/redis.ts';
import type { ReadCache } from './read-cache.ts';

/**
 * The read cache's explicit invalidation hook (issue #10). `invalidate()` clears this process's catalogue cache at
 * once; when REDIS_URL is set it also publishes a message on REDIS_CHANNEL that every instance subscribed to it
 * (web processes and workers) answers by clearing its own. Without REDIS_URL nothing talks to Redis.
 *
 * Redis is a help, never a requirement: unreachable at start-up, the process starts anyway with a warning and keeps
 * trying in the background; a connection that drops later is logged, retried, and until it is back every instance
 * still drops each entry after CATALOG_CACHE_TTL_MS. Messages published while an instance was cut off are lost, so
 * an instance clears its whole cache each time its subscription comes back.
 */
export type CacheInvalidation = {
  /** Clears `scope` (a key prefix; all when omitted) here and, with Redis, on every instance. */
  invalidate(scope?: string): Promise<{ broadcast: boolean }>;
  /** Resolves true once subscribed (always false without Redis), false if that did not happen within `waitMs`. */
  subscribed(waitMs: number): Promise<boolean>;
  close(): Promise<void>;
};

type Log = { info(message: string): void; warn(message: string): void };

export type CacheInvalidationOptions = {
  /** The cache cleared here, and on every message from another instance. */
  readCache: ReadCache;
  redis: { url: string | undefined; channel: string };
  log: Log;
};

type Message = { from: string; scope: string | null };

const parseMessage = (text: string): Message | undefined => {
  try {
    const value = JSON.parse(text) as Partial<Message>;
    if (typeof value.from !== 'string') return undefined;
    return { from: value.from, scope: typeof value.scope === 'string' ? value.scope : null };
  } catch {
    return undefined;
  }
};

export async function createCacheInvalidation({
  readCache,
  redis,
  log,
}: CacheInvalidationOptions): Promise<CacheInvalidation> {
  const clearHere = (scope?: string | null) => readCache.clear(scope ?? undefined);
  if (!redis.url) {
    return {
      async invalidate(scope) {
        clearHere(scope);
        return { broadcast: false };
      },
      subscribed: async () => false,
      close: async () => {},
    };
  }

  const where = redactedRedisUrl(redis.url);
  const instance = randomUUID();
  const subscriber = await redisClient(redis.url, redisConnectionOptions);
  const publisher = await redisClient(redis.url, redisConnectionOptions);

  // One warning per lost connection, one line when it is back (ioredis repeats its error on every retry).
  let healthy = true;
  const onError = (error: Error) => {
    if (!healthy) return;
    healthy = false;
    log.warn(
      `Redis at ${where} unreachable (${error.message}): read-cache invalidations from other instances are not heard until it answers; cached entries still expire after CATALOG_CACHE_TTL_MS`,
    );
  };
  subscriber.on('error', onError);
  // The publisher's errors surface where a publish fails (invalidate answers broadcast: false).
  publisher.on('error', () => {});

  let everSubscribed = false;
  let announceSubscribed: (value: boolean) => void = () => {};
  const firstSubscription = new Promise<boolean>((resolve) => {
    announceSubscribed = resolve;
  });
  const subscribe = async () => {
    try {
      await subscriber.subscribe(redis.channel);
    } catch (error) {
      onError(error as Error);
      return;
    }
    if (everSubscribed) {
      // Messages sent while this instance was away were lost: start again from the database.
      clearHere();
      log.info(`Redis at ${where} answers again: read cache cleared, invalidations heard again`);
    }
    everSubscribed = true;
    healthy = true;
    announceSubscribed(true);
  };
  subscriber.on('ready', () => void subscribe());
  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== redis.channel) return;
    const message = parseMessage(text);
    // Our own message: already cleared here, before it was published.
    if (!message || message.from === instance) return;
    clearHere(message.scope);
  });
  subscriber.connect().catch(onError);
  publisher.connect().catch(() => {});

  return {
    async invalidate(scope) {
      clearHere(scope);
      try {
        await publisher.publish(redis.channel, JSON.stringify({ from: instance, scope: scope ?? null }));
        return { broadcast: true };
      } catch (error) {
        log.warn(
          `Read-cache invalidation not sent to the other instances (Redis at ${where}: ${(error as Error).message}); they catch up within CATALOG_CACHE_TTL_MS`,
        );
        return { broadcast: false };
      }
    },
    subscribed: (waitMs) =>
      Promise.race([firstSubscription, new Promise<boolean>((resolve) => setTimeout(resolve, waitMs, false).unref())]),
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
