import { SettingDefinitions } from "@charla/contracts";
import { sql } from "drizzle-orm";
import { turnsTaken } from "../chatbot/listeners.js";
import { rowsOf } from "../lib/rate-limit.js";
import { owedSweep } from "./owed-sweep.js";
import type { Sweep } from "./sweep.js";

/**
 * How long after a message is stored its bot turn counts as lost. The live listener takes the turn
 * right after the commit, within a second or two even under a burst; a turn still missing this long
 * after died with its process. A lane merely slower than this costs one extra turn that finds the
 * message answered (chatbot/turns.ts) and writes nothing.
 */
export const TURN_OWED_AFTER_SEC = 30;
/**
 * A turn owed longer than this is left alone: a menu or greeting arriving an hour late (a node down
 * that long) answers a conversation that has moved on, or that an agent now reads anyway.
 */
export const TURN_STALE_AFTER_SEC = 3600;

type Owed = { companyId: number; ticketId: number; messageId: number; body: string };

/**
 * The bot's turns lost with a crash (issue 27). Owed: tickets in the bot's hands (chatbot/flow.ts
 * `runChatbot`'s own entry condition: no agent, not closed, not a group, and in the bot's flow or under
 * working hours) whose newest received message is newer than the one the bot last answered, stored
 * within the window. Cross-tenant: every company's tickets, each by the index of its pending/open
 * tickets by updatedAt (a received message moves updatedAt), the newest message by the ticket's
 * messages index.
 *
 * Each owed turn runs on this node's bot lane for its ticket, and the round waits for them, so the next
 * round does not find them again. Any number of nodes may find the same turn: the turn's own
 * conditional write answers it once (chatbot/turns.ts), so no row is claimed here. A restarted node's
 * first round takes the turns its predecessor lost. Every 10 s: a turn owed after 30 s waits at most
 * that much longer.
 */
const turns = owedSweep<Owed>({
  name: "bot-turns",
  everyMs: 10_000,
  window: { owedAfterSec: TURN_OWED_AFTER_SEC, staleAfterSec: TURN_STALE_AFTER_SEC },
  find: async (s, { since, owedBefore }, limit, only) => {
    const result = await s.db.execute(sql`
      select t.company_id as "companyId", t.id as "ticketId", m.id as "messageId", m.body
        from companies c
        join tickets t on t.company_id = c.id and t.status in ('pending', 'open') and t.updated_at >= ${since}::timestamptz
        cross join lateral (
          select m.id, m.body, m.created_at from messages m
           where m.company_id = t.company_id and m.ticket_id = t.id and not m.from_me
           order by m.created_at desc, m.id desc limit 1
        ) m
       where ${only ? sql`c.id = ${only.companyId}` : sql`true`} and t.user_id is null and not t.is_group and t.whatsapp_id is not null
         and not t.started_by_company
         and m.id > coalesce(t.bot_answered_message_id, 0)
         and m.created_at <= ${owedBefore}::timestamptz and m.created_at >= ${since}::timestamptz
         and (t.queue_id is null or t.chatbot or coalesce(
           (select st.value from settings st where st.company_id = t.company_id and st.key = 'scheduleType'),
           ${SettingDefinitions.scheduleType.default}) <> 'disabled')
       order by m.created_at, m.id
       limit ${limit}`);
    return rowsOf<Owed>(result).map((r) => ({ ...r, messageId: Number(r.messageId) }));
  },
  run: async (s, owed) => {
    for (const o of owed) s.events.publish({ type: "chatbot.turn-owed", ...o });
    await Promise.all(owed.map((o) => turnsTaken(s, o.companyId, o.ticketId)));
    return owed.length;
  },
});

export const owedTurns = turns.owed;
export const takeOwedTurns = turns.take;
export const botTurns: Sweep = turns.sweep;
