import { Ack, Events, type ScheduleView } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outgoingMessageId } from "../../channels/driver.js";
import { messages, schedules, tickets } from "../../db/schema/index.js";
import { runSweeps } from "../../jobs/runner.js";
import { scheduleSends } from "../../jobs/schedules.js";
import { SESSION_WAIT_MAX_MS } from "./sender.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { outboxOf } from "../../test/campaign-kit.js";
import { type BotCompany, botCompany } from "../../test/chatbot-kit.js";
import { eventListener } from "../../test/events.js";
import { as, buildContact, buildWhatsapp } from "../../test/factories.js";
import { multipart } from "../../test/multipart.js";
import { caller, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const call = caller(() => t.app);
const listen = eventListener(() => t.app);

// the sweep serves every company: other files' schedules share the database, so a test judges its own
// company's rows and outbox, never the sweep's total
const sweep = (now = new Date()) => runSweeps(t.app.charla, { sweeps: [scheduleSends], now: () => now });
const db = () => t.app.charla.db;
const rowOf = async (id: number) => (await db().select().from(schedules).where(eq(schedules.id, id)))[0];

async function setup() {
  const w = await botCompany(t, { isDefault: true });
  const contact = await buildContact(t.app, w.companyId, { name: `Ana María ${uid()}`, number: `5511${Date.now() % 1e9}` });
  return { w, contact, sent: await outboxOf(t, w) };
}
/** A schedule written as if made before a downtime: its time already past. */
async function overdue(w: BotCompany, contactId: number, over: Partial<typeof schedules.$inferInsert> = {}) {
  const [row] = await db()
    .insert(schedules)
    .values({
      companyId: w.companyId,
      contactId,
      body: "Hola {{firstName}}, su cita es mañana",
      sendAt: new Date(Date.now() - 3_600_000),
      userId: w.session.userId,
      timezone: "America/Noronha",
      ...over,
    })
    .returning();
  return row;
}

describe("schedule sends", () => {
  it("sends an overdue schedule once, late, through a ticket opened for its author (the company's conversation)", async () => {
    const { w, contact, sent } = await setup();
    const events = listen();
    const row = await overdue(w, contact.id);
    await sweep();
    await sweep();
    expect(sent).toEqual([expect.objectContaining({ to: contact.number, body: `Hola Ana, su cita es mañana` })]);
    const after = await rowOf(row.id);
    expect(after).toMatchObject({ status: "ENVIADA", late: true, error: null, lockedUntil: null });
    expect(after.sentAt).toBeInstanceOf(Date);
    const [message] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, after.messageId as number));
    expect(message).toMatchObject({ fromMe: true, userId: w.session.userId, ticketId: after.ticketId, channelId: sent[0].id });
    expect(message.ack).toBeGreaterThan(Ack.queued);
    const [ticket] = await db()
      .select()
      .from(tickets)
      .where(eq(tickets.id, after.ticketId as number));
    // the author's conversation: the customer's answer reaches them, not the bot (docs/ticket-lifecycle.md)
    expect(ticket).toMatchObject({
      contactId: contact.id,
      whatsappId: w.whatsappId,
      status: "open",
      userId: w.session.userId,
      startedByCompany: true,
    });
    const changes = events.on(Events.schedule(w.companyId)) as { record: ScheduleView }[];
    expect(changes.at(-1)?.record).toMatchObject({ id: row.id, status: "ENVIADA", late: true });
  });

  it("sends a schedule due now once when two sweeps run at once", async () => {
    const { w, contact, sent } = await setup();
    const row = await overdue(w, contact.id, { sendAt: new Date(Date.now() - 1000) });
    await Promise.all([sweep(), sweep(), sweep()]);
    expect(sent).toHaveLength(1);
    expect(await rowOf(row.id)).toMatchObject({ status: "ENVIADA", late: false });
  });

  it("leaves a future or cancelled schedule alone", async () => {
    const { w, contact, sent } = await setup();
    await overdue(w, contact.id, { sendAt: new Date(Date.now() + 60_000) });
    const cancelled = await overdue(w, contact.id, { status: "CANCELADA" });
    await sweep();
    expect(sent).toEqual([]);
    expect((await rowOf(cancelled.id)).status).toBe("CANCELADA");
  });

  it("after a crash between record and send, sends the recorded message once, under its id, recording nothing new", async () => {
    const { w, contact, sent } = await setup();
    const first = await overdue(w, contact.id);
    // the dead node's work: claimed, ticket opened and message recorded, never handed to the driver
    const [ticket] = await db()
      .insert(tickets)
      .values({ companyId: w.companyId, contactId: contact.id, whatsappId: w.whatsappId, status: "pending" })
      .returning();
    const channelId = outgoingMessageId();
    const [recorded] = await db()
      .insert(messages)
      .values({
        companyId: w.companyId,
        ticketId: ticket.id,
        contactId: contact.id,
        whatsappId: w.whatsappId,
        channelId,
        body: "Hola Ana",
        fromMe: true,
        ack: Ack.queued,
        clientId: `schedule-${first.id}`,
      })
      .returning();
    await db()
      .update(schedules)
      .set({ status: "ENVIANDO", lockedUntil: new Date(Date.now() - 1000), messageId: recorded.id, ticketId: ticket.id })
      .where(eq(schedules.id, first.id));
    await sweep();
    expect(sent).toEqual([expect.objectContaining({ id: channelId, body: "Hola Ana" })]);
    const all = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(all).toHaveLength(1);
    expect(await rowOf(first.id)).toMatchObject({ status: "ENVIADA", messageId: recorded.id });
  });

  it("does not take over a send whose node still holds its lease", async () => {
    const { w, contact, sent } = await setup();
    const row = await overdue(w, contact.id, { status: "ENVIANDO", lockedUntil: new Date(Date.now() + 60_000) });
    await sweep();
    expect(sent).toEqual([]);
    expect((await rowOf(row.id)).status).toBe("ENVIANDO");
  });

  it("marks ERRO with the reason when the contact has no number to send to", async () => {
    const { w } = await setup();
    const nobody = await buildContact(t.app, w.companyId, { name: "Sin número", number: "" });
    const row = await overdue(w, nobody.id);
    await sweep();
    const view = (await call(w.session, "GET", `/schedules/${row.id}`)).json();
    expect(view).toMatchObject({ status: "ERRO", error: "ERR_WAPP_INVALID_CONTACT" });
  });

  it("waits, still PENDENTE and changeable, while its connection has no session", async () => {
    const { w, contact, sent } = await setup();
    const down = await buildWhatsapp(t.app, w.companyId, { name: `Caída ${uid()}` });
    const row = await overdue(w, contact.id, { whatsappId: down.id });
    await sweep();
    expect(sent).toEqual([]);
    const after = await rowOf(row.id);
    expect(after).toMatchObject({ status: "PENDENTE", messageId: null, late: true });
    expect(after.sendAt.getTime()).toBe(row.sendAt.getTime());
    // not retried before its pause is over: a second sweep leaves the row as the first left it
    await sweep();
    expect(await rowOf(row.id)).toEqual(after);
  });
});

