import { eq, max } from "drizzle-orm";
import { type BotPatch, type BotWorld, type TicketRow, claimTurnWith } from "../chatbot/state.js";
import { fold } from "../chatbot/menus.js";
import { owesTurn } from "../chatbot/turns.js";
import { type Scoped, scoped } from "../db/scoped.js";
import { jobs, messages, tickets, typebotSessions } from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import type { Tx } from "../db/client.js";
import { deliverMessagesJob } from "../jobs/durable/deliver-messages.js";
import { JOB_DEFAULTS } from "../jobs/durable/kind.js";
import { queueAutomatic } from "../modules/messages/automatic.js";
import { type Within, within } from "../modules/tickets/transitions.js";
import { automaticValues } from "../modules/messages/send.js";
import { checkOutboundUrl } from "../lib/outbound-url.js";
import type { Automation, AutomationScope } from "./resolve.js";
import { handOverPatch } from "./resolve.js";
import {
  type TypebotCall,
  TypebotRejected,
  type TypebotReply,
  TypebotUnavailable,
  continueChat,
  startChat,
} from "./typebot-client.js";
import { replyTexts } from "./typebot-messages.js";

export type TypebotAutomation = Extract<Automation, { kind: "typebot" }>;

type SessionRow = typeof typebotSessions.$inferSelect;

/** What one turn does once Typebot has answered (or not): the ticket's change, the texts, the session, a note. */
type Outcome = {
  patch: BotPatch;
  texts: string[];
  /** The session to keep (its id), or null to forget it (the conversation ended or was cut). */
  session: string | null;
  note?: string;
};

/**
 * A typebot's turn on the ticket's received message (issue 30): start or continue its chat session
 * through Typebot's HTTP chat API and send its messages, or hand the ticket over. The finish keyword
 * and a conversation Typebot ends hand the ticket back to the area's usual flow (the scope remembered,
 * so the bot does not start again on the next message); a reply Typebot refuses gets the integration's
 * unknown-message text; a Typebot that does not answer leaves the ticket with humans and an internal
 * note. The turn commits only if it is the first on its message (chatbot/turns.ts): run twice, it
 * answers once.
 */
export async function runTypebotTurn(w: BotWorld, auto: TypebotAutomation, input: string): Promise<void> {
  // a turn already taken (the owed-turn sweep, a second node) does not talk to Typebot again
  const [fresh] = await w.q.db
    .select({ botAnsweredMessageId: tickets.botAnsweredMessageId })
    .from(tickets)
    .where(w.q.tickets.where(eq(tickets.id, w.ticket.id)));
  if (!fresh || !owesTurn(fresh, w.messageId)) return;
  const scope = auto.scope;
  const outcome = await converse(w, auto, scope, input);
  await apply(w, auto, outcome);
}

const isFinishWord = (input: string, keyword: string) => keyword.trim() !== "" && fold(input.trim()) === fold(keyword.trim());

async function converse(w: BotWorld, auto: TypebotAutomation, scope: AutomationScope, input: string): Promise<Outcome> {
  const bot = auto.integration;
  const handOver = handOverPatch(w.ticket, scope);
  if (isFinishWord(input, bot.typebotKeywordFinish)) return { patch: handOver, texts: [], session: null };
  const [session] = await w.q.db
    .select()
    .from(typebotSessions)
    .where(w.q.typebotSessions.where(eq(typebotSessions.ticketId, w.ticket.id)));
  const call: TypebotCall = { baseUrl: bot.urlN8N, timeoutMs: w.s.config.aiTimeoutMs };
  const assign = auto.assign ?? {};
  try {
    // the company's address, checked before each call as when it was saved (lib/outbound-url.ts)
    await checkOutboundUrl(w.s.config, bot.urlN8N).catch(() => {
      throw new TypebotUnavailable("address not allowed");
    });
    let reply: TypebotReply;
    let sessionId: string;
    if (live(w, bot, session)) {
      sessionId = session.sessionId;
      try {
        reply = await continueChat(call, sessionId, input);
      } catch (err) {
        // Typebot no longer knows the session (it expired there first): a new conversation
        if (!(err instanceof TypebotRejected) || err.status !== 404) throw err;
        ({ sessionId, ...reply } = await startChat(call, bot.typebotSlug, input));
      }
    } else {
      ({ sessionId, ...reply } = await startChat(call, bot.typebotSlug, input));
    }
    const texts = replyTexts(reply);
    // no input expected: the bot's conversation is over, the ticket goes back to the area's flow
    if (!reply.input) return { patch: handOver, texts, session: null };
    return { patch: assign, texts, session: sessionId };
  } catch (err) {
    if (err instanceof TypebotRejected && err.status === 400 && live(w, bot, session)) {
      // a reply the bot's input does not accept: the integration's text, the same question stands
      const unknown = bot.typebotUnknownMessage.trim();
      return { patch: assign, texts: unknown ? [unknown] : [], session: session.sessionId };
    }
    const why = err instanceof TypebotRejected ? `HTTP ${err.status}` : err instanceof TypebotUnavailable ? err.message : "error";
    w.s.log.warn({ companyId: w.q.companyId, ticketId: w.ticket.id, integrationId: bot.id, why }, "typebot did not answer");
    return {
      patch: handOver,
      texts: [],
      session: null,
      note: `El typebot «${bot.name}» no respondió (${why}); la conversación queda con el equipo.`,
    };
  }
}

