import { SettingDefinitions, type SettingKey } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Services } from "../context.js";
import type { Scoped } from "../db/scoped.js";
import {
  companies,
  contacts,
  plans,
  prompts,
  queueIntegrations,
  type queues,
  settings,
  tickets,
  whatsapps,
} from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import { type TemplateFacts, fillTemplate } from "../lib/template.js";
import { queueAutomatic } from "../modules/messages/automatic.js";
import { type Within, botStep, within } from "../modules/tickets/transitions.js";
import { clock } from "./clock.js";
import { claimTurn, notAnsweredYet } from "./turns.js";

export type TicketRow = typeof tickets.$inferSelect;
export type QueueRow = typeof queues.$inferSelect;

/** What the bot changes on a ticket: its place in the flow (tickets' chatbot memory, migration 0017). */
export type BotPatch = Partial<
  Pick<
    TicketRow,
    | "queueId"
    | "queueOptionId"
    | "chatbot"
    | "botListCount"
    | "botListAt"
    | "outOfHoursAt"
    | "useIntegration"
    | "promptId"
    | "integrationId"
    | "automationDone"
  >
>;
/**
 * The bot's answer to one message: the ticket's new state and the texts to send, in order; `note`, an
 * internal note on the ticket written with them (why an automation handed the ticket over).
 */
export type Step = { patch?: BotPatch; texts: string[]; note?: string };
export const NOTHING: Step = { texts: [] };

/** Everything one decision reads, loaded once per message. */
export type BotWorld = {
  s: Services;
  /** On the pool: the decision reads, `applyStep` writes in its own transaction. */
  q: Scoped;
  ticket: TicketRow;
  /** The received message this turn answers (chatbot/turns.ts). */
  messageId: number;
  scheduleType: string;
  keyword: boolean;
  connection: Pick<
    typeof whatsapps.$inferSelect,
    "id" | "greetingMessage" | "outOfHoursMessage" | "maxUseBotQueues" | "timeUseBotQueues" | "transferMessage"
  >;
  company: { schedules: (typeof companies.$inferSelect)["schedules"]; timeZone: string };
  contact: { name: string; email: string };
  now: Date;
};

const setting = (companyId: number, key: SettingKey) =>
  sql<
    string | null
  >`(select ${settings.value} from ${settings} where ${settings.companyId} = ${companyId} and ${settings.key} = ${key})`;

/**
 * How much older than the ticket's newest received message a message may be and still drive the bot:
 * a message delivered late (a phone's offline queue, a sync) must not answer a menu already moved on.
 * The margin covers the clocks of the two write paths (the database's, the server's).
 */
const LATE_AFTER = "1 minute";

/**
 * The ticket, whether the message is older than the ticket's newest received one, the settings the bot
 * follows, and its connection, company hours and contact, in one statement: most messages stop at the
 * ticket (an agent's ticket, a late message), and those the bot answers need no second read.
 */
export async function loadTicket(q: Scoped, ticketId: number, messageId: number) {
  const [row] = await q.db
    .select({
      ticket: tickets,
      late: sql<boolean>`coalesce((select m.created_at from messages m
        where m.company_id = ${q.companyId} and m.ticket_id = ${ticketId} and not m.from_me
        order by m.created_at desc, m.id desc limit 1)
        > (select m.created_at from messages m where m.company_id = ${q.companyId} and m.id = ${messageId})
          + ${LATE_AFTER}::interval, false)`,
      scheduleType: setting(q.companyId, "scheduleType"),
      chatBotType: setting(q.companyId, "chatBotType"),
      // whether the company has anything that may talk instead of the menus, as its plan allows: a
      // prompt (useOpenAi), a typebot (useIntegrations). Most have neither, and their tickets then skip
      // the automation's reads (automation/resolve.ts)
      prompts: sql<boolean>`(exists (select 1 from ${prompts} where ${prompts.companyId} = ${q.companyId})
        and exists (select 1 from ${plans} where ${plans.id} = ${companies.planId} and ${plans.useOpenAi}))`,
      typebots: sql<boolean>`(exists (select 1 from ${queueIntegrations}
        where ${queueIntegrations.companyId} = ${q.companyId} and ${queueIntegrations.type} = 'typebot')
        and exists (select 1 from ${plans} where ${plans.id} = ${companies.planId} and ${plans.useIntegrations}))`,
      connection: {
        id: whatsapps.id,
        greetingMessage: whatsapps.greetingMessage,
        outOfHoursMessage: whatsapps.outOfHoursMessage,
        maxUseBotQueues: whatsapps.maxUseBotQueues,
        timeUseBotQueues: whatsapps.timeUseBotQueues,
        transferMessage: whatsapps.transferMessage,
      },
      company: { schedules: companies.schedules, timeZone: companies.timeZone },
      contact: { name: contacts.name, email: contacts.email },
    })
    .from(tickets)
    .leftJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, q.companyId)))
    .leftJoin(companies, eq(companies.id, q.companyId))
    .leftJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, q.companyId)))
    .where(q.tickets.where(eq(tickets.id, ticketId)));
  if (!row) return null;
  return {
    messageId,
    ticket: row.ticket,
    late: row.late,
    scheduleType: row.scheduleType ?? SettingDefinitions.scheduleType.default,
    chatBotType: row.chatBotType ?? SettingDefinitions.chatBotType.default,
    /** What the plan lets talk to this company's tickets: AI prompts, typebots. */
    automation: { prompt: Boolean(row.prompts), typebot: Boolean(row.typebots) },
    world:
      row.connection && row.company && row.contact
        ? { connection: row.connection, company: row.company, contact: row.contact }
        : null,
  };
}

