import { Ack } from "@charla/contracts";
import type { InboundMessage } from "../channels/driver.js";
import type { Services } from "../context.js";
import type { AudienceCandidate } from "../policies/tickets.js";
import { summary } from "./media.js";

/**
 * The common inbound cases in one statement, for a batch of messages of one connection: a message of a
 * known contact whose ticket is live, or of a number never seen (a new contact with a new pending
 * ticket and its tracking episode). Everything else (a returning contact whose ticket was closed, which
 * may reopen it, a contact whose answer to a rating question is awaited, or a new number another
 * statement is creating at the same moment) comes back `unresolved` for the transactional path, which
 * knows those rules.
 *
 * One statement is one round trip and its own transaction: the connection is held only while it writes,
 * and the commit (the WAL flush) is shared by every message of the batch. Exactly once: a channel id
 * already stored is dropped first (`fresh`), and the insert's ON CONFLICT on messages_channel_key settles
 * a replay racing in another statement; the counters move only by the messages actually inserted
 * (`bumped` reads `stored`). The views' relations and the audience's candidates are read in the same
 * statement from the rows it wrote, so nothing is read again before the broadcast.
 */
const INBOUND_SQL = `
with input as (
  select * from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::integer[],
                       $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::timestamptz[],
                       $17::boolean[], $18::text[], $19::text[])
    with ordinality as i(channel_id, number, contact_name, push_name, body, from_me, ack, media_type, media_path,
                         media_name, quoted_channel_id, participant, participant_name, created_at, is_group, summary,
                         channel_key, ord)
),
fresh as (
  select distinct on (i.channel_id) i.* from input i
  where not exists (select 1 from messages m where m.whatsapp_id = $2 and m.channel_id = i.channel_id)
  order by i.channel_id, i.ord
),
known as (
  select c.id, c.number, c.name, c.profile_pic_url, c.is_group from contacts c
  where c.company_id = $1 and c.number <> '' and c.number in (select number from fresh)
),
added as (
  insert into contacts (company_id, number, name, is_group, whatsapp_id)
  select distinct on (f.number) $1, f.number, f.contact_name, f.is_group, $2 from fresh f
  where f.number not in (select number from known)
  order by f.number, f.ord
  on conflict (company_id, number) where number <> '' do nothing
  returning id, number, name, profile_pic_url, is_group
),
renamed as (
  update contacts c set name = r.push_name
  from (select distinct on (f.number) f.number, f.push_name from fresh f
        where f.push_name is not null order by f.number, f.ord) r
  join known k on k.number = r.number
  where c.id = k.id and (c.name = c.number or c.name = '')
  returning c.id, c.number, c.name, c.profile_pic_url, c.is_group
),
contact as (
  select f.ord, coalesce(k.id, a.id) as id, a.id is not null as is_new
  from fresh f left join known k on k.number = f.number left join added a on a.number = f.number
),
live as (
  select c.ord, t.id as ticket_id from contact c
  join tickets t on t.company_id = $1 and t.contact_id = c.id and t.whatsapp_id = $2 and t.status in ('open', 'pending')
  where not c.is_new
    -- a contact asked for a rating answers it first: the transactional path knows that rule
    and not exists (select 1 from tickets r where r.company_id = $1 and r.contact_id = c.id and r.whatsapp_id = $2
                     and r.awaiting_rating)
),
opened as (
  insert into tickets (company_id, contact_id, whatsapp_id, status, is_group, last_message, unread_messages)
  select $1, a.id, $2, 'pending', a.is_group, g.summary, g.unread
  from added a join (
    select f.number, (array_agg(f.summary order by f.ord desc))[1] as summary,
           (count(*) filter (where not f.from_me))::int as unread
    from fresh f group by f.number
  ) g on g.number = a.number
  on conflict do nothing
  returning *
),
episodes as (
  insert into ticket_tracking (company_id, ticket_id, whatsapp_id, queued_at)
  select $1, o.id, $2, now() from opened o
),
target as (
  select l.ord, l.ticket_id, false as created from live l
  union all
  select c.ord, o.id, true from contact c join opened o on o.contact_id = c.id
),
stored as (
  insert into messages (company_id, ticket_id, contact_id, whatsapp_id, channel_id, body, from_me, read, ack, media_type,
                        media_path, media_name, quoted_msg_id, participant, participant_name, channel_key, created_at)
  select $1, t.ticket_id, c.id, $2, f.channel_id, f.body, f.from_me, f.from_me, f.ack, f.media_type, f.media_path,
         f.media_name, q.id, f.participant, f.participant_name, f.channel_key, coalesce(f.created_at, now())
  from fresh f join target t on t.ord = f.ord join contact c on c.ord = f.ord
  left join lateral (select m.id from messages m
                     where m.company_id = $1 and m.whatsapp_id = $2 and m.channel_id = f.quoted_channel_id limit 1) q on true
  order by f.ord
  on conflict do nothing
  -- the columns a view takes (not the search vector migration 0011 stores beside each message)
  returning id, channel_id, contact_id, body, from_me, read, ack, ack_error, media_type, media_path, media_name,
            quoted_msg_id, is_deleted, is_edited, is_automatic, participant, participant_name, user_id, created_at,
            updated_at, channel_key
),
bumped as (
  update tickets t set last_message = s.summary, unread_messages = t.unread_messages + s.unread, updated_at = now()
  from (
    select tg.ticket_id, (array_agg(f.summary order by f.ord desc))[1] as summary,
           (count(*) filter (where not f.from_me))::int as unread
    from stored st join fresh f on f.channel_id = st.channel_id join target tg on tg.ord = f.ord
    where not tg.created group by tg.ticket_id
  ) s
  where t.company_id = $1 and t.id = s.ticket_id
  returning t.*
),
final as (select * from bumped union all select * from opened),
contact_now as (
  select * from renamed union all select * from added
  union all select * from known where id not in (select id from renamed)
)
select i.ord,
  case when st.id is not null then 'stored' when f.ord is null or tg.ord is not null then 'duplicate'
       else 'unresolved' end as outcome,
  coalesce(tg.created, false) as created,
  st.id as m_id, st.contact_id as m_contact_id, st.body as m_body, st.from_me as m_from_me, st.read as m_read,
  st.ack as m_ack, st.ack_error as m_ack_error, st.media_type as m_media_type, st.media_path as m_media_path,
  st.media_name as m_media_name, st.quoted_msg_id as m_quoted_msg_id, st.is_deleted as m_is_deleted,
  st.is_edited as m_is_edited, st.is_automatic as m_is_automatic, st.participant as m_participant,
  st.participant_name as m_participant_name, st.channel_id as m_channel_id, st.user_id as m_user_id,
  st.channel_key as m_channel_key,
  st.created_at as m_created_at, st.updated_at as m_updated_at,
  qm.body as qm_body, qm.from_me as qm_from_me, qm.media_type as qm_media_type,
  tk.id as t_id, tk.uuid as t_uuid, tk.status as t_status, tk.contact_id as t_contact_id,
  tk.whatsapp_id as t_whatsapp_id, tk.queue_id as t_queue_id, tk.user_id as t_user_id,
  tk.last_message as t_last_message, tk.unread_messages as t_unread_messages, tk.is_group as t_is_group,
  tk.chatbot as t_chatbot, tk.use_integration as t_use_integration, tk.prompt_id as t_prompt_id,
  tk.integration_id as t_integration_id, tk.created_at as t_created_at, tk.updated_at as t_updated_at,
  cn.name as c_name, cn.number as c_number, cn.profile_pic_url as c_profile_pic_url, cn.is_group as c_is_group,
  w.name as w_name, qu.name as q_name, qu.color as q_color, u.name as u_name,
  tg_list.tags, aud.candidates
from input i
left join fresh f on f.ord = i.ord
left join target tg on tg.ord = f.ord
left join stored st on st.channel_id = f.channel_id
left join messages qm on qm.id = st.quoted_msg_id and qm.company_id = $1
left join final tk on tk.id = tg.ticket_id and st.id is not null
left join contact_now cn on cn.id = tk.contact_id
left join whatsapps w on w.id = tk.whatsapp_id and w.company_id = $1
left join queues qu on qu.id = tk.queue_id and qu.company_id = $1
left join users u on u.id = tk.user_id and u.company_id = $1
left join lateral (
  select coalesce(json_agg(json_build_object('id', tg2.id, 'name', tg2.name, 'color', tg2.color)
                           order by tg2.name, tg2.id), '[]'::json) as tags
  from ticket_tags tt join tags tg2 on tg2.id = tt.tag_id and tg2.company_id = $1
  where tt.company_id = $1 and tt.ticket_id = tk.id
) tg_list on tk.id is not null
left join lateral (
  select coalesce(json_agg(json_build_object('id', au.id, 'profile', au.profile, 'super', au.super,
                                             'allTicket', au.all_ticket, 'inQueue', au.in_queue,
                                             'onConnection', au.on_connection)), '[]'::json) as candidates
  from (select uu.id, uu.profile, uu.super, uu.all_ticket,
               tk.queue_id is not null and exists (select 1 from user_queues uq
                 where uq.company_id = $1 and uq.user_id = uu.id and uq.queue_id = tk.queue_id) as in_queue,
               -- policies/tickets.ts audienceCandidates: the connection's areas watch the bot's queue-less tickets
               tk.queue_id is null and tk.chatbot and exists (select 1 from user_queues uq
                 join whatsapp_queues wq on wq.company_id = uq.company_id and wq.queue_id = uq.queue_id
                 where uq.company_id = $1 and uq.user_id = uu.id and wq.whatsapp_id = tk.whatsapp_id) as on_connection
        from users uu where uu.company_id = $1) au
  where au.profile <> 'user' or au.super or au.id = tk.user_id or au.in_queue or au.on_connection
     or (tk.queue_id is null and au.all_ticket = 'enable')
) aud on tk.id is not null
order by i.ord`;

