import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignShippings, queueIntegrations, tickets, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { listOf, newCampaign, outboxOf, runCampaigns } from "../../test/campaign-kit.js";
import { cloudConnection } from "../../test/cloud-kit.js";
import { type FakeGraph, startFakeGraph } from "../../test/fake-graph.js";
import { type FakeOpenAi, startFakeOpenAi } from "../../test/fake-openai.js";
import { fakeTypebot, textBubble, textInput } from "../../test/fake-typebot.js";
import { buildContact, buildTicket } from "../../test/factories.js";
import { uid } from "../../test/http.js";
import { type LifecycleWorld, STATES, lifecycleWorld } from "../../test/lifecycle-kit.js";

/**
 * The interaction matrix of docs/ticket-lifecycle.md, its automation rows: an AI prompt and a typebot on
 * the connection answering María's message, a campaign's confirmation, and Pedro's Cloud API template.
 */
const KEY = "sk-matrix-0123456789abcdef";
const AI_REPLY = "Soy el asistente: ¿en qué te ayudo?";
let t: TestApp;
let ai: FakeOpenAi;
let graph: FakeGraph;
let typebot: Awaited<ReturnType<typeof fakeTypebot>>;
beforeAll(async () => {
  ai = await startFakeOpenAi({ key: KEY });
  graph = await startFakeGraph();
  // a flow that waits for the customer's next words: it holds the ticket meanwhile
  typebot = await fakeTypebot(() => ({ body: { messages: [textBubble("Hola, soy el typebot")], input: textInput() } }));
  t = await getIsolatedTestApp({ integrationsAllowPrivate: true, graphApiUrl: graph.baseUrl });
  ai.answer({ reply: AI_REPLY });
});
afterAll(async () => {
  await t.close();
  await Promise.all([ai.close(), graph.close(), typebot.close()]);
});

const automaticAfter = (m: LifecycleWorld, lastId: number) => m.automaticAfter(lastId);

/** The connection answered by a prompt (set after the state is reached: the state's own messages met the menus). */
const withPrompt = (m: LifecycleWorld) => m.promptOnConnection({ baseUrl: ai.baseUrl, key: KEY });

async function withTypebot(m: LifecycleWorld) {
  const [integration] = await m.db
    .insert(queueIntegrations)
    .values({
      companyId: m.w.companyId,
      type: "typebot",
      name: `Typebot ${uid()}`,
      urlN8N: typebot.url,
      typebotSlug: "matriz",
      typebotDelayMessage: 0,
    })
    .returning();
  await m.db.update(whatsapps).set({ integrationId: integration.id }).where(eq(whatsapps.id, m.w.connection.id));
  return integration.id;
}

const AUTOMATIONS = [
  { row: "AI answer", setUp: withPrompt, reply: AI_REPLY, held: (id: number) => ({ useIntegration: true, promptId: id }) },
  {
    row: "typebot message",
    setUp: withTypebot,
    reply: "Hola, soy el typebot",
    held: (id: number) => ({ useIntegration: true, integrationId: id }),
  },
] as const;

for (const auto of AUTOMATIONS) {
  describe(`${auto.row} (on the connection; María writes)`, () => {
    it("none: a new pending ticket, held by the automation, which answers; no greeting, no menu; only staff see it", async () => {
      const m = await lifecycleWorld(t);
      const id = await auto.setUp(m);
      const ev = m.watch();
      await m.maria.say("hola, ¿tienen envíos?");
      ev.stop();
      const after = await m.ticket();
      expect(after).toMatchObject({ status: "pending", queueId: null, userId: null, ...auto.held(id) });
      expect(await automaticAfter(m, 0)).toEqual([auto.reply]);
      // no area, not at the bot's area choice: the areas' agents do not watch it
      expect(await m.seenBy(after?.id as number)).toEqual({ carla: true, pedro: false, lucia: false });
      expect(ev.to(m.carla.id)).toContain("appMessage:create");
      expect([...ev.to(m.pedro.id), ...ev.to(m.lucia.id)]).toEqual([]);
    });

    it("bot: the automation takes the ticket from the area choice and answers", async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states.bot();
      const id = await auto.setUp(m);
      const last = await m.lastMessageId();
      await m.maria.say("quiero hablar de un pedido");
      expect(await m.ticket()).toMatchObject({ id: before?.id, status: "pending", queueId: null, ...auto.held(id) });
      expect(await automaticAfter(m, last)).toEqual([auto.reply]);
    });

    it("open: nothing answers Pedro's ticket", async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states.open();
      await auto.setUp(m);
      const last = await m.lastMessageId();
      await m.maria.say("sigo esperando");
      expect(await m.ticket()).toMatchObject({ id: before?.id, status: "open", userId: m.pedro.id, useIntegration: false });
      expect(await automaticAfter(m, last)).toEqual([]);
    });

    it("resolved minutes ago: reopened pending without area, the automation answers", async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states.resolvedMinutesAgo();
      const id = await auto.setUp(m);
      const last = await m.lastMessageId();
      await m.maria.say("una cosa más");
      expect(await m.ticket()).toMatchObject({
        id: before?.id,
        status: "pending",
        queueId: null,
        userId: null,
        ...auto.held(id),
      });
      expect(await automaticAfter(m, last)).toEqual([auto.reply]);
    });

    it("resolved days ago: a new ticket, the automation answers", async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states.resolvedDaysAgo();
      const id = await auto.setUp(m);
      const last = await m.lastMessageId();
      await m.maria.say("hola de nuevo");
      const after = await m.ticket();
      expect(after?.id).not.toBe(before?.id);
      expect(after).toMatchObject({ status: "pending", ...auto.held(id) });
      expect(await automaticAfter(m, last)).toEqual([auto.reply]);
    });
  });
}

