import { Curve, proto, type SignalDataTypeMap } from "baileys";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database, Db } from "../../db/client.js";
import { whatsappAuth, whatsappLids } from "../../db/schema/index.js";
import { openTestDatabase } from "../../test/app.js";
import { buildCompany, buildWhatsapp } from "../../test/factories.js";
import { memoryCache } from "../../lib/memory-cache.js";
import { cachedKeys, clearAuthState, useDbAuthState } from "./auth-state.js";
import { dbLidStore } from "./lid-store.js";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** The factories only need `app.charla.db`: a company and a "beta" connection on a bare database. */
async function buildConnection(db: Db) {
  const app = { charla: { db } } as unknown as FastifyInstance;
  const company = await buildCompany(app);
  const wa = await buildWhatsapp(app, company.id, { provider: "beta" });
  return { companyId: company.id, whatsappId: wa.id };
}

const rowsOf = async (whatsappId: number) =>
  database.db.select().from(whatsappAuth).where(eq(whatsappAuth.whatsappId, whatsappId));

describe("#baileys auth state", () => {
  it("should start with fresh creds and restore saved ones, Buffers intact", async () => {
    const ref = await buildConnection(database.db);
    const first = await useDbAuthState(database.db, ref);
    expect(first.state.creds.registered).toBe(false);
    first.state.creds.me = { id: "5215500000001:7@s.whatsapp.net", name: "Charla" };
    first.state.creds.registered = true;
    await first.saveCreds();
    // saving again updates the one creds row
    first.state.creds.nextPreKeyId = 31;
    await first.saveCreds();

    const restored = await useDbAuthState(database.db, ref);
    const c = restored.state.creds;
    expect(c.me).toEqual({ id: "5215500000001:7@s.whatsapp.net", name: "Charla" });
    expect(c.registered).toBe(true);
    expect(c.nextPreKeyId).toBe(31);
    expect(c.registrationId).toBe(first.state.creds.registrationId);
    expect(c.advSecretKey).toBe(first.state.creds.advSecretKey);
    expect(Buffer.isBuffer(c.noiseKey.private)).toBe(true);
    expect(Buffer.from(c.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).toBe(true);
    expect(Buffer.from(c.signedPreKey.signature).equals(Buffer.from(first.state.creds.signedPreKey.signature))).toBe(true);
    expect((await rowsOf(ref.whatsappId)).filter((r) => r.type === "creds")).toHaveLength(1);
  });

  it("should store signal keys in one transaction, read one query per type, and delete on null", async () => {
    const ref = await buildConnection(database.db);
    const { state } = await useDbAuthState(database.db, ref);
    const preKey1 = Curve.generateKeyPair();
    const preKey2 = Curve.generateKeyPair();
    const session = new Uint8Array([1, 2, 3, 250]);
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: Buffer.from("sync-key-data"),
      fingerprint: { rawId: 7, currentIndex: 1 },
      timestamp: 1_700_000_000,
    });

    const transaction = vi.spyOn(database.db, "transaction");
    await state.keys.set({
      "pre-key": { "1": preKey1, "2": preKey2 },
      session: { "5215511112222.0": session },
      "app-state-sync-key": { AAAAAA: syncKey },
      "sender-key-memory": { "120363000000000001@g.us": { "5215511112222:0@s.whatsapp.net": true } },
    });
    expect(transaction).toHaveBeenCalledTimes(1);
    transaction.mockRestore();

    // a new instance (a restart) reads the same values back
    const { state: again } = await useDbAuthState(database.db, ref);
    const select = vi.spyOn(database.db, "select");
    const preKeys = await again.keys.get("pre-key", ["1", "2", "3"]);
    expect(select).toHaveBeenCalledTimes(1);
    select.mockRestore();
    expect(Object.keys(preKeys).sort()).toEqual(["1", "2"]);
    expect(Buffer.isBuffer(preKeys["1"].private)).toBe(true);
    expect(Buffer.from(preKeys["1"].public).equals(Buffer.from(preKey1.public))).toBe(true);
    expect(Buffer.from(preKeys["2"].private).equals(Buffer.from(preKey2.private))).toBe(true);

    const sessions = await again.keys.get("session", ["5215511112222.0"]);
    expect(Buffer.from(sessions["5215511112222.0"]).equals(Buffer.from(session))).toBe(true);

    const sync = (await again.keys.get("app-state-sync-key", ["AAAAAA"])).AAAAAA as SignalDataTypeMap["app-state-sync-key"];
    expect(sync).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.keyData!).toString()).toBe("sync-key-data");
    expect(sync.fingerprint?.rawId).toBe(7);

    const memory = await again.keys.get("sender-key-memory", ["120363000000000001@g.us"]);
    expect(memory["120363000000000001@g.us"]).toEqual({ "5215511112222:0@s.whatsapp.net": true });

    // an update overwrites, a null deletes, in the same call
    const replaced = Curve.generateKeyPair();
    await again.keys.set({ "pre-key": { "1": null, "2": replaced } });
    const after = await again.keys.get("pre-key", ["1", "2"]);
    expect(after["1"]).toBeUndefined();
    expect(Buffer.from(after["2"].public).equals(Buffer.from(replaced.public))).toBe(true);
  });

  it("should clear every row of the connection and nothing of another", async () => {
    const ref = await buildConnection(database.db);
    const other = await buildConnection(database.db);
    for (const r of [ref, other]) {
      const auth = await useDbAuthState(database.db, r);
      await auth.saveCreds();
      await auth.state.keys.set({ session: { a: new Uint8Array([1]) } });
    }
    expect(await rowsOf(ref.whatsappId)).toHaveLength(2);

    await clearAuthState(database.db, ref);
    expect(await rowsOf(ref.whatsappId)).toHaveLength(0);
    expect(await rowsOf(other.whatsappId)).toHaveLength(2);

    // after clearing, a new instance pairs from scratch
    const fresh = await useDbAuthState(database.db, ref);
    expect(fresh.state.creds.registered).toBe(false);
    expect(await fresh.state.keys.get("session", ["a"])).toEqual({});
  });

  it("should keep one connection's keys out of another's reads", async () => {
    const a = await buildConnection(database.db);
    const b = await buildConnection(database.db);
    await (await useDbAuthState(database.db, a)).state.keys.set({ session: { shared: new Uint8Array([9]) } });
    expect(await (await useDbAuthState(database.db, b)).state.keys.get("session", ["shared"])).toEqual({});
  });
});