/** One message's row of the statement's answer (snake_case as PostgreSQL names them). */
export type WrittenRow = {
  ord: number | string;
  outcome: "stored" | "duplicate" | "unresolved";
  created: boolean;
  m_id: number | string;
  m_contact_id: number | null;
  m_body: string;
  m_from_me: boolean;
  m_read: boolean;
  m_ack: number;
  m_ack_error: string | null;
  m_media_type: string;
  m_media_path: string | null;
  m_media_name: string | null;
  m_quoted_msg_id: number | null;
  m_is_deleted: boolean;
  m_is_edited: boolean;
  m_is_automatic: boolean;
  m_participant: string | null;
  m_participant_name: string | null;
  m_channel_id: string | null;
  m_channel_key: string | null;
  m_user_id: number | null;
  m_created_at: Date;
  m_updated_at: Date;
  qm_body: string | null;
  qm_from_me: boolean | null;
  qm_media_type: string | null;
  t_id: number;
  t_uuid: string;
  t_status: string;
  t_contact_id: number;
  t_whatsapp_id: number | null;
  t_queue_id: number | null;
  t_user_id: number | null;
  t_last_message: string;
  t_unread_messages: number;
  t_is_group: boolean;
  t_chatbot: boolean;
  t_use_integration: boolean;
  t_prompt_id: number | null;
  t_integration_id: number | null;
  t_created_at: Date;
  t_updated_at: Date;
  c_name: string | null;
  c_number: string | null;
  c_profile_pic_url: string | null;
  c_is_group: boolean | null;
  w_name: string | null;
  q_name: string | null;
  q_color: string | null;
  u_name: string | null;
  tags: { id: number; name: string; color: string }[];
  candidates: AudienceCandidate[];
};

