import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ack, CloudLimits } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignShippings, contacts, messages, schedules, type whatsapps } from "../../db/schema/index.js";
import { scheduleSends } from "../../jobs/schedules.js";
import { runSweeps } from "../../jobs/runner.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { runCampaigns } from "../../test/campaign-kit.js";
import { cloudConnection } from "../../test/cloud-kit.js";
import { type FakeGraph, graphTemplate, startFakeGraph } from "../../test/fake-graph.js";
import { buildTicket, buildWhatsapp } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { confirmByReply } from "../campaigns/confirmations.js";
import { deliverQueued, recordAutomatic } from "../messages/send.js";
import { openWindow } from "./window.js";

// the schedule and campaign sweeps serve every company: a database of this file's own
let t: TestApp;
let fake: FakeGraph;
beforeAll(async () => {
  fake = await startFakeGraph();
  t = await getIsolatedTestApp({ graphApiUrl: fake.baseUrl });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const call = caller(() => t.app);
const db = () => t.app.charla.db;
const HOUR = 3_600_000;
const rowsOf = (ticketId: number) => db().select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(messages.id);
/** What the fake Graph API received from here on. */
const sends = () => {
  const from = fake.sent().length;
  return () => fake.sent().slice(from);
};

const FALLBACK = {
  cloudTemplateName: "seguimiento",
  cloudTemplateLanguage: "es",
  cloudTemplateParams: ["{{firstName}}", "{{protocol}}"],
};

/** A company whose default connection is a Cloud API one, an agent, and a customer's open ticket of theirs. */
async function cloudWorld(over: Partial<typeof whatsapps.$inferInsert> = {}, plan: Record<string, boolean> = {}) {
  const w = await scenario(t.app, { connection: false, agents: { agent: {} }, company: { plan } });
  const wa = await cloudConnection(t.app, w.companyId, fake, { isDefault: true, ...over });
  const contact = await w.contact({ name: "Ana María", number: `5511${String(Date.now() % 1e9).padStart(9, "0")}` });
  const ticket = await buildTicket(t.app, w.companyId, {
    contactId: contact.id,
    whatsappId: wa.id,
    status: "open",
    userId: w.agent.id,
  });
  return { ...w, wa, contact, ticket };
}
type World = Awaited<ReturnType<typeof cloudWorld>>;
const customerWrote = (w: World, hoursAgo: number, number = w.contact.number) =>
  openWindow(db(), w.companyId, w.wa.id, number, new Date(Date.now() - hoursAgo * HOUR));

describe("GET /tickets/:id/window", () => {
  it("tells whether the customer may get free text, and until when", async () => {
    const w = await cloudWorld();
    const window = () => call(w.as.agent, "GET", `/tickets/${w.ticket.id}/window`);
    expect((await window()).json()).toEqual({ applies: true, open: false, closesAt: null });
    const wrote = new Date(Date.now() - 2 * HOUR);
    await openWindow(db(), w.companyId, w.wa.id, w.contact.number, wrote);
    expect((await window()).json()).toEqual({
      applies: true,
      open: true,
      closesAt: new Date(wrote.getTime() + CloudLimits.windowMs).toISOString(),
    });
    // a webhook processed late never moves the window back
    await customerWrote(w, 30);
    expect((await window()).json().closesAt).toBe(new Date(wrote.getTime() + CloudLimits.windowMs).toISOString());
    // 25 hours after the customer's last message: closed
    const w2 = await cloudWorld();
    await customerWrote(w2, 25);
    expect((await call(w2.as.agent, "GET", `/tickets/${w2.ticket.id}/window`)).json()).toMatchObject({
      applies: true,
      open: false,
    });
  });

  it("does not apply to other channels, and another company's ticket is not found", async () => {
    const w = await cloudWorld();
    const web = await buildWhatsapp(t.app, w.companyId, { provider: "simulator", status: "CONNECTED" });
    const ticket = await buildTicket(t.app, w.companyId, { contactId: w.contact.id, whatsappId: web.id, status: "open" });
    expect((await call(w.admin, "GET", `/tickets/${ticket.id}/window`)).json()).toEqual({
      applies: false,
      open: true,
      closesAt: null,
    });
    const other = await scenario(t.app, { connection: false });
    expectError(await call(other.admin, "GET", `/tickets/${w.ticket.id}/window`), 404, "ERR_NO_TICKET_FOUND");
  });
});

describe("agents' answers", () => {
  it("are refused outside the window before anything is recorded or sent, and go as text inside it", async () => {
    const w = await cloudWorld();
    const sent = sends();
    expectError(
      await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "¿Sigue ahí?" }),
      409,
      "ERR_CLOUD_WINDOW_CLOSED",
    );
    await customerWrote(w, 26);
    expectError(
      await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "¿Sigue ahí?" }),
      409,
      "ERR_CLOUD_WINDOW_CLOSED",
    );
    expect(await rowsOf(w.ticket.id)).toEqual([]);
    expect(sent()).toEqual([]);

    await customerWrote(w, 1);
    const ok = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Claro, dígame" });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(sent()).toEqual([
      expect.objectContaining({ to: w.contact.number, type: "text", text: { body: "Claro, dígame", preview_url: false } }),
    ]);
    expect(await rowsOf(w.ticket.id)).toEqual([expect.objectContaining({ body: "Claro, dígame", ackError: null })]);
  });

  it("longer than Meta takes (4,096 characters) are refused with the limit before anything is recorded", async () => {
    const w = await cloudWorld();
    await customerWrote(w, 1);
    const sent = sends();
    const long = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "a".repeat(CloudLimits.textMax + 1) });
    expectError(long, 400, "ERR_CLOUD_TEXT_TOO_LONG");
    expect(long.json().message).toContain("4096");
    expect(await rowsOf(w.ticket.id)).toEqual([]);
    const most = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "ñ".repeat(CloudLimits.textMax) });
    expect(most.statusCode, most.body).toBe(201);
    expect(sent()).toHaveLength(1);
  });

  it("with a file are refused outside the window, and the upload is not kept", async () => {
    const w = await cloudWorld();
    const boundary = `----c${uid()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nLa factura\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="f.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from("%PDF-1.4 factura"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/messages/${w.ticket.id}`,
      payload,
      headers: { authorization: `Bearer ${w.as.agent.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expectError(res, 409, "ERR_CLOUD_WINDOW_CLOSED");
    expect(await rowsOf(w.ticket.id)).toEqual([]);
    // the company's store holds no file: the upload went with the refusal
    const media = join(t.config.dataDir, "files", `company${w.companyId}`, "media");
    expect(existsSync(media) ? readdirSync(media) : []).toEqual([]);
  });
});

describe("the external API", () => {
  it("refuses free text outside the window with its code, recording no contact, ticket or message", async () => {
    const w = await cloudWorld({}, { useExternalApi: true });
    const token = (await call(w.admin, "GET", `/whatsapp/${w.wa.id}/api-token`)).json().apiToken as string;
    const number = `5521${String(Date.now() % 1e9).padStart(9, "0")}`;
    const send = (body = "Hola {{firstName}}") =>
      t.app.inject({
        method: "POST",
        url: "/api/messages/send",
        payload: { number, body },
        headers: { authorization: `Bearer ${token}` },
      });
    const sent = sends();
    expectError(await send(), 409, "ERR_CLOUD_WINDOW_CLOSED");
    const known = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, w.companyId), eq(contacts.number, number)));
    expect(known).toEqual([]);
    expect(sent()).toEqual([]);

    await openWindow(db(), w.companyId, w.wa.id, number, new Date(Date.now() - HOUR));
    // longer than Meta takes: refused with the limit, still nothing recorded
    expectError(await send("a".repeat(CloudLimits.textMax + 1)), 400, "ERR_CLOUD_TEXT_TOO_LONG");
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, w.companyId), eq(contacts.number, number))),
    ).toEqual([]);
    const ok = await send();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(sent()).toEqual([expect.objectContaining({ to: number, type: "text" })]);
  });
});

describe("automatic messages", () => {
  async function deliver(w: World, bodies: string[]) {
    const rows = await recordAutomatic(db(), w.companyId, w.ticket, bodies);
    await deliverQueued(
      t.app.charla,
      w.companyId,
      rows.map((r) => r.id),
      { lastAttempt: false },
    );
    return rowsOf(w.ticket.id);
  }

  it("fail visibly outside the window when the connection has no fallback template", async () => {
    const w = await cloudWorld();
    const sent = sends();
    const rows = await deliver(w, ["Gracias por escribirnos"]);
    expect(rows).toEqual([
      expect.objectContaining({ body: "Gracias por escribirnos", ack: Ack.failed, ackError: "ERR_CLOUD_WINDOW_CLOSED" }),
    ]);
    expect(sent()).toEqual([]);
  });

  it("go as the connection's template outside the window, its variables filled and its text recorded; once a run", async () => {
    const w = await cloudWorld(FALLBACK);
    await customerWrote(w, 30);
    const sent = sends();
    const rows = await deliver(w, ["Su atención fue cerrada", "¿Cómo calificaría la atención?"]);
    const out = sent();
    expect(out).toHaveLength(1);
    const [param1, param2] = (out[0].template as { components: { parameters: { text: string }[] }[] }).components[0].parameters;
    expect(out[0]).toMatchObject({
      to: w.contact.number,
      type: "template",
      template: { name: "seguimiento", language: { code: "es" } },
    });
    expect(param1.text).toBe("Ana");
    expect(param2.text).toMatch(new RegExp(`^\\d{8}${w.ticket.id}$`));
    expect(rows[0]).toMatchObject({
      body: `Hola Ana, seguimos con tu consulta ${param2.text}.`,
      isAutomatic: true,
      ackError: null,
    });
    expect(rows[0].ack).toBeGreaterThanOrEqual(Ack.pending);
    expect(rows[0].channelId).toBe(out[0].answeredId);
    // a second template in the same breath would say the same again: the rest fails, visibly
    expect(rows[1]).toMatchObject({
      body: "¿Cómo calificaría la atención?",
      ack: Ack.failed,
      ackError: "ERR_CLOUD_WINDOW_CLOSED",
    });
  });

  it("fail with the reason when the fallback template is not an approved one", async () => {
    const w = await cloudWorld({ ...FALLBACK, cloudTemplateName: "no_existe" });
    const sent = sends();
    const rows = await deliver(w, ["Hola"]);
    expect(rows).toEqual([expect.objectContaining({ ack: Ack.failed, ackError: "ERR_CLOUD_TEMPLATE_NOT_FOUND" })]);
    expect(sent().filter((s) => s.type)).toEqual([]);
  });

  it("go as free text inside the window, template or not", async () => {
    const w = await cloudWorld(FALLBACK);
    await customerWrote(w, 23);
    const sent = sends();
    const rows = await deliver(w, ["Hola, ¿en qué le ayudo?"]);
    expect(sent()).toEqual([
      expect.objectContaining({ type: "text", text: { body: "Hola, ¿en qué le ayudo?", preview_url: false } }),
    ]);
    expect(rows[0]).toMatchObject({ body: "Hola, ¿en qué le ayudo?", ackError: null });
  });
});

describe("automatic messages when Meta limits the connection's sends", () => {
  it("stay queued, in order, for the job's next attempt, which sends them; the last attempt fails them visibly", async () => {
    const w = await cloudWorld();
    await customerWrote(w, 1);
    const rows = await recordAutomatic(db(), w.companyId, w.ticket, ["Primero", "Segundo"]);
    const ids = rows.map((r) => r.id);
    const sent = sends();
    fake.failNext(400, { code: 131048, message: "Spam rate limit hit" });
    await expect(deliverQueued(t.app.charla, w.companyId, ids, { lastAttempt: false })).rejects.toThrow("ERR_CLOUD_RATE_LIMITED");
    expect((await rowsOf(w.ticket.id)).map((r) => [r.body, r.ack])).toEqual([
      ["Primero", Ack.queued],
      ["Segundo", Ack.queued],
    ]);
    expect(sent()).toEqual([]);
    // the job's next run: both go, in order
    await deliverQueued(t.app.charla, w.companyId, ids, { lastAttempt: false });
    expect(sent().map((m) => (m.text as { body: string }).body)).toEqual(["Primero", "Segundo"]);
    for (const row of await rowsOf(w.ticket.id)) expect(row.ack).toBeGreaterThanOrEqual(Ack.pending);

    const [last] = await recordAutomatic(db(), w.companyId, w.ticket, ["Tercero"]);
    fake.failNext(400, { code: 131048, message: "Spam rate limit hit" });
    await deliverQueued(t.app.charla, w.companyId, [last.id], { lastAttempt: true });
    expect((await rowsOf(w.ticket.id)).at(-1)).toMatchObject({
      body: "Tercero",
      ack: Ack.failed,
      ackError: "ERR_CLOUD_RATE_LIMITED",
    });
  });
});

describe("an agent's change that sends an automatic message", () => {
  it("closing a ticket a day later sends its completion message as the connection's template", async () => {
    const w = await cloudWorld({ ...FALLBACK, complationMessage: "Gracias por su contacto" });
    await customerWrote(w, 27);
    const sent = sends();
    const res = await call(w.as.agent, "PUT", `/tickets/${w.ticket.id}`, { status: "closed" });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.charla.events.idle();
    await expect.poll(async () => (await rowsOf(w.ticket.id))[0]?.ack ?? Ack.queued).toBeGreaterThanOrEqual(Ack.pending);
    const [row] = await rowsOf(w.ticket.id);
    expect(row).toMatchObject({ isAutomatic: true, body: expect.stringMatching(/^Hola Ana, seguimos con tu consulta \d+\.$/) });
    expect(sent()).toEqual([expect.objectContaining({ to: w.contact.number, type: "template" })]);
  });
});

describe("schedules", () => {
  const sweep = () => runSweeps(t.app.charla, { sweeps: [scheduleSends], now: () => new Date() });
  async function due(w: World) {
    const [row] = await db()
      .insert(schedules)
      .values({
        companyId: w.companyId,
        contactId: w.contact.id,
        whatsappId: w.wa.id,
        body: "Hola {{firstName}}, su cita es mañana",
        sendAt: new Date(Date.now() - 1000),
        userId: w.agent.id,
      })
      .returning();
    await sweep();
    const [after] = await db().select().from(schedules).where(eq(schedules.id, row.id));
    return after;
  }

  it("fail with ERR_CLOUD_WINDOW_CLOSED outside the window without a template, their message failed too", async () => {
    const w = await cloudWorld();
    const sent = sends();
    const after = await due(w);
    expect(after).toMatchObject({ status: "ERRO", error: "ERR_CLOUD_WINDOW_CLOSED" });
    expect(sent()).toEqual([]);
    const [message] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, after.messageId as number));
    expect(message).toMatchObject({ ack: Ack.failed, ackError: "ERR_CLOUD_WINDOW_CLOSED" });
  });

  it("go as the connection's template outside the window", async () => {
    const w = await cloudWorld(FALLBACK);
    const sent = sends();
    const after = await due(w);
    expect(after).toMatchObject({ status: "ENVIADA", error: null });
    expect(sent()).toEqual([
      expect.objectContaining({ type: "template", template: expect.objectContaining({ name: "seguimiento" }) }),
    ]);
    const [message] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, after.messageId as number));
    expect(message.body).toMatch(/^Hola Ana, seguimos con tu consulta \d+\.$/);
  });

  it("go as written inside the window", async () => {
    const w = await cloudWorld(FALLBACK);
    await customerWrote(w, 2);
    const sent = sends();
    const after = await due(w);
    expect(after.status).toBe("ENVIADA");
    expect(sent()).toEqual([
      expect.objectContaining({ type: "text", text: { body: "Hola Ana, su cita es mañana", preview_url: false } }),
    ]);
  });
});

describe("campaigns", () => {
  async function campaignOf(w: World, numbers: string[], over: Record<string, unknown> = {}) {
    await call(w.admin, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = (await call(w.admin, "POST", "/contact-lists", { name: `Lista ${uid()}` })).json();
    for (const number of numbers)
      expect(
        (await call(w.admin, "POST", "/contact-list-items", { contactListId: list.id, name: `Cliente ${number}`, number }))
          .statusCode,
      ).toBe(201);
    const res = await call(w.admin, "POST", "/campaigns", {
      name: `Campaña ${uid()}`,
      message1: "Hola {name}, 20% de descuento",
      contactListId: list.id,
      scheduledAt: new Date().toISOString(),
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    await runCampaigns(t, new Date(Date.now() + 1000));
    await runCampaigns(t, new Date(Date.now() + 2000));
    return db().select().from(campaignShippings).where(eq(campaignShippings.campaignId, id)).orderBy(campaignShippings.number);
  }
  const numbers = () => [0, 1].map((i) => `5531${String((Date.now() + i) % 1e9).padStart(9, "0")}`);

  it("send free text to customers inside the window and fail the rest visibly without a template", async () => {
    const w = await cloudWorld({}, { useCampaigns: true });
    const [inside, outside] = numbers();
    await customerWrote(w, 3, inside);
    const sent = sends();
    const rows = await campaignOf(w, [inside, outside]);
    expect(rows.find((r) => r.number === inside)).toMatchObject({
      status: "delivered",
      message: `Hola Cliente ${inside}, 20% de descuento`,
    });
    expect(rows.find((r) => r.number === outside)).toMatchObject({ status: "failed", error: "ERR_CLOUD_WINDOW_CLOSED" });
    expect(sent()).toEqual([expect.objectContaining({ to: inside, type: "text" })]);
  });

  it("send the connection's template to customers outside the window, filled with the list's values", async () => {
    const w = await cloudWorld({ ...FALLBACK, cloudTemplateParams: ["{name}", "{{firstName}}"] }, { useCampaigns: true });
    const [outside] = numbers();
    const sent = sends();
    const rows = await campaignOf(w, [outside]);
    expect(rows[0]).toMatchObject({
      status: "delivered",
      message: `Hola Cliente ${outside}, seguimos con tu consulta Cliente.`,
      channelMessageId: sent()[0]?.answeredId,
    });
    expect(sent()).toEqual([
      expect.objectContaining({
        to: outside,
        type: "template",
        template: graphTemplate("seguimiento", "es", [`Cliente ${outside}`, "Cliente"]),
      }),
    ]);
  });

  it("ask the confirmation as the template outside the window", async () => {
    const w = await cloudWorld(FALLBACK, { useCampaigns: true });
    const [outside] = numbers();
    const sent = sends();
    const rows = await campaignOf(w, [outside], { confirmation: true, confirmationMessage1: "¿Quiere recibir la oferta?" });
    expect(rows[0]).toMatchObject({
      status: "awaiting",
      confirmationMessage: expect.stringMatching(/^Hola Cliente, seguimos con tu consulta \d{8}\.$/),
    });
    expect(sent()).toEqual([expect.objectContaining({ type: "template" })]);

    // the customer answers: the window opens and the campaign's own message goes as text
    await customerWrote(w, 0, outside);
    expect(await confirmByReply(t.app.charla, w.companyId, w.wa.id, outside)).toBe(1);
    await runCampaigns(t, new Date(Date.now() + 3000));
    const [after] = await db().select().from(campaignShippings).where(eq(campaignShippings.id, rows[0].id));
    expect(after).toMatchObject({ status: "delivered", message: `Hola Cliente ${outside}, 20% de descuento` });
    expect(sent().at(-1)).toMatchObject({
      to: outside,
      type: "text",
      text: { body: `Hola Cliente ${outside}, 20% de descuento` },
    });
  });
});
