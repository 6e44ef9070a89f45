import { beginStartupRefresh, startupRefresh } from "./api/client";
import { holdListsUntil } from "./api/ticket-lists";
import { preloadAuthTexts } from "./i18n/texts";
import { readToken } from "./lib/storage";
import { joinEarly } from "./realtime/early";
import { prefetchPageData } from "./routes/page-data";
import { loadLoginPage, preloadSignedIn } from "./routes/pages";

/*
 * The page's first script, kept small and free of the framework (its chunks import none: vite.config.ts
 * `first`): what the first screen waits on leaves at once, while the app's code (boot.tsx, whose chunks
 * index.html preloads) is still arriving: the first screen's texts and, with a stored session, the
 * socket (connected with the stored token) beside the token refresh, the shell's and the page's code,
 * and the page's first data once both are back (before React renders the session), so those lists
 * need no second read after the join.
 */
const token = readToken();
if (token) {
  beginStartupRefresh();
  const session = joinEarly(startupRefresh(), token);
  preloadSignedIn(window.location.pathname);
  prefetchPageData(window.location.pathname, session, window.location.search);
  // after prefetchPageData's own wait on `session`: the lists' queries find its answers when they go on
  holdListsUntil(session);
} else {
  void loadLoginPage().catch(() => undefined);
}
preloadAuthTexts();
void import("./boot");