export type Written =
  | { outcome: "stored"; created: boolean; row: WrittenRow }
  | { outcome: "duplicate" }
  | { outcome: "unresolved" };

export type InboundItem = { msg: InboundMessage; mediaPath: string | null };

/** At most this many messages in one statement. */
const MAX_BATCH = 64;
/**
 * Statements of one connection under way at once (group commit). What is handed over in one turn of the
 * event loop goes in one statement, and what arrives while it runs waits for the next: a lone sender pays
 * one statement a message, 8 and 32 senders 0.13 and 0.03 (bench/ingest.mjs), sharing the round trip, the
 * executor's start and the WAL flush. Two at once were measured worse: 8 senders' messages split over two
 * concurrent statements took 0.34 statements and 1.9 ms of PostgreSQL CPU a message instead of 0.13 and
 * 0.4 ms, as both write the same hot pages (the right edge of the tickets' updated_at indexes and of
 * messages' keys, the search index's pending list). Other connections' writers run beside this one, and
 * the rest of the pool stays the API's.
 */
const MAX_IN_FLIGHT = 1;

/** The inbound statement's parameters for a batch, column by column. */
function columnsOf(items: InboundItem[]): unknown[] {
  const col = <T>(f: (item: InboundItem) => T) => items.map(f);
  return [
    col(({ msg }) => msg.channelId),
    col(({ msg }) => msg.number),
    col(({ msg }) => (msg.name?.trim() || msg.number).slice(0, 120)),
    // the push name renames a contact known only by number when the contact writes (not the company's phone)
    col(({ msg }) => (!msg.fromMe && msg.name?.trim() ? msg.name.trim().slice(0, 120) : null)),
    col(({ msg }) => msg.body),
    col(({ msg }) => msg.fromMe),
    // sent from the phone itself: it reached WhatsApp's server; received messages carry no ack of ours
    col(({ msg }) => (msg.fromMe ? Ack.server : Ack.queued)),
    col(({ msg }) => msg.mediaType),
    col(({ mediaPath }) => mediaPath),
    col(({ msg }) => msg.media?.fileName ?? null),
    col(({ msg }) => msg.quotedChannelId ?? null),
    col(({ msg }) => msg.participant?.number ?? null),
    col(({ msg }) => msg.participant?.name ?? null),
    col(({ msg }) => msg.timestamp ?? null),
    col(({ msg }) => !!msg.isGroup),
    col(({ msg }) => summary({ ...msg, fileName: msg.media?.fileName })),
    col(({ msg }) => msg.channelKey ?? null),
  ];
}

