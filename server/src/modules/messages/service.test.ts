import { Ack } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelDriver } from "../../channels/driver.js";
import type { Principal } from "../../context.js";
import { messages, tickets } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import {
  type BuiltUser,
  addUserQueue,
  buildCompany,
  buildContact,
  buildMessage,
  buildQueue,
  buildTicket,
  buildUser,
  buildWhatsapp,
} from "../../test/factories.js";
import type { StoredMedia } from "./send.js";
import { type AnswerDraft, REVOKE_WINDOW_MS, answerTicket, asCompany, asUser, deleteMessage, showTyping } from "./service.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const s = () => t.app.charla;
const db = () => t.app.charla.db;

/** The user as the auth plugin would hand it over, without the facts it reads along (the service loads them). */
const principal = (u: BuiltUser): Principal => ({
  id: u.id,
  companyId: u.companyId,
  name: u.name,
  email: u.email,
  profile: u.profile,
  super: u.super,
  sessionId: "service-test",
  plan: null,
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const draft = (over: Partial<AnswerDraft> = {}): AnswerDraft => ({ body: "", quotedId: null, sign: false, files: [], ...over });

/** The code a call is refused with (fails the test when it is not refused). */
async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

async function world() {
  const c = await buildCompany(t.app);
  const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED", isDefault: true });
  const queue = await buildQueue(t.app, c.id);
  const agent = await buildUser(t.app, c.id, { name: "Agente Servicio" });
  const colleague = await buildUser(t.app, c.id, { name: "Colega" });
  await addUserQueue(t.app, c.id, agent.id, queue.id);
  await addUserQueue(t.app, c.id, colleague.id, queue.id);
  const contact = await buildContact(t.app, c.id);
  const ticket = await buildTicket(t.app, c.id, {
    contactId: contact.id,
    whatsappId: wa.id,
    queueId: queue.id,
    status: "open",
    userId: agent.id,
  });
  // one live ticket per contact and connection: another live one needs a contact of its own
  const other = async (values: Partial<typeof tickets.$inferInsert>) =>
    buildTicket(t.app, c.id, {
      contactId: values.status === "closed" ? contact.id : (await buildContact(t.app, c.id)).id,
      whatsappId: wa.id,
      queueId: queue.id,
      ...values,
    });
  return { c, wa, queue, agent, colleague, contact, ticket, other, asAgent: asUser(principal(agent)) };
}

const rowsOf = (ticketId: number) => db().select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(messages.id);

describe("#messages service answer", () => {
  it("sends a plain answer as the user: recorded with its author, handed to the channel, the ticket's last message", async () => {
    const w = await world();
    const [sent] = await answerTicket(s(), w.c.id, w.asAgent, w.ticket.id, draft({ body: "Hola, ¿en qué le ayudo?" }));
    expect(sent).toMatchObject({ body: "Hola, ¿en qué le ayudo?", fromMe: true, mediaType: "chat", ticketId: w.ticket.id });
    const [row] = await rowsOf(w.ticket.id);
    expect(row).toMatchObject({ id: sent.id, userId: w.agent.id, isAutomatic: false, ackError: null });
    expect(row.ack).toBeGreaterThanOrEqual(Ack.pending);
    const [ticket] = await db().select().from(tickets).where(eq(tickets.id, w.ticket.id));
    expect(ticket.lastMessage).toBe("Hola, ¿en qué le ayudo?");
  });

  it("signs with the writer's name only when asked and allowed (messages.sign); the company never signs", async () => {
    const w = await world();
    const admin = asUser(principal(w.c.admin));
    const answer = async (actor: typeof admin, sign: boolean) =>
      (await answerTicket(s(), w.c.id, actor, w.ticket.id, draft({ body: "Listo", sign })))[0].body;
    expect(await answer(admin, true)).toBe(`*${w.c.admin.name}*\nListo`);
    expect(await answer(admin, false)).toBe("Listo");
    expect(await answer(w.asAgent, true)).toBe("Listo");
    expect(await answer(asCompany, true)).toBe("Listo");
    // the company writes as nobody: its message has no author
    const rows = await rowsOf(w.ticket.id);
    expect(rows.map((r) => r.userId)).toEqual([w.c.admin.id, w.c.admin.id, w.agent.id, null]);
  });

  it("sends one message per file, the text as the first one's caption, the quote on the first only", async () => {
    const w = await world();
    const theirs = await buildMessage(t.app, w.ticket, { body: "¿Me manda la factura?" });
    const files: StoredMedia[] = [];
    for (const [name, mimetype, data] of [
      ["foto.png", "image/png", PNG],
      ["factura.pdf", "application/pdf", Buffer.from("%PDF-1.4 test")],
    ] as const) {
      const path = await s().storage.write(w.c.id, `media/service-test-${w.ticket.id}-${name}`, data);
      files.push({ path, mimetype, fileName: name });
    }
    const handed: StoredMedia[] = [];
    const sent = await answerTicket(
      s(),
      w.c.id,
      w.asAgent,
      w.ticket.id,
      draft({ body: "Su factura", quotedId: theirs.id, files, clientId: "svc-files" }),
      { onHandOver: (file) => handed.push(file) },
    );
    expect(handed).toEqual(files);
    expect(sent).toMatchObject([
      { mediaType: "image", body: "Su factura", mediaName: "foto.png", quotedMsg: { id: theirs.id } },
      { mediaType: "application", body: "", mediaName: "factura.pdf", quotedMsg: null },
    ]);
    // each file has a key of its own, so a repeated request finds each of them instead of sending again
    const rows = (await rowsOf(w.ticket.id)).filter((r) => r.fromMe);
    expect(rows.map((r) => [r.id, r.clientId, r.mediaPath])).toEqual([
      [sent[0].id, "svc-files", files[0].path],
      [sent[1].id, "svc-files:1", files[1].path],
    ]);
    expect((await s().storage.read(w.c.id, files[0].path)).equals(PNG)).toBe(true);
  });

  it("quotes a message of another conversation of the same contact the writer may see, nothing else", async () => {
    const w = await world();
    const closed = await w.other({ status: "closed" });
    const before = await buildMessage(t.app, closed, { body: "la vez pasada" });
    const [sent] = await answerTicket(s(), w.c.id, w.asAgent, w.ticket.id, draft({ body: "Como le dije", quotedId: before.id }));
    expect(sent.quotedMsg).toMatchObject({ id: before.id, body: "la vez pasada" });

    // the same contact's conversation in an area the agent does not serve: its text must not leave inside a quote
    const elsewhere = await w.other({ status: "closed", queueId: (await buildQueue(t.app, w.c.id)).id });
    const hidden = await buildMessage(t.app, elsewhere, { body: "de otra área" });
    const stranger = await buildTicket(t.app, w.c.id, {
      contactId: (await buildContact(t.app, w.c.id)).id,
      whatsappId: w.wa.id,
      queueId: w.queue.id,
      status: "closed",
    });
    const strangers = await buildMessage(t.app, stranger, { body: "de otro cliente" });
    const deleted = await buildMessage(t.app, w.ticket, { body: "borrado", isDeleted: true });
    for (const quotedId of [hidden.id, strangers.id, deleted.id])
      expect(await refusal(answerTicket(s(), w.c.id, w.asAgent, w.ticket.id, draft({ body: "x", quotedId })))).toBe(
        "ERR_NO_MESSAGE_FOUND",
      );
    // the company goes by staff's rules: every conversation of the company is its to quote
    const [staff] = await answerTicket(s(), w.c.id, asCompany, w.ticket.id, draft({ body: "y", quotedId: hidden.id }));
    expect(staff.quotedMsg).toMatchObject({ id: hidden.id });
  });

  it("refuses what may not be answered, with the route's codes, and sends nothing", async () => {
    const w = await world();
    const pending = await w.other({ status: "pending" });
    const unassigned = await w.other({ status: "open", userId: null });
    const held = await w.other({ status: "pending", chatbot: true });
    const body = draft({ body: "hola" });
    expect(await refusal(answerTicket(s(), w.c.id, w.asAgent, pending.id, body))).toBe("ERR_TICKET_NOT_OPEN");
    expect(await refusal(answerTicket(s(), w.c.id, w.asAgent, unassigned.id, body))).toBe("ERR_TICKET_NOT_OPEN");
    expect(await refusal(answerTicket(s(), w.c.id, w.asAgent, held.id, body))).toBe("ERR_TICKET_IN_CHATBOT");
    // staff are not held off by the bot; the ticket is still not open
    expect(await refusal(answerTicket(s(), w.c.id, asUser(principal(w.c.admin)), held.id, body))).toBe("ERR_TICKET_NOT_OPEN");
    // a colleague's open ticket is not even seen
    expect(await refusal(answerTicket(s(), w.c.id, asUser(principal(w.colleague)), w.ticket.id, body))).toBe(
      "ERR_NO_TICKET_FOUND",
    );
    expect(await refusal(answerTicket(s(), w.c.id, w.asAgent, w.ticket.id, draft({ body: "  \n " })))).toBe("ERR_VALIDATION");
    // another company's ticket is not found, whoever asks
    const foreign = await buildCompany(t.app);
    expect(await refusal(answerTicket(s(), foreign.id, asCompany, w.ticket.id, body))).toBe("ERR_NO_TICKET_FOUND");
    for (const ticket of [pending, unassigned, held, w.ticket]) expect(await rowsOf(ticket.id)).toEqual([]);
  });

  it("shows typing on the writer's own open ticket and refuses it where an answer would be refused", async () => {
    const w = await world();
    const typed: boolean[] = [];
    const driver = {
      provider: "fake",
      typing: async (_n: string, on: boolean) => void typed.push(on),
    } as unknown as ChannelDriver;
    const original = s().sessions.driverFor;
    s().sessions.driverFor = async () => driver;
    try {
      await showTyping(s(), w.c.id, w.asAgent, w.ticket.id, true);
      const held = await w.other({ status: "pending", chatbot: true });
      expect(await refusal(showTyping(s(), w.c.id, w.asAgent, held.id, true))).toBe("ERR_TICKET_IN_CHATBOT");
      const pending = await w.other({ status: "pending" });
      expect(await refusal(showTyping(s(), w.c.id, w.asAgent, pending.id, true))).toBe("ERR_TICKET_NOT_OPEN");
      // the channel's failure is a courtesy lost, not an error
      (driver as { typing: unknown }).typing = async () => {
        throw new Error("socket closed");
      };
      await showTyping(s(), w.c.id, w.asAgent, w.ticket.id, false);
    } finally {
      s().sessions.driverFor = original;
    }
    expect(typed).toEqual([true]);
  });
});

describe("#messages service delete", () => {
  it("deletes the writer's own messages for everyone, never the contact's, a colleague's words or a message too old", async () => {
    const w = await world();
    const [mine] = await answerTicket(s(), w.c.id, w.asAgent, w.ticket.id, draft({ body: "borrar" }));
    const theirs = await buildMessage(t.app, w.ticket, { body: "del cliente" });
    expect(await refusal(deleteMessage(s(), w.c.id, w.asAgent, theirs.id))).toBe("ERR_DELETE_WAPP_MSG");
    // the colleague does not see the agent's open ticket, so nor its messages
    const colleague = asUser(principal(w.colleague));
    expect(await refusal(deleteMessage(s(), w.c.id, colleague, mine.id))).toBe("ERR_NO_MESSAGE_FOUND");
    await deleteMessage(s(), w.c.id, w.asAgent, mine.id);
    const [row] = await db().select().from(messages).where(eq(messages.id, mine.id));
    expect(row.isDeleted).toBe(true);
    expect(await refusal(deleteMessage(s(), w.c.id, w.asAgent, mine.id))).toBe("ERR_DELETE_WAPP_MSG");

    // closed, the ticket is the area's to see, but the agent's words stay the agent's
    const earlier = await w.other({ status: "closed", userId: w.agent.id });
    const said = await buildMessage(t.app, earlier, { fromMe: true, userId: w.agent.id, ack: Ack.pending });
    expect(await refusal(deleteMessage(s(), w.c.id, colleague, said.id))).toBe("ERR_NO_PERMISSION");
    // past WhatsApp's window the phone keeps it: refused, nothing changed
    await db()
      .update(messages)
      .set({ createdAt: new Date(Date.now() - REVOKE_WINDOW_MS - 60_000) })
      .where(eq(messages.id, said.id));
    expect(await refusal(deleteMessage(s(), w.c.id, w.asAgent, said.id))).toBe("ERR_FETCH_WAPP_MSG");
    expect((await db().select().from(messages).where(eq(messages.id, said.id)))[0].isDeleted).toBe(false);
    // the company, like staff, may delete any message sent on its tickets within the window
    await db()
      .update(messages)
      .set({ createdAt: new Date(Date.now() - REVOKE_WINDOW_MS + 60_000) })
      .where(eq(messages.id, said.id));
    await deleteMessage(s(), w.c.id, asCompany, said.id);
    expect((await db().select().from(messages).where(eq(messages.id, said.id)))[0].isDeleted).toBe(true);
  });
});
