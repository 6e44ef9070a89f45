import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverNodes, sessionLeases } from "../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../test/app.js";
import { buildCompany, buildWhatsapp } from "../test/factories.js";
import { LeaseManager } from "./leases.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

// a provider of this test's own, so connections of other test files sharing the database stay out
const provider = `lease-test-${randomUUID().slice(0, 8)}`;
// a long life: with 400 ms, a busy machine's slow ticks let a's leases lapse before b's turn (b took
// all four); a's death is played by moving its times into the past instead of waiting
const timing = { renewMs: 50, ttlMs: 60_000 };

async function owners(ids: number[]) {
  const rows = await t.app.charla.db.select().from(sessionLeases).where(inArray(sessionLeases.whatsappId, ids));
  return new Map(rows.map((r) => [r.whatsappId, r.owner]));
}

describe("session leases", () => {
  it("spread the sessions over the live processes, one owner each, and move a dead process's sessions", async () => {
    const c = await buildCompany(t.app);
    const conns = await Promise.all(
      Array.from({ length: 4 }, () => buildWhatsapp(t.app, c.id, { provider, status: "CONNECTED" })),
    );
    const off = await buildWhatsapp(t.app, c.id, { provider, status: "DISCONNECTED" });
    const ids = conns.map((w) => w.id);
    const a = new LeaseManager(t.app.charla.db, () => [provider], timing);
    const b = new LeaseManager(t.app.charla.db, () => [provider], timing);

    // a alone takes everything wanted; b joins and a hands back its surplus
    expect((await a.tick()).held.map((h) => h.whatsappId).sort()).toEqual([...ids].sort());
    // a round reports the surplus; the caller stops those sessions and then lets their leases go
    await b.tick();
    for (const id of (await a.tick()).surplus) await a.release(id);
    await b.tick();
    const spread = await owners([...ids, off.id]);
    expect(spread.has(off.id)).toBe(false);
    expect([...spread.values()].filter((o) => o === a.nodeId)).toHaveLength(2);
    expect([...spread.values()].filter((o) => o === b.nodeId)).toHaveLength(2);

    // a connection switched off is not claimed on demand either
    expect(await a.claim(off.id)).toBe(false);

    // a dies (stops renewing): once its leases expire, b takes them all
    const lapsed = sql`now() - make_interval(secs => ${timing.ttlMs / 1000 + 1})`;
    await t.app.charla.db.update(sessionLeases).set({ expiresAt: lapsed }).where(eq(sessionLeases.owner, a.nodeId));
    await t.app.charla.db.update(serverNodes).set({ seenAt: lapsed }).where(eq(serverNodes.id, a.nodeId));
    await b.tick();
    await b.tick();
    const after = await owners(ids);
    expect([...after.values()].every((o) => o === b.nodeId)).toBe(true);
    expect(await a.claim(ids[0])).toBe(false);

    // a clean shutdown lets go at once
    await t.app.charla.db.delete(sessionLeases).where(eq(sessionLeases.owner, a.nodeId));
    await b.releaseAll();
    expect((await owners(ids)).size).toBe(0);
  });
});
