import { type CampaignReport, type CampaignView, Events } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignShippings, campaigns, companies, contacts, plans, ticketTags, tickets } from "../../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { campaignCompany, listOf, newCampaign, outboxOf, runCampaigns } from "../../test/campaign-kit.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildTag, buildUser, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";
import { startDueCampaigns } from "./lifecycle.js";
import { sendDueShippings } from "./sender.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `55119${String(70000001 + from + i)}`);
const shippingsOf = (campaignId: number) =>
  t.app.charla.db.select().from(campaignShippings).where(eq(campaignShippings.campaignId, campaignId));
const statusOf = async (id: number) => (await t.app.charla.db.select().from(campaigns).where(eq(campaigns.id, id)))[0].status;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe("campaigns: who may", () => {
  it("needs the plan flag useCampaigns and a staff profile, on every route", async () => {
    const off = await buildCompany(t.app, { plan: { useCampaigns: false } });
    const s = await login(t.app, off.admin);
    for (const [method, url] of [
      ["GET", "/campaigns"],
      ["POST", "/campaigns"],
      ["GET", "/campaign-settings"],
      ["POST", "/campaign-settings"],
      ["POST", "/campaigns/1/cancel"],
    ] as const) {
      expectError(await call(s, method, url, method === "POST" ? {} : undefined), 403, "ERR_NO_PERMISSION");
    }
    const w = await campaignCompany(t);
    const agent = await login(t.app, await buildUser(t.app, w.companyId, { profile: "user" }));
    expectError(await call(agent, "GET", "/campaigns"), 403, "ERR_NO_PERMISSION");
    const supervisor = await login(t.app, await buildUser(t.app, w.companyId, { profile: "supervisor" }));
    expect((await call(supervisor, "GET", "/campaigns")).statusCode).toBe(200);
  });

  it("another company's campaigns, lists, tags and connections answer 404 and change nothing", async () => {
    const a = await campaignCompany(t);
    const b = await campaignCompany(t);
    const list = await listOf(t, a, numbers(1));
    const c = await newCampaign(t, a, { message1: "Hola", contactListId: list.id });
    const form = { name: "Robada", message1: "x", contactListId: list.id };
    for (const [method, url, body] of [
      ["GET", `/campaigns/${c.id}`],
      ["GET", `/campaigns/${c.id}/report`],
      ["PUT", `/campaigns/${c.id}`, form],
      ["DELETE", `/campaigns/${c.id}`],
      ["POST", `/campaigns/${c.id}/cancel`],
      ["POST", `/campaigns/${c.id}/restart`],
      ["DELETE", `/campaigns/${c.id}/media-upload`],
      ["GET", `/campaigns/${c.id}/media`],
    ] as const) {
      const res = await call(b.session, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const upload = await as(t.app, b.session, {
      method: "POST",
      url: `/api/v1/campaigns/${c.id}/media-upload`,
      ...multipart("file", "a.txt", "text/plain", Buffer.from("hola")),
    });
    expect(upload.statusCode).toBe(404);
    // B's campaign may not point at A's list, tag or connection
    const tag = await buildTag(t.app, a.companyId, { name: `T ${uid()}` });
    const own = await listOf(t, b, numbers(1, 10));
    expectError(await call(b.session, "POST", "/campaigns", { ...form, name: "Mía" }), 404, "ERR_NO_CONTACT_LIST_FOUND");
    expectError(
      await call(b.session, "POST", "/campaigns", { ...form, contactListId: null, tagListId: tag.id }),
      404,
      "ERR_NO_TAG_FOUND",
    );
    expectError(
      await call(b.session, "POST", "/campaigns", { ...form, contactListId: own.id, whatsappId: a.whatsappId }),
      404,
      "ERR_NO_WAPP_FOUND",
    );
    const [row] = await t.app.charla.db.select().from(campaigns).where(eq(campaigns.id, c.id));
    expect(row.name).toBe(c.name);
    expect((await call(b.session, "GET", "/campaigns")).json().records).toEqual([]);
  });
});

describe("campaigns: the dialog's rules", () => {
  it("validates name 2–50, a message, an audience and a confirmation text when confirming", async () => {
    const w = await campaignCompany(t);
    const list = await listOf(t, w, numbers(1, 20));
    const issues = async (body: Record<string, unknown>) => {
      const res = await call(w.session, "POST", "/campaigns", body);
      expect(res.statusCode).toBe(400);
      // the first issue of each field, the one the dialog shows
      const first = new Map<string, string>();
      for (const i of res.json().issues as { path: string; message: string }[]) {
        const path = i.path.replace(/^body\./, "");
        if (!first.has(path)) first.set(path, i.message);
      }
      return Object.fromEntries(first);
    };
    const ok = { name: "Promo", message1: "Hola", contactListId: list.id };
    expect(await issues({ ...ok, name: "" })).toMatchObject({ name: "validation.required" });
    expect(await issues({ ...ok, name: "P" })).toMatchObject({ name: "validation.campaignShort" });
    expect(await issues({ ...ok, name: "P".repeat(51) })).toMatchObject({ name: "validation.campaignLong" });
    expect(await issues({ ...ok, message1: " " })).toMatchObject({ message1: "validation.required" });
    expect(await issues({ ...ok, contactListId: null })).toMatchObject({ contactListId: "validation.required" });
    expect(await issues({ ...ok, confirmation: true })).toMatchObject({ confirmationMessage1: "validation.required" });
    expect(await issues({ ...ok, scheduledAt: "mañana" })).toMatchObject({ scheduledAt: "validation.invalid" });
    for (const yearZero of ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00"]) {
      expect(await issues({ ...ok, scheduledAt: yearZero })).toMatchObject({ scheduledAt: "validation.invalid" });
    }
    expectError(await call(w.session, "POST", "/campaigns", { ...ok, fileListId: 2_000_000 }), 404, "ERR_NO_FILE_LIST_FOUND");
  });

  it("is a draft without scheduledAt and PROGRAMADA with it; editable only then, or more than 1 hour ahead", async () => {
    const w = await campaignCompany(t);
    const list = await listOf(t, w, numbers(1, 30));
    const base = { message1: "Hola {name}", contactListId: list.id };
    const draft = await newCampaign(t, w, base);
    expect(draft.status).toBe("INATIVA");
    expect(draft.contactList).toEqual({ id: list.id, name: list.name });
    const later = await call(w.session, "PUT", `/campaigns/${draft.id}`, { ...base, name: "Luego", scheduledAt: inHours(2) });
    expect(later.json()).toMatchObject({ status: "PROGRAMADA", name: "Luego" });
    const back = await call(w.session, "PUT", `/campaigns/${draft.id}`, { ...base, name: "Borrador", scheduledAt: "" });
    expect(back.json()).toMatchObject({ status: "INATIVA", scheduledAt: null });

    const soon = await newCampaign(t, w, { ...base, scheduledAt: inHours(0.5) });
    expect(soon.status).toBe("PROGRAMADA");
    expectError(
      await call(w.session, "PUT", `/campaigns/${soon.id}`, { ...base, name: "Cambio" }),
      409,
      "ERR_CAMPAIGN_NOT_EDITABLE",
    );
    // cancelled: its texts may still change, nothing else does
    expect((await call(w.session, "POST", `/campaigns/${soon.id}/cancel`)).json().status).toBe("CANCELADA");
    const edited = await call(w.session, "PUT", `/campaigns/${soon.id}`, {
      ...base,
      name: "Otro nombre",
      message2: "Nuevo texto",
      scheduledAt: inHours(5),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: soon.name, message2: "Nuevo texto", status: "CANCELADA" });
    expect(edited.json().scheduledAt).toBe(soon.scheduledAt);
  });

  it("settings: defaults 20/20/60, only the offered choices, custom variables without duplicate keys", async () => {
    const w = await campaignCompany(t);
    expect((await call(w.session, "GET", "/campaign-settings")).json()).toEqual({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [],
    });
    const bad = await call(w.session, "POST", "/campaign-settings", { messageInterval: 7, greaterInterval: 61 });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["body.greaterInterval", "body.messageInterval"]);
    const dup = await call(w.session, "POST", "/campaign-settings", {
      variables: [
        { key: "cupon", value: "A" },
        { key: "cupon", value: "B" },
      ],
    });
    expect(dup.json().issues).toEqual([{ path: "body.variables.1.key", message: "validation.duplicateKey" }]);
    const builtin = await call(w.session, "POST", "/campaign-settings", { variables: [{ key: "name", value: "x" }] });
    expect(builtin.statusCode).toBe(400);
    const saved = {
      messageInterval: 5,
      longerIntervalAfter: 10,
      greaterInterval: 120,
      variables: [{ key: "cupon", value: "DESC10" }],
    };
    expect((await call(w.session, "POST", "/campaign-settings", saved)).json()).toEqual(saved);
    expect((await call(w.session, "GET", "/campaign-settings")).json()).toEqual(saved);
    const other = await campaignCompany(t);
    expect((await call(other.session, "GET", "/campaign-settings")).json().messageInterval).toBe(20);
  });
});

describe("campaigns: sending", () => {
  it("starts at scheduledAt, sends each contact one filled message, fails numbers without WhatsApp, and ends FINALIZADA", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", {
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      variables: [{ key: "cupon", value: "DESC10" }],
    });
    const good = numbers(4, 40);
    const list = await listOf(t, w, [...good, "5511970000000"]);
    const sent = await outboxOf(t, w);
    const start = new Date(Date.now() + 60_000);
    const c = await newCampaign(t, w, {
      message1: "Hola {name}, tu cupón {cupon}",
      contactListId: list.id,
      scheduledAt: start.toISOString(),
    });
    const capture = listen();
    await runCampaigns(t, new Date(start.getTime() - 1000));
    expect(await statusOf(c.id)).toBe("PROGRAMADA");
    await runCampaigns(t, start);
    expect(sent.map((m) => m.to).sort()).toEqual(good.sort());
    for (const m of sent) expect(m.body).toBe(`Hola Cliente ${m.to}, tu cupón DESC10`);
    expect(await statusOf(c.id)).toBe("FINALIZADA");
    const rows = await shippingsOf(c.id);
    expect(rows.find((r) => r.number === "5511970000000")).toMatchObject({ status: "failed", error: "ERR_WAPP_INVALID_CONTACT" });
    for (const r of rows.filter((r) => r.status === "delivered"))
      expect(r.channelMessageId).toBe(sent.find((m) => m.to === r.number)?.id);
    const report = (await call(w.session, "GET", `/campaigns/${c.id}/report`)).json() as CampaignReport;
    expect(report).toMatchObject({ total: 5, delivered: 4, failed: 1, progress: 100, confirmationRequested: 0 });
    const live = capture.on(Events.campaign(w.companyId)) as { record: CampaignView }[];
    expect(live.at(-1)?.record.status).toBe("FINALIZADA");
    await runCampaigns(t, new Date(start.getTime() + 3_600_000));
    expect(sent).toHaveLength(4);
  });

  it("keeps the intervals, stops at once on cancel, and a restart goes on without sending anyone twice", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 10, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await listOf(t, w, numbers(6, 50));
    const sent = await outboxOf(t, w);
    const c = await newCampaign(t, w, { message1: "Hola", contactListId: list.id });
    // a draft never starts; a restart of a cancelled draft would, so schedule it now
    const now = new Date();
    await call(w.session, "PUT", `/campaigns/${c.id}`, {
      message1: "Hola",
      contactListId: list.id,
      name: c.name,
      scheduledAt: now.toISOString(),
    });
    await runCampaigns(t, now);
    const planned = (await shippingsOf(c.id)).map((r) => r.plannedAt.getTime()).sort();
    for (let i = 1; i < planned.length; i++) expect(planned[i] - planned[i - 1]).toBeLessThanOrEqual(10_000);
    // the first at once; the next ones 0 to 10 whole seconds apart, so one drawn 0 is due at once too
    const dueAtOnce = planned.filter((at) => at <= now.getTime()).length;
    expect(dueAtOnce).toBeGreaterThanOrEqual(1);
    expect(dueAtOnce).toBeLessThan(6);
    expect(sent).toHaveLength(dueAtOnce);
    expect((await call(w.session, "POST", `/campaigns/${c.id}/cancel`)).json().status).toBe("CANCELADA");
    await runCampaigns(t, new Date(now.getTime() + 3_600_000));
    expect(sent).toHaveLength(dueAtOnce);
    expectError(await call(w.session, "POST", `/campaigns/${c.id}/cancel`), 409, "ERR_CAMPAIGN_INVALID_TRANSITION");
    expectError(await call(w.session, "DELETE", `/campaigns/${c.id}/media-upload`), 409, "ERR_CAMPAIGN_NOT_EDITABLE");
    expect((await call(w.session, "POST", `/campaigns/${c.id}/restart`)).json().status).toBe("EM_ANDAMENTO");
    expectError(await call(w.session, "DELETE", `/campaigns/${c.id}`), 409, "ERR_CAMPAIGN_RUNNING");
    await runCampaigns(t, new Date(Date.now() + 2 * 3_600_000));
    expect(sent.map((m) => m.to).sort()).toEqual(numbers(6, 50).sort());
    expect(await statusOf(c.id)).toBe("FINALIZADA");
    expectError(await call(w.session, "POST", `/campaigns/${c.id}/restart`), 409, "ERR_CAMPAIGN_INVALID_TRANSITION");
    expect((await call(w.session, "DELETE", `/campaigns/${c.id}`)).statusCode).toBe(204);
    expect(await shippingsOf(c.id)).toEqual([]);
  });

  it("waits while its company is suspended, overdue or off a plan with campaigns, and goes on when it is back", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const three = numbers(3, 500);
    const list = await listOf(t, w, three);
    const sent = await outboxOf(t, w);
    const [company] = await t.app.charla.db.select().from(companies).where(eq(companies.id, w.companyId));
    const c = await newCampaign(t, w, { message1: "Hola", contactListId: list.id, scheduledAt: new Date().toISOString() });
    const later = (s: number) => new Date(Date.now() + s * 1000);

    // suspended before it starts: it does not start
    await t.app.charla.db.update(companies).set({ status: false }).where(eq(companies.id, w.companyId));
    await runCampaigns(t, later(1));
    expect(await statusOf(c.id)).toBe("PROGRAMADA");
    await t.app.charla.db.update(companies).set({ status: true }).where(eq(companies.id, w.companyId));
    // started, then overdue, then on a plan without campaigns: nothing goes
    expect(await startDueCampaigns(t.app.charla, later(2), 50)).toBe(1);
    expect(await statusOf(c.id)).toBe("EM_ANDAMENTO");
    await t.app.charla.db.update(companies).set({ dueDate: "2000-01-01" }).where(eq(companies.id, w.companyId));
    await runCampaigns(t, later(3));
    expect(sent).toHaveLength(0);
    await t.app.charla.db.update(companies).set({ dueDate: null }).where(eq(companies.id, w.companyId));
    await t.app.charla.db.update(plans).set({ useCampaigns: false }).where(eq(plans.id, company.planId));
    await runCampaigns(t, later(4));
    expect(sent).toHaveLength(0);
    expect(await statusOf(c.id)).toBe("EM_ANDAMENTO");
    expect((await shippingsOf(c.id)).map((r) => r.status)).toEqual(["pending", "pending", "pending"]);
    // back in good standing: the rest go, once each
    await t.app.charla.db.update(plans).set({ useCampaigns: true }).where(eq(plans.id, company.planId));
    await runCampaigns(t, later(5));
    expect(sent.map((m) => m.to).sort()).toEqual([...three].sort());
    expect(await statusOf(c.id)).toBe("FINALIZADA");
  });

  it("waits while its session is down, losing and failing nothing, and goes on when it is back", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await listOf(t, w, numbers(3, 60));
    const sent = await outboxOf(t, w);
    const driver = await t.app.charla.sessions.driverFor(w.companyId, w.whatsappId);
    await driver?.disconnect();
    const c = await newCampaign(t, w, { message1: "Hola", contactListId: list.id, scheduledAt: new Date().toISOString() });
    await runCampaigns(t);
    expect(sent).toEqual([]);
    const [row] = await t.app.charla.db.select().from(campaigns).where(eq(campaigns.id, c.id));
    expect(row).toMatchObject({ status: "EM_ANDAMENTO" });
    expect(row.pausedAt).not.toBeNull();
    expect((await shippingsOf(c.id)).map((r) => r.status)).toEqual(["pending", "pending", "pending"]);
    await driver?.connect();
    await runCampaigns(t, new Date(Date.now() + 1000));
    expect(sent.map((m) => m.to).sort()).toEqual(numbers(3, 60).sort());
    expect(await statusOf(c.id)).toBe("FINALIZADA");
  });

  it("a send cut off by a crash goes again under the same message id; two runners never send twice", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const many = numbers(120, 100);
    const list = await listOf(t, w, many);
    const sent = await outboxOf(t, w);
    const c = await newCampaign(t, w, { message1: "Hola", contactListId: list.id, scheduledAt: new Date().toISOString() });
    const now = new Date(Date.now() + 1000);
    await Promise.all([runCampaigns(t, now, 7), runCampaigns(t, now, 5), runCampaigns(t, now, 11)]);
    expect(sent.map((m) => m.to).sort()).toEqual(many.sort());
    expect(await statusOf(c.id)).toBe("FINALIZADA");

    // a node died after its send left and before it was recorded: the row still says "sending"
    const [one] = await shippingsOf(c.id);
    await t.app.charla.db
      .update(campaignShippings)
      .set({ status: "sending", claimedAt: new Date(Date.now() - 10 * 60_000), deliveredAt: null })
      .where(eq(campaignShippings.id, one.id));
    await t.app.charla.db.update(campaigns).set({ status: "EM_ANDAMENTO" }).where(eq(campaigns.id, c.id));
    await runCampaigns(t, new Date());
    const again = sent.filter((m) => m.to === one.number);
    expect(again).toHaveLength(2);
    expect(again[1].id).toBe(again[0].id);
    expect(await statusOf(c.id)).toBe("FINALIZADA");
  });

  it("a batch held up past the claim's lifetime: another node takes over what it has not begun, and it leaves those alone", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const four = numbers(4, 400);
    const list = await listOf(t, w, four);
    const sent = await outboxOf(t, w);
    const c = await newCampaign(t, w, { message1: "Hola", contactListId: list.id, scheduledAt: new Date().toISOString() });
    const at = new Date(Date.now() + 1000);
    await startDueCampaigns(t.app.charla, at, 50);
    // node A's first send hangs; node B comes by when A's claims look stale
    const driver = await t.app.charla.sessions.driverFor(w.companyId, w.whatsappId);
    if (!driver) throw new Error("no driver");
    const sendText = driver.sendText.bind(driver);
    let letGo = () => {};
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let first: string | null = null;
    driver.sendText = async (to, ...rest) => {
      if (first === null) {
        first = to;
        await held;
      }
      return sendText(to, ...rest);
    };
    try {
      const nodeA = sendDueShippings(t.app.charla, at, 50);
      await expect.poll(() => first).not.toBeNull();
      // B takes two: A's hung one and the next, which A has not begun
      await sendDueShippings(t.app.charla, new Date(at.getTime() + (t.config.campaignSendTtlSec + 60) * 1000), 2);
      letGo();
      await nodeA;
    } finally {
      driver.sendText = sendText;
    }
    // A's hung one went twice, as for a dead node: under the same message id, which WhatsApp shows
    // once. A left the one B took and sent the last two
    const perNumber = new Map<string, string[]>();
    for (const m of sent) perNumber.set(m.to, [...(perNumber.get(m.to) ?? []), m.id as string]);
    expect([...perNumber.keys()].sort()).toEqual([...four].sort());
    for (const [to, ids] of perNumber) {
      expect(ids.length, to).toBe(to === first ? 2 : 1);
      expect(new Set(ids).size).toBe(1);
    }
    expect(await statusOf(c.id)).toBe("FINALIZADA");
  });

  it("with confirmation: the confirmation goes first, the contact's reply while it runs confirms, then the message", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const [ana, bruno] = numbers(2, 300);
    const list = await listOf(t, w, [ana, bruno]);
    const sent = await outboxOf(t, w);
    const c = await newCampaign(t, w, {
      message1: "Tu pedido está listo, {name}",
      confirmation: true,
      confirmationMessage1: "¿Quieres recibir novedades? Responde a este mensaje",
      contactListId: list.id,
      scheduledAt: new Date().toISOString(),
    });
    await runCampaigns(t, new Date(Date.now() + 1000));
    expect(sent.map((m) => [m.to, m.body]).sort()).toEqual(
      [
        [ana, "¿Quieres recibir novedades? Responde a este mensaje"],
        [bruno, "¿Quieres recibir novedades? Responde a este mensaje"],
      ].sort(),
    );
    expect(await statusOf(c.id)).toBe("EM_ANDAMENTO");
    // a stranger's message confirms nothing; Ana's reply confirms hers
    const say = (number: string, body: string) =>
      call(w.session, "POST", `/simulator/${w.whatsappId}/inbound`, { number, name: "X", body });
    await say("5511955554444", "hola");
    await say(ana, "sí");
    await runCampaigns(t, new Date(Date.now() + 2000));
    expect(sent.filter((m) => m.to === ana).map((m) => m.body)).toEqual([
      "¿Quieres recibir novedades? Responde a este mensaje",
      `Tu pedido está listo, Cliente ${ana}`,
    ]);
    expect(sent.filter((m) => m.to === bruno)).toHaveLength(1);
    const report = (await call(w.session, "GET", `/campaigns/${c.id}/report`)).json() as CampaignReport;
    expect(report).toMatchObject({ total: 2, confirmationRequested: 2, confirmed: 1, delivered: 1, failed: 0, progress: 50 });
    // once cancelled, Bruno's reply confirms nothing
    await call(w.session, "POST", `/campaigns/${c.id}/cancel`);
    await say(bruno, "sí");
    const [b] = (await shippingsOf(c.id)).filter((r) => r.number === bruno);
    expect(b.confirmedAt).toBeNull();
  });

  it("sends the campaign's file with the text as caption; the file is served only to its company", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await listOf(t, w, numbers(1, 400));
    const sent = await outboxOf(t, w);
    const c = await newCampaign(t, w, { message1: "Mira esto", contactListId: list.id });
    const up = await as(t.app, w.session, {
      method: "POST",
      url: `/api/v1/campaigns/${c.id}/media-upload`,
      ...multipart("file", "catalogo.pdf", "application/pdf", Buffer.from("%PDF-1.4 catálogo")),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ mediaName: "catalogo.pdf", mediaUrl: `/api/v1/campaigns/${c.id}/media` });
    const file = await as(t.app, w.session, { method: "GET", url: `/api/v1/campaigns/${c.id}/media` });
    expect(file.body).toContain("catálogo");
    await call(w.session, "PUT", `/campaigns/${c.id}`, {
      name: c.name,
      message1: "Mira esto",
      contactListId: list.id,
      scheduledAt: new Date().toISOString(),
    });
    await runCampaigns(t, new Date(Date.now() + 1000));
    expect(sent).toEqual([expect.objectContaining({ kind: "media", body: "Mira esto" })]);
  });

  it("a tag's campaign goes to every contact with a ticket bearing it", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const tag = await buildTag(t.app, w.companyId, { name: `VIP ${uid()}` });
    const [vip, other] = numbers(2, 500);
    for (const number of [vip, other]) {
      await call(w.session, "POST", `/simulator/${w.whatsappId}/inbound`, { number, name: "Cliente", body: "hola" });
    }
    const [ticket] = await t.app.charla.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(contacts.companyId, w.companyId), eq(contacts.number, vip)));
    await t.app.charla.db.insert(ticketTags).values({ companyId: w.companyId, ticketId: ticket.id, tagId: tag.id });
    const sent = await outboxOf(t, w);
    await newCampaign(t, w, { message1: "Solo VIP", tagListId: tag.id, scheduledAt: new Date().toISOString() });
    await runCampaigns(t, new Date(Date.now() + 1000));
    expect(sent.filter((m) => m.body === "Solo VIP").map((m) => m.to)).toEqual([vip]);
  });
});