describe("a schedule whose session stays down", () => {
  it("fails with ERR_WAPP_NOT_INITIALIZED a day after its time instead of waiting for good", async () => {
    const { w, contact, sent } = await setup();
    const down = await buildWhatsapp(t.app, w.companyId, { name: `Caída ${uid()}` });
    const row = await overdue(w, contact.id, {
      whatsappId: down.id,
      sendAt: new Date(Date.now() - SESSION_WAIT_MAX_MS - 60_000),
    });
    await sweep();
    expect(sent).toEqual([]);
    expect(await rowOf(row.id)).toMatchObject({ status: "ERRO", error: "ERR_WAPP_NOT_INITIALIZED", messageId: null });
    const view = (await call(w.session, "GET", `/schedules/${row.id}`)).json();
    expect(view).toMatchObject({ status: "ERRO", error: "ERR_WAPP_NOT_INITIALIZED" });
  });
});

describe("repeating schedules", () => {
  it("makes the next occurrence once when one is sent (daily, same wall time)", async () => {
    const { w, contact, sent } = await setup();
    const sendAt = new Date(Date.now() - 30_000);
    const row = await overdue(w, contact.id, { sendAt, repeat: "daily" });
    await sweep();
    expect(sent).toHaveLength(1);
    const next = await db().select().from(schedules).where(eq(schedules.previousId, row.id));
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ status: "PENDENTE", repeat: "daily", contactId: contact.id, body: row.body });
    expect(next[0].sendAt.getTime() - sendAt.getTime()).toBe(24 * 3_600_000);
    // the sent one claimed again by a late node would find it ENVIADA; and its next is never doubled
    await sweep();
    expect(await db().select().from(schedules).where(eq(schedules.previousId, row.id))).toHaveLength(1);
  });

  it("a weekly series resumed after a long downtime goes on from now, on its days", async () => {
    const { w, contact } = await setup();
    const row = await overdue(w, contact.id, {
      sendAt: new Date(Date.now() - 20 * 24 * 3_600_000),
      repeat: "weekly",
      repeatDays: [1, 4],
    });
    await sweep();
    const [next] = await db().select().from(schedules).where(eq(schedules.previousId, row.id));
    expect(next.sendAt.getTime()).toBeGreaterThan(Date.now());
    expect(next.sendAt.getTime()).toBeLessThan(Date.now() + 7 * 24 * 3_600_000);
    const weekday = new Date(next.sendAt.getTime() - 2 * 3_600_000).getUTCDay(); // America/Noronha is UTC-2
    expect([1, 4]).toContain(weekday);
  });

  it("a monthly series keeps its first day: a 31st clamped to a short month goes back to the month's last day", async () => {
    const { w, contact } = await setup();
    // the series began on a 31st (09:00 in Noronha); its February occurrence, clamped to the 28th, is due
    const first = await overdue(w, contact.id, {
      sendAt: new Date("2026-01-31T11:00:00Z"),
      status: "ENVIADA",
      repeat: "monthly",
    });
    const feb = await overdue(w, contact.id, {
      sendAt: new Date("2026-02-28T11:00:00Z"),
      repeat: "monthly",
      previousId: first.id,
    });
    await sweep();
    const [next] = await db().select().from(schedules).where(eq(schedules.previousId, feb.id));
    const local = new Date(next.sendAt.getTime() - 2 * 3_600_000); // America/Noronha is UTC-2
    const lastDay = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
    expect(local.getUTCDate()).toBe(lastDay);
    expect(local.getUTCHours()).toBe(9);
  });
});

describe("schedule files", () => {
  it("sends the file with the text as its caption, from a copy: the schedule keeps its own", async () => {
    const { w, contact, sent } = await setup();
    const res = await call(w.session, "POST", "/schedules", {
      contactId: contact.id,
      body: "Su factura",
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const view = res.json() as ScheduleView;
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(100, 7)]);
    const up = await as(t.app, w.session, {
      method: "POST",
      url: `/api/v1/schedules/${view.id}/media-upload`,
      ...multipart("file", "factura.pdf", "application/pdf", pdf),
    });
    expect(up.statusCode, up.body).toBe(200);
    await db()
      .update(schedules)
      .set({ sendAt: new Date(Date.now() - 1000) })
      .where(eq(schedules.id, view.id));
    await sweep();
    expect(sent).toEqual([expect.objectContaining({ kind: "media", body: "Su factura" })]);
    const after = await rowOf(view.id);
    const [message] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, after.messageId as number));
    expect(message).toMatchObject({ mediaType: "application", mediaName: "factura.pdf" });
    expect(message.mediaPath).not.toBe(after.mediaPath);
    expect((await t.app.charla.storage.read(w.companyId, after.mediaPath as string)).equals(pdf)).toBe(true);
  });
});