type Queryable = { query: (q: unknown, values?: unknown[]) => Promise<{ rows: unknown[] }> };

/**
 * Runs the inbound statement. On PostgreSQL it is a named prepared statement: each pool connection
 * parses and plans it once, not once a batch. PGlite (one connection in this process) runs it as it is.
 */
async function runInbound(s: Services, values: unknown[]): Promise<WrittenRow[]> {
  const client = (s.db as unknown as { $client: Queryable }).$client;
  const res =
    s.dbKind === "postgres"
      ? await client.query({ name: "charla_inbound_v3", text: INBOUND_SQL, values })
      : await client.query(INBOUND_SQL, values);
  return res.rows as WrittenRow[];
}

type Pending = InboundItem & { resolve: (w: Written) => void };

/**
 * Writes one connection's inbound messages with group commit. Callers never put two messages of one
 * contact here at once (inbound.ts orders them per contact), so the statements under way never touch
 * the same contact or ticket and cannot deadlock each other.
 */
export class InboundWriter {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly s: Services,
    private readonly companyId: number,
    private readonly whatsappId: number,
  ) {}

  write(item: InboundItem): Promise<Written> {
    return new Promise((resolve) => {
      this.queue.push({ ...item, resolve });
      // what is handed over in the same turn of the event loop goes in one statement (a driver's burst,
      // the senders an answer just released); the turn ends before the next I/O is looked at
      if (!this.scheduled && this.inFlight < MAX_IN_FLIGHT) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump() {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.flush(batch);
    }
  }

  private next() {
    this.inFlight--;
    this.pump();
  }

  /** Never throws: every message of the batch is answered. */
  private async flush(batch: Pending[]) {
    let rows: WrittenRow[];
    try {
      rows = await runInbound(this.s, [this.companyId, this.whatsappId, ...columnsOf(batch)]);
    } catch (err) {
      this.next();
      // nothing of the batch was written (one statement): each message goes the transactional way on
      // its own, where a problem of one (a ticket deleted meanwhile, the database gone) is only its own
      this.s.log.warn({ err, size: batch.length }, "inbound batch not written; its messages go one by one");
      for (const p of batch) p.resolve({ outcome: "unresolved" });
      return;
    }
    // what queued meanwhile goes to the database before this batch's answers are handled
    this.next();
    for (const row of rows) {
      const p = batch[Number(row.ord) - 1];
      if (row.outcome === "stored") p.resolve({ outcome: "stored", created: row.created, row });
      else p.resolve({ outcome: row.outcome });
    }
    // every message has its row; should one be missing, it is not left waiting (a settled promise ignores this)
    for (const p of batch) p.resolve({ outcome: "unresolved" });
  }
}

const writers = new WeakMap<Services, Map<string, InboundWriter>>();

/** The writer of a connection, one per app. */
export function writerFor(s: Services, companyId: number, whatsappId: number): InboundWriter {
  let mine = writers.get(s);
  if (!mine) {
    mine = new Map();
    writers.set(s, mine);
  }
  const key = `${companyId}:${whatsappId}`;
  let w = mine.get(key);
  if (!w) {
    w = new InboundWriter(s, companyId, whatsappId);
    mine.set(key, w);
  }
  return w;
}
