import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsappLids } from "../../db/schema/index.js";
import type { AuthRef } from "./auth-state.js";

/** WhatsApp LIDs (the digits of `…@lid`) mapped to phone digits, as the session learns them. */
export type LidStore = {
  get(lid: string): Promise<string | null>;
  set(lid: string, number: string): Promise<void>;
};

const CACHE_MAX = 5000;

/** The `whatsapp_lids` rows of one connection, with a small memory cache in front. */
export function dbLidStore(db: Db, ref: AuthRef): LidStore {
  const cache = new Map<string, string>();
  const remember = (lid: string, number: string) => {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(lid, number);
  };
  return {
    async get(lid) {
      const cached = cache.get(lid);
      if (cached) return cached;
      const [row] = await db
        .select({ number: whatsappLids.number })
        .from(whatsappLids)
        .where(
          and(eq(whatsappLids.companyId, ref.companyId), eq(whatsappLids.whatsappId, ref.whatsappId), eq(whatsappLids.lid, lid)),
        );
      if (row) remember(lid, row.number);
      return row?.number ?? null;
    },
    async set(lid, number) {
      if (!lid || !number || cache.get(lid) === number) return;
      await db
        .insert(whatsappLids)
        .values({ ...ref, lid, number, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [whatsappLids.whatsappId, whatsappLids.lid],
          set: { number: sql`excluded.number`, updatedAt: sql`excluded.updated_at` },
        });
      remember(lid, number);
    },
  };
}

/** A store in memory only (tests, and a fallback when nothing must be written). */
export function memoryLidStore(initial: Record<string, string> = {}): LidStore & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return {
    entries,
    async get(lid) {
      return entries.get(lid) ?? null;
    },
    async set(lid, number) {
      entries.set(lid, number);
    },
  };
}