/** The world for a ticket the bot handles, from what `loadTicket` read: null without a connection, company or contact. */
export function loadWorld(s: Services, q: Scoped, loaded: NonNullable<Awaited<ReturnType<typeof loadTicket>>>): BotWorld | null {
  const { ticket, world } = loaded;
  if (ticket.whatsappId === null || !world) return null;
  return {
    s,
    q,
    ticket,
    messageId: loaded.messageId,
    scheduleType: loaded.scheduleType,
    keyword: loaded.chatBotType === "keyword",
    ...world,
    now: clock.now(),
  };
}

/** The zone a ticket's hours and variables are read in: its queue's with scheduleType queue, else the company's. */
export function zoneOf(w: BotWorld, queue?: Pick<QueueRow, "timeZone"> | null): string {
  return w.scheduleType === "queue" && queue ? queue.timeZone : w.company.timeZone;
}

/** An automatic text with its {{variables}} filled for this ticket (behaviours: template variables). */
export function fill(w: BotWorld, text: string, queue?: Pick<QueueRow, "name" | "timeZone"> | null): string {
  const facts: TemplateFacts = {
    name: w.contact.name,
    email: w.contact.email,
    ticketId: w.ticket.id,
    queue: queue?.name,
    timeZone: zoneOf(w, queue),
    now: w.now,
  };
  return fillTemplate(text, facts);
}

/**
 * The step, applied: the ticket's new state, after checking nobody changed the ticket meanwhile (an
 * agent accepting it stops the bot), its update to the lists when its queue or chatbot flag moved, and
 * the texts recorded as automatic messages, all in one transaction (record first: the state and its
 * answer commit together, one WAL flush), with the job that sends the texts after the commit, in order.
 * The turn commits only if it is the first on its message (chatbot/turns.ts): run twice, it answers once.
 */
export async function applyStep(w: BotWorld, step: Step): Promise<void> {
  const patch = step.patch ?? {};
  const texts = step.texts.filter((text) => text.trim());
  const changes = Object.keys(patch).length > 0;
  if (!changes && texts.length === 0 && !step.note) return;
  if (changes) return applyChanges(w, patch, texts, step.note);
  await withTransaction(w.s, async (tx, hooks) => {
    const t = within(w.s, tx, w.q.companyId, hooks);
    if (!(await claimTurn(t.q, w.ticket.id, w.messageId))) return;
    await queueAutomatic(t, w.q.companyId, w.ticket, texts);
    if (step.note) await botNote(t.q, w.ticket, step.note);
  });
}

/** The bot's internal note on the ticket: no author (core §7 Notes), seen by whoever sees the ticket. */
async function botNote(q: Scoped, ticket: TicketRow, note: string) {
  await q.ticketNotes.insert({ ticketId: ticket.id, contactId: ticket.contactId, userId: null, note });
}

async function applyChanges(w: BotWorld, patch: BotPatch, texts: string[], note?: string) {
  const companyId = w.q.companyId;
  return withTransaction(w.s, async (tx, hooks) => {
    const t = within(w.s, tx, companyId, hooks);
    const after = await claimTurnWith(w, t, patch);
    if (!after) return;
    await queueAutomatic(t, companyId, after, texts);
    if (note) await botNote(t.q, after, note);
  });
}

/**
 * The turn's claim and its patch, in the caller's transaction (modules/tickets/transitions.ts
 * `botStep`): taken only if the ticket is still as the decision read it, so `w.ticket` is what the
 * lists showed and the broadcast's audience before is right. The ticket as changed, or null when the
 * turn was not this one's to take (the caller then writes nothing).
 */
export function claimTurnWith(w: BotWorld, t: Within, patch: BotPatch): Promise<TicketRow | null> {
  return botStep(t, w.ticket, patch, w.messageId, notAnsweredYet);
}
