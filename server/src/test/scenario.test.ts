import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsappQueues } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "./app.js";
import { caller } from "./http.js";
import { scenario } from "./scenario.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const me = async (s: { token: string }) => (await call(s, "GET", "/auth/me")).json();

describe("scenario", () => {
  it("builds the company's areas, connection and agents, each logged in as itself", async () => {
    const w = await scenario(t.app, {
      company: { timeZone: "America/Sao_Paulo" },
      queues: { sales: { name: "Ventas", offered: true }, support: "Soporte" },
      agents: {
        ana: { name: "Ana", queues: ["sales", "support"] },
        sub: { name: "Sub", profile: "subadmin" },
      },
    });
    expect(w.company.id).toBe(w.companyId);
    expect(w.connection).toMatchObject({ companyId: w.companyId, provider: "simulator", status: "CONNECTED", isDefault: true });
    expect([w.sales.name, w.support.name]).toEqual(["Ventas", "Soporte"]);
    const offered = await t.app.charla.db.select().from(whatsappQueues).where(eq(whatsappQueues.companyId, w.companyId));
    expect(offered.map((o) => [o.whatsappId, o.queueId])).toEqual([[w.connection.id, w.sales.id]]);

    expect(await me(w.admin)).toMatchObject({ id: w.company.admin.id, companyId: w.companyId, profile: "admin" });
    const ana = await me(w.as.ana);
    expect(ana).toMatchObject({ id: w.ana.id, name: "Ana", profile: "user", companyId: w.companyId });
    expect(ana.queues.map((q: { id: number }) => q.id).sort((a: number, b: number) => a - b)).toEqual([w.sales.id, w.support.id]);
    expect(await me(w.as.sub)).toMatchObject({ id: w.sub.id, profile: "subadmin", queues: [] });
  });

  it("makes tickets on the connection in the first area, each for a new contact of numbers of its own", async () => {
    const w = await scenario(t.app, { queues: { support: "Soporte", sales: "Ventas" } });
    const first = await w.ticket();
    const second = await w.ticket({ status: "open", queueId: w.sales.id }, { name: "Lucía" });
    expect(first).toMatchObject({ companyId: w.companyId, whatsappId: w.connection.id, queueId: w.support.id });
    expect(second).toMatchObject({ status: "open", queueId: w.sales.id });
    expect(second.contactId).not.toBe(first.contactId);
    const again = await w.ticket({ contactId: first.contactId, status: "closed" });
    expect(again.contactId).toBe(first.contactId);
    expect((await w.contact()).number).toBe("549110000003");
  });

  it("gives the connection the areas it asks for, and says what a scenario left out", async () => {
    const w = await scenario(t.app, {
      queues: { fallback: "Recepción" },
      connection: (q) => ({ sendIdQueue: q.fallback.id, isDefault: false }),
      agents: { eva: { login: false } },
    });
    expect(w.connection).toMatchObject({ sendIdQueue: w.fallback.id, isDefault: false });
    expect(() => w.as.eva).toThrow(/eva did not log in/);

    const bare = await scenario(t.app, { connection: false, login: false });
    expect(() => bare.connection).toThrow(/no connection/);
    expect(() => bare.admin).toThrow(/admin did not log in/);
    expect((await bare.ticket()).whatsappId).toBeNull();
  });
});
