import type { SimulatorThreadItem } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { campaignCompany, listOf, newCampaign, runCampaigns } from "../../test/campaign-kit.js";
import { buildWhatsapp } from "../../test/factories.js";
import { caller } from "../../test/http.js";

// the campaign sweeps act on every company: a database of this file's own
let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());
const call = caller(() => t.app);

describe("#simulator campaign sends", () => {
  it("shows on the customer's phone what a campaign sent to it through the connection (issue 26)", async () => {
    const w = await campaignCompany(t);
    const customer = "5511987650001";
    const list = await listOf(t, w, [customer]);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const start = new Date(Date.now() + 60_000);
    // no connection of its own: it goes through the default one, the simulator
    const c = await newCampaign(t, w, {
      message1: "Hola {name}, 20% de descuento",
      contactListId: list.id,
      scheduledAt: start.toISOString(),
    });
    await runCampaigns(t, start);
    const report = (await call(w.session, "GET", `/campaigns/${c.id}/report`)).json();
    expect(report).toMatchObject({ delivered: 1 });

    const thread = (
      await call(w.session, "GET", `/simulator/${w.whatsappId}/messages?number=${customer}`)
    ).json() as SimulatorThreadItem[];
    expect(thread.map((m) => `${m.side}:${m.body}`)).toEqual([`agent:Hola Cliente ${customer}, 20% de descuento`]);
    expect(thread[0]).toMatchObject({ ack: 3, isDeleted: false, mediaUrl: null });
    expect(thread[0].id).toBeLessThan(0);

    // the customer answers: the phone shows both (ordered by time; the sweep's clock ran a minute ahead here)
    await call(w.session, "POST", `/simulator/${w.whatsappId}/inbound`, { number: customer, body: "¿Hasta cuándo?" });
    const after = (
      await call(w.session, "GET", `/simulator/${w.whatsappId}/messages?number=${customer}`)
    ).json() as SimulatorThreadItem[];
    expect(after.map((m) => m.side).sort()).toEqual(["agent", "customer"]);

    // another connection of the company, and another number, never show it
    const other = await buildWhatsapp(t.app, w.companyId, { provider: "simulator", status: "CONNECTED" });
    expect((await call(w.session, "GET", `/simulator/${other.id}/messages?number=${customer}`)).json()).toEqual([]);
    expect((await call(w.session, "GET", `/simulator/${w.whatsappId}/messages?number=5511987650002`)).json()).toEqual([]);
  });
});
