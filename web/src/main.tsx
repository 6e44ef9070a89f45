import { beginStartupRefresh, startupRefresh } from "./api/client";
import { preloadAuthTexts } from "./i18n/texts";
import { readToken } from "./lib/storage";
import { prefetchPageData } from "./routes/page-data";
import { loadLoginPage, preloadSignedIn } from "./routes/pages";

/*
 * The page's first script, kept small: what the first screen waits on leaves at once, while the app's
 * code (boot.tsx, whose chunks index.html preloads) is still arriving: the first screen's texts and,
 * with a stored session, the token refresh, the shell's and the page's code, and the page's first
 * data as soon as the refresh is back (before React renders the session).
 */
if (readToken()) {
  beginStartupRefresh();
  preloadSignedIn(window.location.pathname);
  prefetchPageData(window.location.pathname, startupRefresh(), window.location.search);
} else {
  void loadLoginPage().catch(() => undefined);
}
preloadAuthTexts();
void import("./boot");
