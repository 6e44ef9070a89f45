import { normalizeNumber, type SearchMatchType, type SearchResult, type TicketStatus } from "@charla/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
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

type Terms = { typed: string[]; stems: string[]; similar: string[][] };

/**
 * The typed words, their stems in Spanish and Portuguese (for the highlights) and, in advanced mode,
 * each word's look-alikes in the company's vocabulary (search_words, its trigram index: migration 0018).
 */
async function searchTerms(q: Scoped, text: string, advanced: boolean): Promise<Terms> {
  const typed = typedWords(text);
  const [{ stems }] = rowsOf<{ stems: string[] }>(
    await q.db.execute(sql`select tsvector_to_array(charla_search_vector(${text})) as stems`),
  );
  if (!advanced) return { typed, stems, similar: [] };
  const rows = rowsOf<{ typed: string; word: string }>(
    await q.db.execute(sql`select t.typed, w.word from json_array_elements_text(${JSON.stringify(typed)}::json) as t(typed),
      lateral (select s.word from search_words s where s.company_id = ${q.companyId} and s.word % t.typed
        order by similarity(s.word, t.typed) desc, s.word limit ${SIMILAR_PER_WORD}) as w
      where length(t.typed) >= 3`),
  );
  const similar = typed.map((t) => rows.filter((r) => r.typed === t && isWord(r.word)).map((r) => r.word));
  return { typed, stems, similar };
}

/** A message matching every typed word, each as typed or as one of its look-alikes. */
function similarQuery(terms: Terms): string {
  return terms.typed
    .filter(isWord)
    .map((t, i) => `(${[`${lexeme(t)}:*`, ...(terms.similar[i] ?? []).map(lexeme)].join(" | ")})`)
    .join(" & ");
}

type Page = { rows: SearchResult[]; count: number };

/**
 * The messages a search ranks: the newest this many matches the viewer may see. Ranking every match
 * of a common word reads all of them (68k rows for "reembolso" in 1M messages: 330 ms); the newest
 * 200 are found in a few thousand index entries. totalCount counts this window too.
 */
export const SEARCH_WINDOW = 200;
/** The newest messages of the company a word is tried on to choose how its matches are found. */
const SAMPLE = 1000;
/** Matches in the sample from which walking the newest messages beats collecting every match. */
const DENSE = 20;
type Strategy = "walk" | "collect";
const strategies = memoryCache(30_000, 2_000);

/**
 * How a word's window is found, kept for a while per company and query: a common word (DENSE of the
 * newest SAMPLE messages match) walks the company's messages newest first (messages_company_id_idx)
 * until the window is full; a rare one collects its matches from messages_search_idx and keeps the
 * newest. Either gives the same window; this only chooses the cheaper way.
 */
async function strategyFor(q: Scoped, key: string, matchQuery: SQL): Promise<Strategy> {
  const cacheKey = `${q.companyId}\u0000${key}`;
  const kept = strategies.get<Strategy>(cacheKey);
  if (kept) return kept;
  const [{ n }] = rowsOf<{ n: number }>(
    await q.db.execute(sql`select count(*)::int as n from (select m.search from ${messages} m
      where m.company_id = ${q.companyId} and not m.is_deleted order by m.id desc limit ${SAMPLE}) as sample
      where sample.search @@ (select ${matchQuery})`),
  );
  const strategy: Strategy = Number(n) >= DENSE ? "walk" : "collect";
  strategies.set(cacheKey, strategy);
  return strategy;
}

/**
 * Messages of tickets the viewer may see (core §6, the tickets list's own rule: visibleTickets),
 * matching the words, stems and beginnings (charla_search_query, migration 0011), plus in advanced
 * mode the look-alikes: the newest SEARCH_WINDOW of them, best first: exact words, then stems, then
 * look-alikes, each tier by ts_rank.
 */
