import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionLeases } from "../../db/schema/index.js";
import { channelInbox } from "../../pipeline/channel-inbox.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { cloudConnection } from "../../test/cloud-kit.js";
import { buildCompany } from "../../test/factories.js";
import { type FakeGraph, startFakeGraph } from "../../test/fake-graph.js";
import { Sessions } from "../sessions.js";

let t: TestApp;
let fake: FakeGraph;
beforeAll(async () => {
  fake = await startFakeGraph();
  t = await getTestApp({ graphApiUrl: fake.baseUrl });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const leasesOf = (whatsappId: number) =>
  t.app.charla.db.select().from(sessionLeases).where(eq(sessionLeases.whatsappId, whatsappId));

describe("Cloud API connections and the session registry", () => {
  it("every process builds its own driver on first use, with no lease taken", async () => {
    const c = await buildCompany(t.app);
    const wa = await cloudConnection(t.app, c.id, fake);
    // two processes' registries on one database
    const one = new Sessions(t.app.charla, channelInbox(t.app.charla), { providers: () => ["cloud"] });
    const two = new Sessions(t.app.charla, channelInbox(t.app.charla), { providers: () => ["cloud"] });
    try {
      const a = await one.driverFor(c.id, wa.id);
      const b = await two.driverFor(c.id, wa.id);
      expect(a?.provider).toBe("cloud");
      expect(b?.provider).toBe("cloud");
      expect(a).not.toBe(b);
      expect(await leasesOf(wa.id)).toEqual([]);
      // both send, each by itself
      const from = fake.sent().length;
      await a?.sendText("5491122334455", "desde uno");
      await b?.sendText("5491122334455", "desde dos");
      expect(
        fake
          .sent()
          .slice(from)
          .map((s) => s.text?.body),
      ).toEqual(["desde uno", "desde dos"]);
      // another company's id finds nothing
      const other = await buildCompany(t.app);
      expect(await one.driverFor(other.id, wa.id)).toBeNull();
    } finally {
      await one.stopAll();
      await two.stopAll();
    }
  });

  it("lease rounds neither claim a Cloud API connection nor stop its driver", async () => {
    const c = await buildCompany(t.app);
    const wa = await cloudConnection(t.app, c.id, fake);
    const sessions = new Sessions(t.app.charla, channelInbox(t.app.charla), {
      providers: () => ["cloud"],
      timing: { renewMs: 20, ttlMs: 1_000 },
    });
    let rounds = 0;
    const tick = sessions.leases.tick.bind(sessions.leases);
    sessions.leases.tick = async () => {
      const result = await tick();
      rounds++;
      return result;
    };
    try {
      const driver = await sessions.driverFor(c.id, wa.id);
      expect(await sessions.resumeAll()).toBe(0);
      await expect.poll(() => rounds, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
      expect(sessions.runningDriver(c.id, wa.id)).toBe(driver);
      expect(await leasesOf(wa.id)).toEqual([]);
    } finally {
      await sessions.stopAll();
    }
  });

  it("a Disconnect on one process refuses the sends of every other's driver; Retry probes and connects again", async () => {
    const c = await buildCompany(t.app);
    const wa = await cloudConnection(t.app, c.id, fake);
    const one = new Sessions(t.app.charla, channelInbox(t.app.charla), { providers: () => ["cloud"] });
    const two = new Sessions(t.app.charla, channelInbox(t.app.charla), { providers: () => ["cloud"] });
    try {
      const elsewhere = await two.driverFor(c.id, wa.id);
      await one.logout(c.id, wa.id);
      await expect(elsewhere?.sendText("5491122334455", "hola")).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
      const before = fake.requests.length;
      const again = await one.restart(c.id, wa.id);
      expect(again?.provider).toBe("cloud");
      // the probe of the retry
      expect(fake.requests.slice(before).map((r) => r.path)).toEqual([`/v21.0/${fake.phoneNumberId}`]);
      expect((await elsewhere?.sendText("5491122334455", "hola"))?.channelId).toMatch(/^wamid\./);
    } finally {
      await one.stopAll();
      await two.stopAll();
    }
  });
});
