/**
 * A bounded map whose entries expire: least recently used first out when full, expired ones on read
 * and as new ones come. No timer (Baileys' default cache runs one per instance), so a driver that
 * reconnects many times leaves nothing running behind. Its shape is Baileys' CacheStore.
 */
export type MemoryCache = {
  readonly size: number;
  get<T>(key: string): T | undefined;
  set<T>(key: string, value: T): void;
  del(key: string): void;
  flushAll(): void;
};

export function memoryCache(ttlMs: number, maxEntries: number): MemoryCache {
  // a Map iterates in insertion order: re-inserting on use keeps the least recently used first
  const entries = new Map<string, { value: unknown; until: number }>();
  return {
    get size() {
      return entries.size;
    },
    get<T>(key: string): T | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.until < Date.now()) return undefined;
      entries.set(key, hit);
      return hit.value as T;
    },
    set<T>(key: string, value: T) {
      const now = Date.now();
      entries.delete(key);
      entries.set(key, { value, until: now + ttlMs });
      // keys never read again would stay for good: the oldest go once the cache is full
      for (const [k, e] of entries) {
        if (entries.size <= maxEntries && e.until >= now) break;
        entries.delete(k);
      }
    },
    del(key: string) {
      entries.delete(key);
    },
    flushAll() {
      entries.clear();
    },
  };
}
