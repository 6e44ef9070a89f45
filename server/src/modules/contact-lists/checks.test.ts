import { type ContactListItemEvent, type ContactListView, Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, contactListItems, plans } from "../../db/schema/index.js";
import { contactListChecks } from "../../jobs/contact-list-checks.js";
import { runSweeps } from "../../jobs/runner.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { botCompany } from "../../test/chatbot-kit.js";
import { eventListener } from "../../test/events.js";
import { caller, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);
const check = () => runSweeps(t.app.charla, { sweeps: [contactListChecks] });

async function listWith(status: string, numbers: string[]) {
  const w = await botCompany(t, { status }, { plan: { useCampaigns: true } });
  const list = (await call(w.session, "POST", "/contact-lists", { name: `Lista ${uid()}` })).json() as ContactListView;
  for (const number of numbers) {
    const res = await call(w.session, "POST", "/contact-list-items", { contactListId: list.id, name: `N ${number}`, number });
    expect(res.statusCode, res.body).toBe(201);
  }
  return { w, list };
}
const flags = async (listId: number) =>
  Object.fromEntries(
    (await t.app.charla.db.select().from(contactListItems).where(eq(contactListItems.contactListId, listId))).map((r) => [
      r.number,
      r.isWhatsappValid,
    ]),
  );

/** Counts the numbers the connection's driver is asked about. */
async function askedOf(w: Awaited<ReturnType<typeof listWith>>["w"]) {
  const driver = await t.app.charla.sessions.driverFor(w.companyId, w.whatsappId);
  if (!driver) throw new Error("no driver");
  const asked: string[] = [];
  const original = driver.checkNumber.bind(driver);
  driver.checkNumber = (n) => {
    asked.push(n);
    return original(n);
  };
  return asked;
}

describe("contact lists: the WhatsApp check in the background", () => {
  it("asks the company's connection about each number once and flags it valid or invalid, live", async () => {
    const { w, list } = await listWith("CONNECTED", ["5511911112222", "5511911110000", "5491133334444"]);
    const asked = await askedOf(w);
    const capture = listen();
    await check();
    expect(await flags(list.id)).toEqual({ "5511911112222": true, "5511911110000": false, "5491133334444": true });
    const live = capture.on(Events.contactListItemsOf(w.companyId, list.id)) as ContactListItemEvent[];
    expect(live.map((e) => e.action === "update" && [e.record.number, e.record.isWhatsappValid]).sort()).toEqual(
      [
        ["5491133334444", true],
        ["5511911110000", false],
        ["5511911112222", true],
      ].sort(),
    );
    await check();
    expect(asked.sort()).toEqual(["5491133334444", "5511911110000", "5511911112222"]);
  });

  it("waits while the company has no connected connection, and a changed number is asked again", async () => {
    const { w, list } = await listWith("DISCONNECTED", ["5511922223333"]);
    await check();
    expect(await flags(list.id)).toEqual({ "5511922223333": null });
    const [row] = await t.app.charla.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id));
    expect(row.checkClaimedAt).toBeNull();

    const on = await listWith("CONNECTED", ["5511933334444"]);
    await check();
    expect(await flags(on.list.id)).toEqual({ "5511933334444": true });
    const [item] = await t.app.charla.db.select().from(contactListItems).where(eq(contactListItems.contactListId, on.list.id));
    await call(on.w.session, "PUT", `/contact-list-items/${item.id}`, { name: "Otra", number: "5511933330000" });
    expect(await flags(on.list.id)).toEqual({ "5511933330000": null });
    await check();
    expect(await flags(on.list.id)).toEqual({ "5511933330000": false });
    expect(w.companyId).not.toBe(on.w.companyId);
  });

  it("waits while the company is suspended or its plan has no campaigns", async () => {
    const { w, list } = await listWith("CONNECTED", ["5511955556666"]);
    const [company] = await t.app.charla.db.select().from(companies).where(eq(companies.id, w.companyId));
    await t.app.charla.db.update(companies).set({ status: false }).where(eq(companies.id, w.companyId));
    await check();
    expect(await flags(list.id)).toEqual({ "5511955556666": null });
    await t.app.charla.db.update(companies).set({ status: true }).where(eq(companies.id, w.companyId));
    await t.app.charla.db.update(plans).set({ useCampaigns: false }).where(eq(plans.id, company.planId));
    await check();
    expect(await flags(list.id)).toEqual({ "5511955556666": null });
    await t.app.charla.db.update(plans).set({ useCampaigns: true }).where(eq(plans.id, company.planId));
    await check();
    expect(await flags(list.id)).toEqual({ "5511955556666": true });
  });

  it("two runners at once ask about each number once", async () => {
    const numbers = Array.from({ length: 60 }, (_, i) => `55119${String(40000001 + i)}`);
    const { w, list } = await listWith("CONNECTED", numbers);
    const asked = await askedOf(w);
    await Promise.all([
      runSweeps(t.app.charla, { sweeps: [contactListChecks], batchSize: 7 }),
      runSweeps(t.app.charla, { sweeps: [contactListChecks], batchSize: 5 }),
    ]);
    expect(Object.values(await flags(list.id)).every((v) => v === true)).toBe(true);
    expect(asked.filter((n) => numbers.includes(n)).sort()).toEqual(numbers.sort());
  });
});
