import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig, type HtmlTagDescriptor, type Plugin } from "vite";
import { ErrorCatalogue, errorCodes } from "../contracts/src/errors.ts";

// The API and the socket live on the server's port; in dev and preview they are proxied so the app stays same-origin.
const backend = "http://localhost:8080";
const proxy = {
  "/api": { target: backend, changeOrigin: true },
  "/socket.io": { target: backend, changeOrigin: true, ws: true },
};

/**
 * main.tsx is small and loads the app (boot.tsx) with import(), so the token refresh and the first
 * texts leave before the app's code has arrived. Vite preloads only an entry's static imports from
 * index.html; this adds boot's chunks (and theirs), so they still start downloading with the page.
 */
function preloadBoot(): Plugin {
  return {
    name: "charla-preload-boot",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((item) => item.type === "chunk");
        const boot = chunks.find((chunk) => chunk.facadeModuleId?.endsWith("/src/boot.tsx"));
        if (!boot) throw new Error("preloadBoot: no chunk for src/boot.tsx");
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          for (const imported of chunks.find((chunk) => chunk.fileName === file)?.imports ?? []) visit(imported);
        };
        visit(boot.fileName);
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map<HtmlTagDescriptor>((file) => ({
            tag: "link",
            attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
            injectTo: "head",
          }));
      },
    },
  };
}

/**
 * `virtual:error-texts/<language>`: the `errors` namespace of one language, taken from the contracts'
 * catalogue (the one source, shared with the API) when the app is built, so the web sends a browser
 * one language's error texts instead of the whole catalogue. A change to the catalogue restarts the
 * dev server (a config dependency).
 */
function errorTexts(): Plugin {
  const prefix = "virtual:error-texts/";
  return {
    name: "charla-error-texts",
    resolveId: (id) => (id.startsWith(prefix) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return;
      const language = id.slice(prefix.length + 1);
      if (language !== "es" && language !== "pt" && language !== "en") throw new Error(`no error texts for ${language}`);
      const texts = Object.fromEntries(errorCodes.map((code) => [code, ErrorCatalogue[code][language]]));
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}

/**
 * Vite writes into the chunk that imports another the list of that chunk's own imports, to fetch them
 * all at once. The entry script can start any page (routes/pages.ts), so it carried every page's list:
 * ~0.8 KB compressed more for the login page and the inbox with each page added. Only the first
 * screens keep theirs (the inbox, a conversation, the login page; the shell and the app are not
 * pages): the others, opened later or reloaded, fetch their few own imports when their chunk arrives
 * (the shared ones are the shell's, already there).
 */
const laterPage = /(^|\/)(?!TicketsPage-|LoginPage-)[A-Z][A-Za-z]*Page-[\w-]+\.js$/;
const resolveDependencies = (file: string, deps: string[]) => (laterPage.test(file) ? [] : deps);

export default defineConfig({
  plugins: [react(), preloadBoot(), errorTexts()],
  // "source" first: @charla/contracts is consumed from its TypeScript sources, no prior build needed.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    modulePreload: { resolveDependencies },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What every screen runs (React, the router, the query cache, i18next, MUI's styling engine)
            // as one chunk: left to the automatic split it came in a dozen pieces that compress worse
            // and cost a request each (issue 9: ~3 KB less for the login page, ~6 KB for the inbox).
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|i18next|react-i18next|@emotion[\\/][^\\/]+|stylis|@mui[\\/](system|utils|styled-engine|private-theming)|react-is|clsx|prop-types|hoist-non-react-statics|@babel[\\/]runtime|react-transition-group)[\\/]/,
            },
            // The app's small modules every signed-in screen runs, as two chunks: left apart they came as
            // a dozen chunks of 0.1–1 KB, each with its own imports and worse compression (~5 KB less for
            // the inbox, the login page unchanged). Whole areas (pages, api collections) stay apart.
            // `first`: what main.tsx runs before the app (the API client, the first lists' requests, the
            // socket's join bookkeeping, contracts' constants). It must not import the framework: the
            // entry runs only once its static imports have, and with React and MUI among them the token
            // refresh and the socket left ~250 ms later (parsed and run 430 KB first).
            {
              name: "first",
              test: /[\\/](web[\\/]src[\\/](realtime[\\/](joins|reads|early)|api[\\/](client|ticket-lists)|auth[\\/]subject|lib[\\/](storage|loader))|contracts[\\/]src[\\/](events|permissions|limits|numbers|setting-definitions))\.tsx?$/,
            },
            // `app-core`: the small shared modules that need React or the query cache.
            {
              name: "app-core",
              test: /[\\/]web[\\/]src[\\/](realtime[\\/]context|api[\\/](query-client|collection|live-order)|auth[\\/]context|lib[\\/](lazy-loaded|save-blob))\.tsx?$/,
            },
          ],
        },
      },
    },
  },
});
