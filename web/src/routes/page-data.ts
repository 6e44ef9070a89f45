import type { AuthResponse, SessionUser } from "@charla/contracts";
import { prefetch as prefetchTickets } from "../pages/tickets/prefetch";
import type { pages } from "./pages";

/*
 * The data a page shows first, asked for the moment the session is known, not once the page has
 * rendered. Part of main.tsx's small first script (no React, no query cache in it): a separate chunk
 * would queue behind the app's code on the browser's few connections and miss that moment.
 */
const firstData: Partial<Record<keyof typeof pages, (user: SessionUser, search: string) => void>> = {
  tickets: prefetchTickets,
};

/** Asks for the first data of the page at `pathname` (its query string in `search`) when `session` resolves. */
export function prefetchPageData(pathname: string, session: Promise<AuthResponse>, search = ""): void {
  const prefetch = firstData[(pathname.split("/")[1] || "home") as keyof typeof pages];
  if (!prefetch) return;
  session.then(
    (auth) => prefetch(auth.user, search),
    () => undefined,
  );
}