async function searchMessages(q: Scoped, viewer: Viewer, f: Query, terms: Terms, take: number): Promise<Page> {
  const company = q.companyId;
  const similar = f.mode === "advanced" ? similarQuery(terms) : "";
  const matchQuery = similar
    ? sql`(charla_search_query(${f.q}) || to_tsquery('simple', ${similar}))`
    : sql`charla_search_query(${f.q})`;
  const exactQuery = sql`to_tsquery('simple', ${terms.typed.filter(isWord).map(lexeme).join(" & ")})`;
  const strategy = await strategyFor(q, `${f.mode}\u0000${f.q}`, matchQuery);
  // walking, the match is written so that the text-search index cannot serve it: the planner then
  // reads the company's messages newest first and stops at the window
  const matches =
    strategy === "walk" ? sql`coalesce(m.search @@ (select ${matchQuery}), false)` : sql`m.search @@ (select ${matchQuery})`;
  const visible = visibleTickets(viewer);
  const hits = visible
    ? sql`select m.* from ${messages} m join ${tickets} on ${tickets.id} = m.ticket_id and ${tickets.companyId} = ${company}
        where m.company_id = ${company} and not m.is_deleted and ${matches} and ${visible}
        order by m.id desc limit ${SEARCH_WINDOW}`
    : sql`select m.* from ${messages} m where m.company_id = ${company} and not m.is_deleted and ${matches}
        order by m.id desc limit ${SEARCH_WINDOW}`;
  const relevance = sql`(case when h.search @@ (select ${exactQuery}) then 0.6
      when h.search @@ (select charla_search_query(${f.q})) then 0.4 else 0.2 end
    + 0.4 * ts_rank(h.search, (select ${matchQuery}), 32))`;
  const found = await q.db.execute(sql`select h.id, h.body, h.created_at as "createdAt", h.from_me as "fromMe",
      ${tickets.id} as "ticketId", ${tickets.uuid} as uuid, ${tickets.status} as status,
      ${contacts.id} as "contactId", ${contacts.name} as name, ${contacts.number} as number,
      ${relevance}::float8 as relevance, count(*) over () as n
    from (${hits}) as h
    join ${tickets} on ${tickets.id} = h.ticket_id and ${tickets.companyId} = ${company}
    join ${contacts} on ${contacts.id} = ${tickets.contactId} and ${contacts.companyId} = ${company}
    order by relevance desc, h.id desc limit ${take}`);
  const highlightTerms = [...terms.typed, ...terms.stems, ...terms.similar.flat()];
  type Row = {
    id: number;
    body: string;
    createdAt: Date | string;
    fromMe: boolean;
    ticketId: number;
    uuid: string;
    status: TicketStatus;
    contactId: number;
    name: string;
    number: string;
    relevance: number;
    n: number | string;
  };
  const list = rowsOf<Row>(found);
  const rows = list.map(
    (r): SearchResult => ({
      type: "message",
      relevance: Number(r.relevance),
      matchType: tierOf(Number(r.relevance)),
      highlightedBody: highlightSegments(r.body, highlightTerms),
      contact: { id: Number(r.contactId), name: r.name, number: r.number },
      message: { id: Number(r.id), body: r.body, createdAt: new Date(r.createdAt).toISOString(), fromMe: r.fromMe },
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
  const part = `%${escapeLike(folded)}%`;
  const digits = /^[\d\s+().-]+$/.test(f.q) ? normalizeNumber(f.q) : "";
  const byNumber = digits.length >= 3 ? sql` or ${contacts.number} like ${`%${escapeLike(digits)}%`}` : sql``;
  const bySimilar = f.mode === "advanced" ? sql` or ${folded} <% ${name}` : sql``;
  const where = sql`${contacts.companyId} = ${company} and (${name} like ${part}${byNumber}${bySimilar})`;
  const contains = sql`(${name} like ${part}${byNumber})`;
  const relevance = sql`(case when ${contains} then 0.6 + 0.4 * similarity(${name}, ${folded})
    else 0.2 + 0.4 * word_similarity(${folded}, ${name}) end)`;
  // ranked and counted in one pass over the matches (the count before the limit), then each of the
  // page's contacts gets its ticket
  const found = await q.db.execute(sql`select x.*, t.id as "ticketId", t.uuid, t.status from (
      select ${contacts.id} as id, ${contacts.name} as name, ${contacts.number} as number,
        ${relevance}::float8 as relevance, count(*) over () as n
      from ${contacts} where ${where} order by relevance desc, ${contacts.id} desc limit ${take}) as x
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