describe("campaign confirmation (sent straight through the connection, as the Whaticket family does)", () => {
  for (const state of STATES) {
    it(`${state}: no ticket is made or changed, nothing automatic, no ticket event`, async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states[state]();
      if (!before) await buildContact(t.app, m.w.companyId, { name: "María", number: m.maria.number });
      await m.call(m.carla.session, "POST", "/campaign-settings", {
        messageInterval: 0,
        longerIntervalAfter: 0,
        greaterInterval: 0,
      });
      const list = await listOf(t, m.bot, [m.maria.number]);
      const sent = await outboxOf(t, m.bot);
      const last = await m.lastMessageId();
      const ev = m.watch();
      const c = await newCampaign(t, m.bot, {
        message1: "Novedades de la tienda",
        confirmation: true,
        confirmationMessage1: "¿Quieres recibir novedades? Responde a este mensaje",
        contactListId: list.id,
        scheduledAt: new Date().toISOString(),
      });
      await runCampaigns(t, new Date(Date.now() + 1000));
      ev.stop();
      expect(sent.map((x) => x.body)).toEqual(["¿Quieres recibir novedades? Responde a este mensaje"]);
      const [shipping] = await m.db.select().from(campaignShippings).where(eq(campaignShippings.campaignId, c.id));
      expect(shipping.confirmationRequestedAt).toBeInstanceOf(Date);
      const after = await m.ticket();
      expect(after ? { id: after.id, status: after.status, userId: after.userId, queueId: after.queueId } : null).toEqual(
        before ? { id: before.id, status: before.status, userId: before.userId, queueId: before.queueId } : null,
      );
      expect(await m.messagesAfter(last)).toEqual([]);
      for (const who of [m.carla, m.pedro, m.lucia]) expect(ev.to(who.id)).toEqual([]);
    });
  }
});

describe("Cloud API template (Pedro, María's 24-hour window closed)", () => {
  /** María's ticket on a Cloud API connection, in the state; a template sent by Pedro. */
  async function cloudCell(state: (typeof STATES)[number]) {
    const m = await lifecycleWorld(t);
    const wa = await cloudConnection(t.app, m.w.companyId, graph, { isDefault: false });
    // it offers the same areas, so their agents watch its bot as they do the Simulator's
    await m.db
      .insert(whatsappQueues)
      .values([m.w.soporte, m.w.ventas].map((q) => ({ companyId: m.w.companyId, whatsappId: wa.id, queueId: q.id })));
    const contact = await buildContact(t.app, m.w.companyId, { name: "María", number: `52155${Date.now() % 1e8}` });
    const facts = {
      none: null,
      bot: { status: "pending", queueId: null, chatbot: true, userId: null },
      open: { status: "open", queueId: m.w.soporte.id, userId: m.pedro.id },
      resolvedMinutesAgo: { status: "closed", queueId: m.w.soporte.id, userId: m.pedro.id },
      resolvedDaysAgo: { status: "closed", queueId: m.w.soporte.id, userId: m.pedro.id },
    }[state];
    const ticket = facts ? await buildTicket(t.app, m.w.companyId, { contactId: contact.id, whatsappId: wa.id, ...facts }) : null;
    const from = graph.sent().length;
    const res = ticket
      ? await m.call(m.pedro.session, "POST", `/messages/${ticket.id}/template`, {
          name: "seguimiento",
          language: "es",
          params: ["María", "#77"],
        })
      : null;
    return { m, ticket, res, out: graph.sent().slice(from) };
  }

  it("none: there is no ticket to send to (Pedro opens one first)", async () => {
    const { res, out } = await cloudCell("none");
    expect(res).toBeNull();
    expect(out).toEqual([]);
  });

  it("bot: refused while the bot holds the ticket (ERR_TICKET_IN_CHATBOT)", async () => {
    const { res, out } = await cloudCell("bot");
    expect(res?.json().error).toBe("ERR_TICKET_IN_CHATBOT");
    expect(out).toEqual([]);
  });

  it("open: sent as the approved template; the ticket stays open and Pedro's", async () => {
    const { m, ticket, res, out } = await cloudCell("open");
    expect(res?.statusCode, res?.body).toBe(201);
    expect(out).toEqual([expect.objectContaining({ type: "template" })]);
    const [after] = await m.db
      .select()
      .from(tickets)
      .where(eq(tickets.id, ticket?.id as number));
    expect(after).toMatchObject({ status: "open", userId: m.pedro.id });
  });

  for (const state of ["resolvedMinutesAgo", "resolvedDaysAgo"] as const) {
    it(`${state}: refused (ERR_TICKET_NOT_OPEN)`, async () => {
      const { res, out } = await cloudCell(state);
      expect(res?.json().error).toBe("ERR_TICKET_NOT_OPEN");
      expect(out).toEqual([]);
    });
  }
});

describe("an agent's transfer hands the customer to people", () => {
  it("transferred to an area a prompt is saved with: the customer's next message waits for that area's people, no AI answer", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.open();
    await withPrompt(m);
    const res = await m.call(m.carla.session, "PUT", `/tickets/${before?.id}`, { queueId: m.w.ventas.id, userId: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(await m.ticket()).toMatchObject({ status: "pending", queueId: m.w.ventas.id, userId: null, useIntegration: false });
    const chats = ai.chats().length;
    const last = await m.lastMessageId();
    await m.maria.say("¿me pueden cambiar el pedido?");
    expect(ai.chats().length).toBe(chats);
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(await m.ticket()).toMatchObject({ status: "pending", queueId: m.w.ventas.id, useIntegration: false });
    expect(await m.seenBy(before?.id as number)).toEqual({ carla: true, pedro: false, lucia: true });
  });
});
