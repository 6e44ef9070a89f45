import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { authTextsReady } from "./i18n";
import { readToken } from "./lib/storage";
import { preloadSignedInRoutes } from "./routes/AppRouter";

// a reload with a stored session (main.tsx started the refresh, the code and the first data): the
// shell renders at once when it has arrived
if (readToken()) preloadSignedInRoutes();

// the first paint already has its texts: no keys, no other language for a moment
void authTextsReady.then(() => {
  const root = document.getElementById("root");
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }
});
