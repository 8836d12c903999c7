import type { Database } from '#app/db/client.ts';

/**
 * Catalogue reads (the company, its documents, modalities, passenger types, countries, contacts…) change only
 * when the catalogue is loaded, never because of a visitor, yet every page asked for them again. They are kept
 * here per database handle for a short while: the answer of the first request is shared by every request within
 * `ttlMs`, concurrent ones included (they await the same promise). A failed read is not kept.
 *
 * With several instances each keeps its own copy, so a catalogue change shows everywhere within `ttlMs`.
 */
export type ReadCache = {
  get<T>(key: string, load: () => PromiseLike<T>): Promise<T>;
  clear(): void;
};

type Entry = { expiresAt: number; value: Promise<unknown> };

const caches = new WeakMap<Database, ReadCache>();
let ttlMs = 60_000;

/** How long a catalogue read is kept (CATALOG_CACHE_TTL_MS); 0 reads the database every time. */
export function setCatalogCacheTtl(milliseconds: number) {
  ttlMs = milliseconds;
}

export function readCache(db: Database): ReadCache {
  let cache = caches.get(db);
  if (!cache) {
    const entries = new Map<string, Entry>();
    cache = {
      get<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
        const now = Date.now();
        const found = entries.get(key);
        if (found && found.expiresAt > now) return found.value as Promise<T>;
        // A drizzle query is a lazy thenable that runs again each time it is awaited: adopt it once, as a promise.
        const value = Promise.resolve().then(load);
        if (ttlMs > 0) {
          entries.set(key, { expiresAt: now + ttlMs, value });
          value.catch(() => entries.delete(key));
        }
        return value;
      },
      clear: () => entries.clear(),
    };
    caches.set(db, cache);
  }
  return cache;
}