/** A session of this integration that has not expired (`typebotExpires` minutes of silence; 0 never). */
function live(w: BotWorld, bot: TypebotAutomation["integration"], session: SessionRow | undefined): session is SessionRow {
  if (!session || session.integrationId !== bot.id) return false;
  if (bot.typebotExpires <= 0) return true;
  return w.now.getTime() - session.lastAt.getTime() < bot.typebotExpires * 60_000;
}

/**
 * The outcome in one transaction: the turn's claim with the ticket's change (only if nobody changed the
 * ticket meanwhile and the turn was not taken), the session kept or forgotten, the note, and the texts
 * recorded as automatic messages: the first sent at once, each next one `typebotDelayMessage` later.
 */
async function apply(w: BotWorld, auto: TypebotAutomation, outcome: Outcome): Promise<void> {
  const companyId = w.q.companyId;
  const texts = outcome.texts.filter((t) => t.trim());
  await withTransaction(w.s, async (tx, hooks) => {
    const t = within(w.s, tx, companyId, hooks);
    const after = await claimTurnWith(w, t, outcome.patch);
    if (!after) return;
    const q = t.q;
    await keepSession(q, after.id, auto.integration.id, outcome.session, w.now);
    if (outcome.note) {
      await q.ticketNotes.insert({ note: outcome.note, ticketId: after.id, contactId: after.contactId, userId: null });
    }
    await queueSpaced(w, t, after, texts, auto.integration.typebotDelayMessage);
  });
}

async function keepSession(q: Scoped, ticketId: number, integrationId: number, sessionId: string | null, now: Date) {
  if (sessionId === null) {
    await q.db.delete(typebotSessions).where(q.typebotSessions.where(eq(typebotSessions.ticketId, ticketId)));
    return;
  }
  await q.db
    .insert(typebotSessions)
    .values({ companyId: q.companyId, ticketId, integrationId, sessionId, lastAt: now })
    .onConflictDoUpdate({ target: typebotSessions.ticketId, set: { integrationId, sessionId, lastAt: now } });
}

/** When the ticket's latest text is dated (a spaced one is dated when it is due), in ms; null for none. */
async function lastDatedText(tx: Tx, companyId: number, ticketId: number): Promise<number | null> {
  const q = scoped(tx, companyId);
  const [row] = await q.db
    .select({ at: max(messages.createdAt) })
    .from(messages)
    .where(q.messages.where(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)));
  return row?.at ? new Date(row.at).getTime() : null;
}

/**
 * The texts as automatic messages, spaced by `delayMs`: the first goes out at once (the ticket's
 * delivery lane); each next one is recorded now, dated when it is due, with its own delivery job due
 * then: this node runs it on the lane at that moment, and any node's job runner takes it if this one
 * is gone by then. Nobody's lane waits meanwhile.
 */
async function queueSpaced(w: BotWorld, t: Within, ticket: TicketRow, texts: string[], delayMs: number) {
  if (texts.length === 0) return;
  const { tx } = t;
  const companyId = w.q.companyId;
  // a customer quicker than the last turn's spaced texts: this turn's follow them, never overtakes them
  const queuedUntil = await lastDatedText(tx, companyId, ticket.id);
  const now = Date.now();
  const first = queuedUntil !== null && queuedUntil > now ? queuedUntil + Math.max(delayMs, 1) : now;
  if (first === now && (delayMs <= 0 || texts.length === 1)) {
    await queueAutomatic(t, companyId, ticket, texts);
    return;
  }
  const start = new Date(first);
  let from = 0;
  if (first === now) {
    await queueAutomatic(t, companyId, ticket, texts.slice(0, 1), start);
    from = 1;
  }
  for (let i = from; i < texts.length; i++) {
    const at = new Date(start.getTime() + i * Math.max(delayMs, 1));
    const [{ companyId: _, ...values }] = automaticValues(companyId, ticket, [texts[i]], at);
    const row = await scoped(tx, companyId).messages.insert(values);
    const [job] = await tx
      .insert(jobs)
      .values({
        companyId,
        kind: deliverMessagesJob.kind,
        payload: { messageIds: [row.id] },
        runAfter: at,
        idempotencyKey: values.channelId,
        maxAttempts: deliverMessagesJob.maxAttempts ?? JOB_DEFAULTS.maxAttempts,
      })
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    if (!job) continue;
    await t.publish({ type: "automatic.queued", companyId, ticketId: ticket.id, jobId: job.id }, { at });
  }
}
