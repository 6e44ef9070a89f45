import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from "baileys";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { memoryCache } from "../../lib/memory-cache.js";
import { whatsappAuth } from "../../db/schema/index.js";

/** Which connection an auth state belongs to. */
export type AuthRef = { companyId: number; whatsappId: number };

export type DbAuthState = {
  state: AuthenticationState;
  /** Writes the creds row (Baileys mutates `state.creds` in place before `creds.update`). */
  saveCreds(): Promise<void>;
};

/** The creds row: type "creds" and an empty key id; every other row is a signal key. */
const CREDS_TYPE = "creds";
const CREDS_KEY = "";
/** Rows per INSERT, well below PostgreSQL's 65535 bind parameters (5 per row). */
const CHUNK = 500;

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);
const deserialize = <T>(text: string): T => JSON.parse(text, BufferJSON.reviver) as T;

function owned(ref: AuthRef) {
  return and(eq(whatsappAuth.companyId, ref.companyId), eq(whatsappAuth.whatsappId, ref.whatsappId));
}

/**
 * A Baileys `AuthenticationState` kept in PostgreSQL (table `whatsapp_auth`), one row per item, so
 * a restarted or moved session resumes without files. The model is Baileys' `useMultiFileAuthState`:
 * values are JSON written with `BufferJSON` so Buffers survive the round trip.
 */
export async function useDbAuthState(db: Db, ref: AuthRef): Promise<DbAuthState> {
  const [row] = await db
    .select({ value: whatsappAuth.value })
    .from(whatsappAuth)
    .where(and(owned(ref), eq(whatsappAuth.type, CREDS_TYPE), eq(whatsappAuth.keyId, CREDS_KEY)));
  const creds: AuthenticationCreds = row ? deserialize<AuthenticationCreds>(row.value) : initAuthCreds();

  const keys: SignalKeyStore = {
    // one query per type, whatever the number of ids
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const data: { [id: string]: SignalDataTypeMap[T] } = {};
      if (!ids.length) return data;
      const rows = await db
        .select({ keyId: whatsappAuth.keyId, value: whatsappAuth.value })
        .from(whatsappAuth)
        .where(and(owned(ref), eq(whatsappAuth.type, type), inArray(whatsappAuth.keyId, ids)));
      for (const r of rows) {
        let value = deserialize<unknown>(r.value);
        if (type === "app-state-sync-key" && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
        data[r.keyId] = value as SignalDataTypeMap[T];
      }
      return data;
    },
    // every change of one call in ONE transaction: a crash never leaves half a key exchange behind
    async set(data: SignalDataSet) {
      const upserts: (typeof whatsappAuth.$inferInsert)[] = [];
      const deletes = new Map<string, string[]>();
      const now = new Date();
      for (const type of Object.keys(data) as (keyof SignalDataSet)[]) {
        const entries = data[type];
        if (!entries) continue;
        for (const [keyId, value] of Object.entries(entries)) {
          if (value === null || value === undefined) {
            deletes.set(type, [...(deletes.get(type) ?? []), keyId]);
          } else {
            upserts.push({ ...ref, type, keyId, value: serialize(value), updatedAt: now });
          }
        }
      }
      if (!upserts.length && !deletes.size) return;
      await db.transaction(async (tx) => {
        for (let i = 0; i < upserts.length; i += CHUNK) {
          await tx
            .insert(whatsappAuth)
            .values(upserts.slice(i, i + CHUNK))
            .onConflictDoUpdate({
              target: [whatsappAuth.whatsappId, whatsappAuth.type, whatsappAuth.keyId],
              set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
            });
        }
        for (const [type, ids] of deletes) {
          await tx.delete(whatsappAuth).where(and(owned(ref), eq(whatsappAuth.type, type), inArray(whatsappAuth.keyId, ids)));
        }
      });
    },
    async clear() {
      await db.delete(whatsappAuth).where(and(owned(ref), ne(whatsappAuth.type, CREDS_TYPE)));
    },
  };

  return {
    state: { creds, keys },
    async saveCreds() {
      await db
        .insert(whatsappAuth)
        .values({ ...ref, type: CREDS_TYPE, keyId: CREDS_KEY, value: serialize(creds), updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [whatsappAuth.whatsappId, whatsappAuth.type, whatsappAuth.keyId],
          set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
        });
    },
  };
}

/** Forgets the link: every creds and key row of the connection (logged out, new QR). */
export async function clearAuthState(db: Db, ref: AuthRef): Promise<void> {
  await db.delete(whatsappAuth).where(owned(ref));
}

/** How long a signal key read from the table stays in memory (Baileys' own default). */
const KEY_CACHE_TTL_MS = 5 * 60_000;
/** Entries one cache holds at most (a busy link touches a few thousand sessions and pre-keys). */
const KEY_CACHE_MAX = 5_000;

/** The key store with a read cache in front: one per loaded auth state, shared by its sockets. */
export function cachedKeys(keys: SignalKeyStore, logger?: Parameters<typeof makeCacheableSignalKeyStore>[1]): SignalKeyStore {
  return makeCacheableSignalKeyStore(keys, logger, memoryCache(KEY_CACHE_TTL_MS, KEY_CACHE_MAX));
}
