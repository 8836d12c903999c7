/**
 * Maps used as least-recently-used stores (the read cache's answers, the kept pages, the remembered public answers,
 * the plan search URLs): a Map iterates in insertion order, so an entry put back at the end whenever it is used
 * leaves the least recently used one first, the one dropped when the map is over its bound.
 */

/** Puts `key` at the end of `map` (the most recently used) with `value`. */
export function touch<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
}

/** Drops the least recently used entries of `map` until it holds at most `max`. */
export function dropLeastRecentlyUsed<K, V>(map: Map<K, V>, max: number): void {
  for (const oldest of map.keys()) {
    if (map.size <= max) return;
    map.delete(oldest);
  }
}
