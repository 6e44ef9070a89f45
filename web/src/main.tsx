import "./i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { beginStartupRefresh } from "./api/client";
import { readToken } from "./lib/storage";
import { preloadSignedIn } from "./routes/AppRouter";

// a reload with a stored session: the token's refresh and the page's chunks start at once, together
if (readToken()) {
  beginStartupRefresh();
  preloadSignedIn(window.location.pathname);
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
