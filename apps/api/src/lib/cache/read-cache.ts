import { LRUCache } from 'lru-cache';
import type { Database } from '#app/db/client.ts';
import { signalCache } from '#app/observability/signals.ts';

/**
 * Catalogue reads (the company, its documents, modalities, passenger types, countries, contacts…) change only
 * when the catalogue is loaded, never because of a visitor, yet every page asked for them again. They are kept
 * here per database handle for a short while: the answer of the first request is shared by every request within
 * the handle's time to live, concurrent ones included (they await the same promise). A failed read is not kept.
 *
 * Each app makes its own cache (`createReadCache` with CATALOG_CACHE_TTL_MS: buildApp, worker-process.ts), decorates
 * itself with it (`app.readCache`) and hands the modules a database handle that carries it by name
 * (`databaseWithReadCache`: `db.readCache`), so two apps built in one process with different settings neither share
 * entries nor each other's time to live. With
 * several instances each keeps its own copy, so a catalogue change shows everywhere within the time to live, or at
 * once after the invalidation hook (lib/cache/cache-invalidation.ts: this process, and every instance when REDIS_URL is set).
 *
 * Keys start with what they hold and the company (`document:1:footer`, `modalities:1`, `products:1:2`…), so a
 * scope (a key prefix) clears a part of the cache; no scope clears all of it.
 */
export type ReadCache = {
  get<T>(key: string, load: () => PromiseLike<T>): Promise<T>;
  /**
   * Whole answers computed from catalogue reads (a plan search's JSON body), kept in a bounded least-recently-used
   * store for `answerTtlMs(ttl)`. The caller keys them by everything the answer depends on; an answer is kept only
   * once computed (a trip the catalogue refuses throws and is not kept), so visitors' made-up ids never become entries; the bound keeps any
   * number of distinct valid queries from growing memory past `maxAnswers` entries.
   */
  answer<T>(key: string, load: () => PromiseLike<T>): Promise<T>;
  /**
   * The answer kept under `key` if it is still within its lifetime, without computing anything: for a route that can
   * tell the key of a request before parsing it (the plan search by its URL), so a kept answer is sent at once.
   */
  keptAnswer<T>(key: string): T | undefined;
  /** How many answers are held now (at most `maxAnswers`). */
  answerCount(): number;
  /**
   * Forgets every entry, or those whose key starts with `scope`: the next read goes to the database. Answers are
   * derived from many catalogue entries, so any clear, scoped or not, forgets all of them.
   */
  clear(scope?: string): void;
  /**
   * Calls `listener` on every clear, after the entries are gone: what is derived from catalogue reads outside this
   * cache (the rendered pages of lib/cache/page-cache.ts) is dropped with them, by the same hook. Returns the unsubscribe.
   */
  onClear(listener: (scope: string | undefined) => void): () => void;
};

/** The most answers a cache holds: a plan search body is ~5–20 KB, so a few MB at most. */
export const maxAnswers = 256;

/**
 * An answer lives 5 s (or the catalogue's time to live, if shorter): it was computed from catalogue entries that
 * may already be near their own expiry, so a catalogue change shows within the time to live plus these 5 s.
 */
export const answerTtlMs = (ttlMs: number) => Math.min(ttlMs, 5_000);

type Entry = { expiresAt: number; value: Promise<unknown> };
type Answer = Entry & { settled: unknown };

/** A read cache whose catalogue entries live `ttlMs` (0 reads the database every time). */
export function createReadCache(ttlMs: number): ReadCache {
  const entries = new Map<string, Entry>();
  // Bounded, least recently used dropped first (lru-cache: a hit makes its entry the most recently used).
  const answers = new LRUCache<string, Answer>({ max: maxAnswers });
  const answerTtl = answerTtlMs(ttlMs);
  const clearListeners = new Set<(scope: string | undefined) => void>();
  let generation = 0;
  return {
    async answer<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
      const found = answers.get(key);
      const hit = found !== undefined && found.expiresAt > Date.now();
      signalCache('answer', hit);
      if (hit) return found.value as Promise<T>;
      if (found) answers.delete(key);
      const startedIn = generation;
      // Awaited before it is kept: a trip the catalogue refuses throws here and never becomes a key.
      const value = await load();
      // A clear during the computation may have dropped what it read: such an answer is served once, not kept.
      if (answerTtl > 0 && startedIn === generation) {
        answers.set(key, { expiresAt: Date.now() + answerTtl, value: Promise.resolve(value), settled: value });
      }
      return value;
    },
    keptAnswer<T>(key: string): T | undefined {
      const found = answers.get(key);
      const hit = found !== undefined && found.expiresAt > Date.now();
      signalCache('answer', hit);
      if (!hit) return undefined;
      return found.settled as T;
    },
    answerCount: () => answers.size,
    get<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
      const now = Date.now();
      const found = entries.get(key);
      const hit = found !== undefined && found.expiresAt > now;
      signalCache('catalogue', hit);
      if (hit) return found.value as Promise<T>;
      // A drizzle query is a lazy thenable that runs again each time it is awaited: adopt it once, as a promise.
      const value = Promise.resolve().then(load);
      if (ttlMs > 0) {
        const entry = { expiresAt: now + ttlMs, value };
        entries.set(key, entry);
        // Only this entry: a clear (and a newer read) may have replaced it meanwhile.
        value.catch(() => {
          if (entries.get(key) === entry) entries.delete(key);
        });
      }
      return value;
    },
    clear(scope?: string) {
      answers.clear();
      generation += 1;
      if (scope === undefined) entries.clear();
      else for (const key of entries.keys()) if (key.startsWith(scope)) entries.delete(key);
      for (const listener of clearListeners) listener(scope);
    },
    onClear(listener) {
      clearListeners.add(listener);
      return () => clearListeners.delete(listener);
    },
  };
}

/** A database handle that carries the read cache its catalogue reads go through. */
export type DatabaseWithReadCache = Database & { readonly readCache: ReadCache };

/**
 * A handle on the same connections as `db` that carries `cache` as `readCache`. It is `db` seen through a new object
 * (its prototype is `db`), so the services that receive it query, and open transactions, exactly as with `db`, while
 * `db` itself, which other apps may share, is left untouched.
 */
export function databaseWithReadCache(db: Database, cache: ReadCache): DatabaseWithReadCache {
  return Object.assign(Object.create(db) as Database, { readCache: cache });
}

/** Reads the database every time: the cache of a handle made without one (a script, a transaction, a test's service call). */
const noReadCache = createReadCache(0);

/** The read cache `db` carries (see `databaseWithReadCache`); none, for a handle made without one. */
export function readCache(db: Database): ReadCache {
  return 'readCache' in db ? (db as DatabaseWithReadCache).readCache : noReadCache;
}
