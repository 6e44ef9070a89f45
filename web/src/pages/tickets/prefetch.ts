import type { SessionUser } from "@charla/contracts";
import { prefetchFirstPage } from "../../api/ticket-lists";
import { firstListFilters } from "./list-filters";

/**
 * A page load on /tickets (or a login landing there) asks for the open tab's two lists as soon as the
 * session is known, while the screen's code is still arriving; the lists' queries take these answers.
 * Nothing here needs React or the query cache: it is part of main.tsx's first script, so the requests
 * leave the moment the refresh is back.
 */
export function prefetch(user: SessionUser, search: string): void {
  // the screen's text search lives in the URL (`search`), as TicketsManager reads it
  const filters = firstListFilters(user, new URLSearchParams(search).get("search") ?? "");
  prefetchFirstPage(filters.assigned);
  prefetchFirstPage(filters.pending);
}
