import { Events } from "@charla/contracts";
import { and, asc, eq, gt } from "drizzle-orm";
import { expect } from "vitest";
import { messages, tickets, ticketTracking, whatsapps } from "../db/schema/index.js";
import type { TestApp } from "./app.js";
import { botOf, phone, setSetting } from "./chatbot-kit.js";
import { captureEvents } from "./events.js";
import { caller, uid } from "./http.js";
import { scenario } from "./scenario.js";

/**
 * The interaction matrix's world (docs/ticket-lifecycle.md): admin Carla, agent Pedro in Soporte, agent
 * Lucía in Ventas (neither sees tickets without area), the Simulator offering both areas with a greeting,
 * sendGreetingAccepted and userRating on, a plan with every producer. María is the customer.
 */
export async function lifecycleWorld(t: TestApp, connection: Record<string, unknown> = {}) {
  const w = await scenario(t.app, {
    company: {
      plan: { useSchedules: true, useExternalApi: true, useCampaigns: true, useOpenAi: true, useIntegrations: true },
    },
    queues: {
      soporte: { name: "Soporte", orderQueue: 1, offered: true },
      ventas: { name: "Ventas", orderQueue: 2, offered: true },
    },
    connection: { greetingMessage: "¡Hola! Gracias por escribir.", ...connection },
    agents: {
      pedro: { name: "Pedro", queues: ["soporte"] },
      lucia: { name: "Lucía", queues: ["ventas"] },
    },
  });
  await setSetting(t, w.companyId, "sendGreetingAccepted", "enabled");
  await setSetting(t, w.companyId, "userRating", "enabled");
  const bot = botOf(w);
  const maria = phone(t, bot, "María");
  const call = caller(() => t.app);
  const db = t.app.charla.db;
  const carla = { id: w.company.admin.id, session: w.admin };
  const pedro = { id: w.pedro.id, session: w.as.pedro };
  const lucia = { id: w.lucia.id, session: w.as.lucia };

  /** María's ticket now (her newest on the connection), or null. */
  const ticket = async () => {
    const rows = await maria.tickets();
    return rows.at(-1) ?? null;
  };

  /** Moves a resolved ticket's end back in time (its episode's finishedAt: the 2-hour reopen window reads it). */
  const resolvedAgo = async (ticketId: number, ms: number) => {
    const at = new Date(Date.now() - ms);
    await db.update(ticketTracking).set({ finishedAt: at }).where(eq(ticketTracking.ticketId, ticketId));
    await db.update(tickets).set({ updatedAt: at }).where(eq(tickets.id, ticketId));
  };

  /** The five states of the matrix, each reached the way users reach it. */
  const states = {
    none: async () => null,
    bot: async () => {
      await maria.say("hola");
      const t0 = await ticket();
      expect(t0).toMatchObject({ status: "pending", queueId: null, chatbot: true });
      return t0;
    },
    open: async () => {
      await maria.say("hola");
      await maria.say("1");
      const t0 = await ticket();
      expect(t0).toMatchObject({ status: "pending", queueId: w.soporte.id });
      const res = await call(pedro.session, "PUT", `/tickets/${t0?.id}`, { status: "open" });
      expect(res.statusCode, res.body).toBe(200);
      return ticket();
    },
    resolvedMinutesAgo: async () => {
      const open = await states.open();
      const res = await call(pedro.session, "PUT", `/tickets/${open?.id}`, { status: "closed" });
      expect(res.statusCode, res.body).toBe(200);
      // María rates it (userRating is on): her next message is a message, not an answer to the question
      await maria.say("3");
      await resolvedAgo(open?.id as number, 5 * 60_000);
      const rated = await ticket();
      expect(rated).toMatchObject({ id: open?.id, status: "closed", awaitingRating: false });
      return rated;
    },
    resolvedDaysAgo: async () => {
      const open = await states.open();
      const res = await call(pedro.session, "PUT", `/tickets/${open?.id}`, { status: "closed" });
      expect(res.statusCode, res.body).toBe(200);
      // a customer's answer to the rating question would come within these days: not waited for any more
      await db
        .update(tickets)
        .set({ awaitingRating: false })
        .where(eq(tickets.id, open?.id as number));
      await resolvedAgo(open?.id as number, 3 * 86_400_000);
      return ticket();
    },
  };

  /** The messages of María's tickets after a given id: what the producer (and any rule after it) wrote. */
  const messagesAfter = async (lastId: number) => {
    const contactId = await maria.contactId();
    return db
      .select()
      .from(messages)
      .where(and(eq(messages.companyId, w.companyId), eq(messages.contactId, contactId), gt(messages.id, lastId)))
      .orderBy(asc(messages.id));
  };
  const lastMessageId = async () => {
    const contactId = await maria.contactId();
    const rows = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.companyId, w.companyId), eq(messages.contactId, contactId)))
      .orderBy(asc(messages.id));
    return rows.at(-1)?.id ?? 0;
  };

  /**
   * Records the socket events a step sends: `to(userId)` lists what that user received, as "ticket:update"
   * etc. Acks of messages sent before the step (`appMessage` updates, the phone's receipts arriving
   * whenever they do) are not the step's and are left out.
   */
  const watch = () => {
    const capture = captureEvents(t.app);
    const ticketEvent = Events.ticket(w.companyId);
    const messageEvent = Events.appMessage(w.companyId);
    return {
      stop: () => capture.restore(),
      to(userId: number) {
        return capture.events
          .filter((e) => (e.to ? e.to.includes(userId) : e.except ? !e.except.includes(userId) : true))
          .filter((e) => e.event === ticketEvent || e.event === messageEvent)
          .filter((e) => !(e.event === messageEvent && (e.payload as { action: string }).action === "update"))
          .map((e) => `${e.event === ticketEvent ? "ticket" : "appMessage"}:${(e.payload as { action: string }).action}`);
      },
    };
  };

  /** Whether each user sees the ticket by id (core §6's one rule also decides lists and events). */
  const seenBy = async (ticketId: number) => {
    const out: Record<string, boolean> = {};
    for (const [name, who] of Object.entries({ carla, pedro, lucia })) {
      const res = await call(who.session, "GET", `/tickets/${ticketId}`);
      out[name] = res.statusCode === 200;
    }
    return out;
  };

  /** The automatic messages (bot, automations, rules) written to María after a given message id. */
  const automaticAfter = async (lastId: number) => (await messagesAfter(lastId)).filter((r) => r.isAutomatic).map((r) => r.body);

  /**
   * The connection answered by a prompt on an OpenAI-compatible fake, saved by Carla with the area
   * Ventas (the dialog requires one); its id.
   */
  const promptOnConnection = async (ai: { baseUrl: string; key: string }) => {
    const res = await call(carla.session, "POST", "/prompt", {
      name: `Asistente ${uid()}`,
      prompt: "Eres el asistente de la tienda. Responde breve y amable a cada cliente que escribe.",
      model: "gpt-4o-mini",
      apiKey: ai.key,
      baseUrl: ai.baseUrl,
      queueId: w.ventas.id,
      maxMessages: 10,
      maxTokens: 200,
    });
    expect(res.statusCode, res.body).toBe(201);
    await db.update(whatsapps).set({ promptId: res.json().id }).where(eq(whatsapps.id, w.connection.id));
    return res.json().id as number;
  };

  return {
    w,
    bot,
    maria,
    call,
    db,
    carla,
    pedro,
    lucia,
    ticket,
    states,
    messagesAfter,
    automaticAfter,
    lastMessageId,
    watch,
    seenBy,
    resolvedAgo,
    promptOnConnection,
  };
}

export type LifecycleWorld = Awaited<ReturnType<typeof lifecycleWorld>>;
export type StateName = keyof LifecycleWorld["states"];
export const STATES: StateName[] = ["none", "bot", "open", "resolvedMinutesAgo", "resolvedDaysAgo"];
