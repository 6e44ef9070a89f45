import type { ScheduleEntry, SettingKey } from "@charla/contracts";
import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { InboundMessage } from "../channels/driver.js";
import { contacts, messages, queueOptions, settings, tickets, whatsappQueues } from "../db/schema/index.js";
import { handleInbound } from "../pipeline/inbound.js";
import type { TestApp } from "./app.js";
import { type Session, type buildCompany, buildQueue, type buildWhatsapp } from "./factories.js";
import { caller, uid } from "./http.js";
import { scenario } from "./scenario.js";

/**
 * The chatbot's tests talk like a phone: through the simulator's inbound route (the driver's event, the
 * whole pipeline, the bot after it), and read what the bot answered from the messages table.
 */
export type BotCompany = {
  companyId: number;
  whatsappId: number;
  session: Session;
  source: { companyId: number; whatsappId: number };
};

/** A company whose plan lets prompts and typebots talk (useOpenAi, useIntegrations). */
export const AUTOMATION_PLAN = { plan: { useOpenAi: true, useIntegrations: true } } as const;

export async function botCompany(
  t: Pick<TestApp, "app">,
  connection: Parameters<typeof buildWhatsapp>[2] = {},
  company: Parameters<typeof buildCompany>[1] = {},
): Promise<BotCompany> {
  return botOf(await scenario(t.app, { company, connection: { isDefault: false, ...connection } }));
}

/** A scenario's company as the chatbot's tests talk to it: through its connection, its admin driving the simulator. */
export function botOf(w: { companyId: number; connection: { id: number }; admin: Session }): BotCompany {
  const source = { companyId: w.companyId, whatsappId: w.connection.id };
  return { ...source, session: w.admin, source };
}

/** An area offered by the connection. */
export async function linkQueue(t: Pick<TestApp, "app">, w: BotCompany, values: Parameters<typeof buildQueue>[2] = {}) {
  const queue = await buildQueue(t.app, w.companyId, values);
  await t.app.charla.db.insert(whatsappQueues).values({ companyId: w.companyId, whatsappId: w.whatsappId, queueId: queue.id });
  return queue;
}

export async function addOption(
  t: Pick<TestApp, "app">,
  queue: { id: number; companyId: number },
  values: { option: string; title: string; message?: string; parentId?: number | null },
) {
  const [row] = await t.app.charla.db
    .insert(queueOptions)
    .values({ companyId: queue.companyId, queueId: queue.id, message: "", ...values })
    .returning();
  return row;
}

export async function setSetting(t: Pick<TestApp, "app">, companyId: number, key: SettingKey, value: string) {
  await t.app.charla.db
    .update(settings)
    .set({ value })
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
}

/** A week in one zone's wall clock: the days given open at those hours, every other day missing (closed). */
export function week(days: Partial<Record<ScheduleEntry["weekdayEn"], [string, string]>>): ScheduleEntry[] {
  return Object.entries(days).map(([weekdayEn, [startTime, endTime]]) => ({
    weekday: "",
    weekdayEn: weekdayEn as ScheduleEntry["weekdayEn"],
    startTime,
    endTime,
  }));
}

const newNumber = () => `5215${Math.floor(Math.random() * 1e9)}`.padEnd(13, "1");

/** One customer's phone: what it says, and the bot's answers since last asked. */
export function phone(t: Pick<TestApp, "app">, w: BotCompany, name = "Ana María") {
  const number = newNumber();
  const call = caller(() => t.app);
  let seen = 0;
  const contactId = async () => {
    const [c] = await t.app.charla.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, w.companyId), eq(contacts.number, number)));
    return c?.id ?? -1;
  };
  const automatic = async () =>
    t.app.charla.db
      .select()
      .from(messages)
      .where(and(eq(messages.contactId, await contactId()), eq(messages.fromMe, true)))
      .orderBy(asc(messages.id));
  return {
    number,
    /** Through the simulator driver; `id` replays an event. Returns the ticket the message went to. */
    async say(body: string, id?: string): Promise<number> {
      const res = await call(w.session, "POST", `/simulator/${w.whatsappId}/inbound`, { number, name, body, id });
      expect(res.statusCode).toBeLessThan(300);
      return res.json().ticketId as number;
    },
    /** Straight into the pipeline, for what the simulator form cannot shape (a late event, a group). */
    async deliver(over: Partial<InboundMessage>) {
      return handleInbound(t.app.charla, w.source, {
        channelId: `late-${uid()}`,
        number,
        name,
        fromMe: false,
        body: "",
        mediaType: "chat",
        ...over,
      });
    },
    /** The bot's messages (every one automatic) since the last call. */
    async replies(): Promise<string[]> {
      const rows = await automatic();
      for (const r of rows) expect(r.isAutomatic, r.body).toBe(true);
      const fresh = rows.slice(seen).map((r) => r.body);
      seen = rows.length;
      return fresh;
    },
    async ticket() {
      const [row] = await t.app.charla.db
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, w.companyId), eq(tickets.contactId, await contactId())))
        .orderBy(asc(tickets.id));
      return row;
    },
    async tickets() {
      return t.app.charla.db
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, w.companyId), eq(tickets.contactId, await contactId())))
        .orderBy(asc(tickets.id));
    },
    contactId,
  };
}
