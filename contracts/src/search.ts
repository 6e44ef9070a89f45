import { z } from "zod";
import { text } from "./common.js";
import { Limits } from "./limits.js";
import type { TicketStatus } from "./tickets.js";

export const SearchTypes = ["all", "contacts", "messages"] as const;
export type SearchType = (typeof SearchTypes)[number];
/** simple: words, their stems and beginnings; advanced: also words spelled alike (typos). */
export const SearchModes = ["simple", "advanced"] as const;
export type SearchMode = (typeof SearchModes)[number];

/** GET /search (core §2 Global search, §7, §9): at least 3 characters, pages of at most 20. */
export const SearchQuery = z.object({
  q: text().trim().min(Limits.searchMin).max(200),
  type: z.enum(SearchTypes).optional().default("all"),
  mode: z.enum(SearchModes).optional().default("simple"),
  page: z.coerce.number().int().min(1).max(1000).optional().default(1),
  limit: z.coerce.number().int().min(1).max(Limits.pageSize).optional().default(Limits.pageSize),
});
export type SearchQuery = z.input<typeof SearchQuery>;

/** At most this many highlighted parts in one result (core §9). */
export const SearchMaxHighlights = 10;

/** A piece of a result's text; the screen renders it as text, never as HTML. */
export type SearchSegment = { text: string; highlight: boolean };
/** exact: the words as typed; stemmed: another form of them; similar: spelled alike (advanced mode). */
export type SearchMatchType = "exact" | "stemmed" | "similar";

/** One search result (core §3 Search result). */
export type SearchResult = {
  type: "contact" | "message";
  relevance: number;
  matchType: SearchMatchType;
  highlightedBody: SearchSegment[];
  contact: { id: number; name: string; number: string };
  /** isAutomatic: sent by the bot (greeting, options, out of hours), marked as the chat marks it. */
  message: { id: number; body: string; createdAt: string; fromMe: boolean; isAutomatic: boolean } | null;
  ticket: { id: number; uuid: string; status: TicketStatus } | null;
};

export type SearchPage = { results: SearchResult[]; totalCount: number; hasMore: boolean };
