import { beginStartupRefresh, startupRefresh } from "./api/client";
import { holdListsUntil } from "./api/ticket-lists";
import { preloadAuthTexts } from "./i18n/texts";
import { readToken } from "./lib/storage";
import { joinEarly } from "./realtime/early";
import { prefetchPageData } from "./routes/page-data";
import { loadLoginPage, preloadSignedIn } from "./routes/pages";

/*
 * The page's first script, kept small: what the first screen waits on leaves at once, while the app's
 * code (boot.tsx, whose chunks index.html preloads) is still arriving: the first screen's texts and,
 * with a stored session, the token refresh, the shell's and the page's code, the socket as soon as the
 * refresh is back, and the page's first data once the socket has joined its rooms (before React renders
 * the session), so those lists need no second read after the join.
 */
if (readToken()) {
  beginStartupRefresh();
  preloadSignedIn(window.location.pathname);
  const session = joinEarly(startupRefresh());
  prefetchPageData(window.location.pathname, session, window.location.search);
  // after prefetchPageData's own wait on `session`: the lists' queries find its answers when they go on
  holdListsUntil(session);
} else {
  void loadLoginPage().catch(() => undefined);
}
preloadAuthTexts();
void import("./boot");
