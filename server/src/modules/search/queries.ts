import { normalizeNumber, type SearchMatchType, type SearchResult, type TicketStatus } from "@charla/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { literalCount } from "../../db/prepared.js";
import { escapeLike } from "../../lib/like.js";
import { memoryCache } from "../../lib/memory-cache.js";
import { rowsOf } from "../../lib/rate-limit.js";
import { visibleTickets } from "../../policies/tickets.js";
import type { Viewer } from "../tickets/viewer.js";
import { foldText, highlightSegments, typedWords } from "./highlight.js";

type Query = z.output<typeof import("@charla/contracts").SearchQuery>;

/** Look-alikes kept per typed word (advanced mode), best first. */
const SIMILAR_PER_WORD = 5;
// node-postgres answers bigint ids (and counts) as text, PGlite as numbers: Number() on every one

/** Only letters and digits reach a tsquery's text; quoted as its parser wants. */
const lexeme = (w: string) => `'${w.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
const isWord = (w: string) => /^[\p{L}\p{N}]+$/u.test(w);

/** What a search looks for: the typed words (folded) and, in advanced mode, each one's look-alikes. */
type Terms = { typed: string[]; similar: string[][] };

/**
 * The typed words and, in advanced mode, each word's look-alikes in the company's vocabulary
 * (search_words, its trigram index: migration 0018).
 */
async function searchTerms(q: Scoped, text: string, advanced: boolean): Promise<Terms> {
  const typed = typedWords(text);
  if (!advanced || !typed.some(isWord)) return { typed, similar: [] };
  const rows = rowsOf<{ typed: string; word: string }>(
    await q.db.execute(sql`select t.typed, w.word from json_array_elements_text(${JSON.stringify(typed)}::json) as t(typed),
      lateral (select s.word from search_words s where s.company_id = ${q.companyId} and s.word % t.typed
        order by similarity(s.word, t.typed) desc, s.word limit ${literalCount(SIMILAR_PER_WORD)}) as w
      where length(t.typed) >= 3`),
  );
  const similar = typed.map((t) => rows.filter((r) => r.typed === t && isWord(r.word)).map((r) => r.word));
  return { typed, similar };
}

/** The lexemes of a tsquery's text ('reembols' | 'reembolso':*): the stems a search looked for. */
const lexemesOf = (query: string) => [...query.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"));

/** A message matching every typed word, each as typed or as one of its look-alikes. */
function similarQuery({ typed, similar }: Terms): string {
  return typed
    .map((t, i) => (isWord(t) ? `(${[`${lexeme(t)}:*`, ...(similar[i] ?? []).map(lexeme)].join(" | ")})` : ""))
    .filter(Boolean)
    .join(" & ");
}

type Page = { rows: SearchResult[]; count: number };

/**
 * The messages a search ranks: the newest this many matches the viewer may see (five pages of 20).
 * Ranking every match of a common word reads all of them (68k rows for "reembolso" in 1M messages:
 * 330 ms); the newest are found in a few thousand index entries, and each one more in the window is
 * more rows read on every search (an agent's window of 200 read 3,400 messages, of 100 half that:
 * the difference between 290 and 420 searches a second on 2 cores). totalCount counts this window too.
 */
export const SEARCH_WINDOW = 100;
/** The newest messages of the company a word is tried on to choose how its matches are found. */
const SAMPLE = 1000;
/** Matches in the sample from which walking the newest messages beats collecting every match. */
const DENSE = 20;
type Strategy = "walk" | "collect";
/**
 * charla_search_query's answer per typed text (an IMMUTABLE function: the same for every company and
 * call). Sent back as a parameter it spares the statement making it again (~0.25 ms of its ~2).
 */
const stemmedQueries = memoryCache(600_000, 5_000);
const strategies = memoryCache(30_000, 2_000);

/**
 * How a word's window is found, kept for a while per company and query: a common word (DENSE of the
 * newest SAMPLE messages match) is walked for, newest first, until the window is full; a rare one
 * collects its matches from messages_search_idx and keeps the newest. Either gives the same window;
 * this only chooses the cheaper way.
 */
async function strategyFor(q: Scoped, key: string, match: SQL): Promise<Strategy> {
  const cacheKey = `${q.companyId}\u0000${key}`;
  const kept = strategies.get<Strategy>(cacheKey);
  if (kept) return kept;
  const [{ n }] = rowsOf<{ n: number }>(
    await q.db.execute(sql`select count(*)::int as n from (select m.search from ${messages} m
      where m.company_id = ${q.companyId} and not m.is_deleted order by m.id desc limit ${literalCount(SAMPLE)}) as sample
      where sample.search @@ ${match}`),
  );
  const strategy: Strategy = Number(n) >= DENSE ? "walk" : "collect";
  strategies.set(cacheKey, strategy);
  return strategy;
}

/**
 * The window's messages. Staff's window is the company's newest SEARCH_WINDOW matches.
 * An agent's is taken conversation by conversation, the most recently active first (each one's
 * newest matches first): visibility is a property of tickets, and the newest messages of a company
 * are mostly in open tickets other agents serve, so walking messages would read and drop ~5 for
 * every one an agent may see (16,800 rows for 200 matches on the issue-9 workload; by tickets ~3,400).
 * Walking, the match is written so that the text-search index cannot serve it (coalesce), so the
 * planner follows the order's index and stops at the window.
 */
function windowHits(company: number, viewer: Viewer, match: SQL, strategy: Strategy): SQL {
  const cols = sql.raw("m.id, m.ticket_id, m.search, m.body, m.created_at, m.from_me, m.is_automatic");
  const visible = visibleTickets(viewer);
  if (!visible) {
    const matches = strategy === "walk" ? sql`coalesce(m.search @@ ${match}, false)` : sql`m.search @@ ${match}`;
    return sql`select ${cols} from ${messages} m where m.company_id = ${company} and not m.is_deleted and ${matches}
      order by m.id desc limit ${literalCount(SEARCH_WINDOW)}`;
  }
  const byActivity = sql`order by ${tickets.updatedAt} desc, ${tickets.id} desc, m.created_at desc, m.id desc limit ${literalCount(SEARCH_WINDOW)}`;
  if (strategy === "walk")
    return sql`select m.* from ${tickets} cross join lateral (select ${cols} from ${messages} m
        where m.company_id = ${company} and m.ticket_id = ${tickets.id} and not m.is_deleted and coalesce(m.search @@ ${match}, false)
        order by m.created_at desc, m.id desc limit ${literalCount(SEARCH_WINDOW)}) as m
      where ${tickets.companyId} = ${company} and ${visible} ${byActivity}`;
  return sql`select ${cols} from ${messages} m join ${tickets} on ${tickets.id} = m.ticket_id and ${tickets.companyId} = ${company}
    where m.company_id = ${company} and not m.is_deleted and m.search @@ ${match} and ${visible} ${byActivity}`;
}

/**
 * Messages of tickets the viewer may see (core §6, the tickets list's own rule: visibleTickets),
 * matching the words, stems and beginnings (charla_search_query, migration 0011), plus in advanced
 * mode the look-alikes: the newest SEARCH_WINDOW of them (windowHits), best first: exact words,
 * then stems, then look-alikes, each tier by ts_rank.
 */
async function searchMessages(q: Scoped, viewer: Viewer, f: Query, terms: Terms, take: number): Promise<Page> {
  const company = q.companyId;
  const similar = f.mode === "advanced" ? similarQuery(terms) : "";
  const match = (stemmed: SQL) => (similar ? sql`(${stemmed} || to_tsquery('simple', ${similar}))` : stemmed);
  const strategy = await strategyFor(q, `${f.mode}\u0000${f.q}`, match(sql`charla_search_query(${f.q})`));
  const hits = windowHits(company, viewer, sql`(select match from terms)`, strategy);
  // terms: each query made once (named in several places, charla_search_query would be made again for
  // each while the statement is planned: ~0.3 ms apiece); ranked first, the page's rows joined after
  const found = await q.db.execute(sql`with terms as materialized (
      select s.stemmed, s.exact, ${match(sql`s.stemmed`)} as match from (
        select coalesce(${stemmedQueries.get<string>(f.q) ?? null}::tsquery, charla_search_query(${f.q})) as stemmed,
          to_tsquery('simple', ${terms.typed.filter(isWord).map(lexeme).join(" & ")}) as exact offset 0) as s)
    select h.id, h.body, h.created_at as "createdAt", h.from_me as "fromMe", h.is_automatic as "isAutomatic",
      ${tickets.id} as "ticketId", ${tickets.uuid} as uuid, ${tickets.status} as status,
      ${contacts.id} as "contactId", ${contacts.name} as name, ${contacts.number} as number,
      h.relevance, h.n, (select stemmed::text from terms) as stemmed
    from (select h.id, h.ticket_id, h.body, h.created_at, h.from_me, h.is_automatic,
        ((case when h.search @@ (select exact from terms) then 0.6
          when h.search @@ (select stemmed from terms) then 0.4 else 0.2 end)
        + 0.4 * ts_rank(h.search, (select match from terms), 32))::float8 as relevance, count(*) over () as n
      from (${hits}) as h order by relevance desc, h.id desc limit ${literalCount(take)}) as h
    join ${tickets} on ${tickets.id} = h.ticket_id and ${tickets.companyId} = ${company}
    join ${contacts} on ${contacts.id} = ${tickets.contactId} and ${contacts.companyId} = ${company}
    order by h.relevance desc, h.id desc`);
  type Row = {
    id: number;
    body: string;
    createdAt: Date | string;
    fromMe: boolean;
    isAutomatic: boolean;
    ticketId: number;
    uuid: string;
    status: TicketStatus;
    contactId: number;
    name: string;
    number: string;
    relevance: number;
    n: number | string;
    stemmed: string;
  };
  const list = rowsOf<Row>(found);
  if (list[0]) stemmedQueries.set(f.q, list[0].stemmed);
  const highlightTerms = [...terms.typed, ...lexemesOf(list[0]?.stemmed ?? ""), ...terms.similar.flat()];
  const rows = list.map(
    (r): SearchResult => ({
      type: "message",
      relevance: Number(r.relevance),
      matchType: tierOf(Number(r.relevance)),
      highlightedBody: highlightSegments(r.body, highlightTerms),
      contact: { id: Number(r.contactId), name: r.name, number: r.number },
      message: {
        id: Number(r.id),
        body: r.body,
        createdAt: new Date(r.createdAt).toISOString(),
        fromMe: r.fromMe,
        isAutomatic: r.isAutomatic,
      },
      ticket: { id: Number(r.ticketId), uuid: r.uuid, status: r.status },
    }),
  );
  return { rows, count: Number(list[0]?.n ?? 0) };
}

const tierOf = (relevance: number): SearchMatchType => (relevance >= 0.6 ? "exact" : relevance >= 0.4 ? "stemmed" : "similar");

function visibility(viewer: Viewer): SQL {
  const visible = visibleTickets(viewer);
  return visible ? sql`and ${visible}` : sql``;
}

/**
 * Contacts of the company by name (accent-free part of it: contacts_name_unaccent_trgm_idx) or
 * number digits (contacts_number_trgm_idx); in advanced mode also names with a word alike (the same
 * trigram index, word_similarity). Each with its newest ticket the viewer may see, if any.
 */
async function searchContacts(q: Scoped, viewer: Viewer, f: Query, take: number): Promise<Page> {
  const company = q.companyId;
  const folded = foldText(f.q);
  const name = sql`lower(charla_unaccent(${contacts.name}))`;
  // the patterns as sub-selects: the planner then estimates every search alike and keeps one plan
  // (on the trigram indexes) instead of planning each call for its pattern (0.2–0.6 ms, 20 times the run)
  const part = sql`(select ${`%${escapeLike(folded)}%`}::text)`;
  const digits = /^[\d\s+().-]+$/.test(f.q) ? normalizeNumber(f.q) : "";
  const byNumber = digits.length >= 3 ? sql` or ${contacts.number} like (select ${`%${escapeLike(digits)}%`}::text)` : sql``;
  const bySimilar = f.mode === "advanced" ? sql` or (select ${folded}::text) <% ${name}` : sql``;
  const where = sql`${contacts.companyId} = ${company} and (${name} like ${part}${byNumber}${bySimilar})`;
  const contains = sql`(${name} like ${part}${byNumber})`;
  const relevance = sql`(case when ${contains} then 0.6 + 0.4 * similarity(${name}, ${folded})
    else 0.2 + 0.4 * word_similarity(${folded}, ${name}) end)`;
  // ranked and counted in one pass over the matches (the count before the limit), then each of the
  // page's contacts gets its ticket
  const found = await q.db.execute(sql`select x.*, t.id as "ticketId", t.uuid, t.status from (
      select ${contacts.id} as id, ${contacts.name} as name, ${contacts.number} as number,
        ${relevance}::float8 as relevance, count(*) over () as n
      from ${contacts} where ${where} order by relevance desc, ${contacts.id} desc limit ${literalCount(take)}) as x
    left join lateral (select ${tickets.id} as id, ${tickets.uuid} as uuid, ${tickets.status} as status
      from ${tickets} where ${tickets.companyId} = ${company} and ${tickets.contactId} = x.id ${visibility(viewer)}
      order by ${tickets.updatedAt} desc limit 1) as t on true
    order by x.relevance desc, x.id desc`);
  type Row = {
    id: number;
    name: string;
    number: string;
    relevance: number;
    n: number | string;
    ticketId: number | null;
    uuid: string | null;
    status: TicketStatus | null;
  };
  const list = rowsOf<Row>(found);
  const rows = list.map(
    (r): SearchResult => ({
      type: "contact",
      relevance: Number(r.relevance),
      matchType: Number(r.relevance) >= 0.6 ? "exact" : "similar",
      highlightedBody: highlightSegments(r.name, typedWords(f.q)),
      contact: { id: Number(r.id), name: r.name, number: r.number },
      message: null,
      ticket: r.ticketId !== null && r.uuid && r.status ? { id: Number(r.ticketId), uuid: r.uuid, status: r.status } : null,
    }),
  );
  return { rows, count: Number(list[0]?.n ?? 0) };
}

/**
 * One page of the global search, contacts and messages merged by relevance. Each kind gives its
 * best `offset + limit + 1` (its own order), which holds every row of the merged page. totalCount:
 * every matching contact, plus the messages of the window (at most SEARCH_WINDOW, the newest).
 */
export async function searchPage(q: Scoped, viewer: Viewer, f: Query) {
  const offset = (f.page - 1) * f.limit;
  const take = offset + f.limit + 1;
  const none: Page = { rows: [], count: 0 };
  const terms = await searchTerms(q, f.q, f.mode === "advanced");
  const hasWords = terms.typed.some(isWord);
  const [found, people] = await Promise.all([
    f.type !== "contacts" && hasWords ? searchMessages(q, viewer, f, terms, take) : none,
    f.type !== "messages" ? searchContacts(q, viewer, f, take) : none,
  ]);
  const merged = [...people.rows, ...found.rows].sort((a, b) => b.relevance - a.relevance);
  return {
    results: merged.slice(offset, offset + f.limit),
    totalCount: found.count + people.count,
    hasMore: merged.length > offset + f.limit,
  };
}