describe("#baileys key cache", () => {
  it("should expire entries on read, with no timer left running", async () => {
    const cache = memoryCache(20, 100);
    cache.set("a", 1);
    expect(cache.get("a")).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(cache.get("a")).toBeUndefined();
  });

  it("should hold a bounded number of entries, dropping the least recently used and the expired first", async () => {
    const cache = memoryCache(1_000, 3);
    for (const k of ["a", "b", "c"]) cache.set(k, k);
    expect(cache.get("a")).toBe("a"); // a is now the most recent
    cache.set("d", "d");
    expect(cache.get("b")).toBeUndefined();
    expect(["a", "c", "d"].map((k) => cache.get(k))).toEqual(["a", "c", "d"]);
    const short = memoryCache(10, 100);
    for (let i = 0; i < 50; i++) short.set(`old-${i}`, i);
    await new Promise((r) => setTimeout(r, 20));
    expect(short.size).toBe(50);
    short.set("new", 1);
    // the expired ones left when something new came in, without being read
    expect(short.size).toBe(1);
    expect(short.get("new")).toBe(1);
    const full = memoryCache(60_000, 10);
    for (let i = 0; i < 1_000; i++) full.set(`k-${i}`, i);
    expect(full.size).toBe(10);
  });

  it("should serve repeated reads from memory and write through", async () => {
    const ref = await buildConnection(database.db);
    const { state } = await useDbAuthState(database.db, ref);
    const keys = cachedKeys(state.keys);
    await keys.set({ session: { s1: new Uint8Array([4, 2]) } });
    const select = vi.spyOn(database.db, "select");
    expect(Buffer.from((await keys.get("session", ["s1"])).s1).equals(Buffer.from([4, 2]))).toBe(true);
    expect(select).not.toHaveBeenCalled();
    select.mockRestore();
    // written through to the table
    expect(Object.keys(await state.keys.get("session", ["s1"]))).toEqual(["s1"]);
  });
});

describe("#baileys lid store", () => {
  it("should remember a LID's number per connection and update it", async () => {
    const ref = await buildConnection(database.db);
    const other = await buildConnection(database.db);
    const lids = dbLidStore(database.db, ref);
    expect(await lids.get("111222333")).toBeNull();
    await lids.set("111222333", "5215511112222");
    expect(await lids.get("111222333")).toBe("5215511112222");
    // a new store (a restart) reads it from the table
    expect(await dbLidStore(database.db, ref).get("111222333")).toBe("5215511112222");
    expect(await dbLidStore(database.db, other).get("111222333")).toBeNull();
    await dbLidStore(database.db, ref).set("111222333", "5215599998888");
    const [row] = await database.db
      .select()
      .from(whatsappLids)
      .where(and(eq(whatsappLids.whatsappId, ref.whatsappId), eq(whatsappLids.lid, "111222333")));
    expect(row.number).toBe("5215599998888");
  });
});
