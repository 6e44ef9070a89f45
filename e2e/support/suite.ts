import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launch } from "./browser.js";
import { type RunningServer, startServer } from "./server.js";

/** One fresh Charla server and one browser for a test file, stopped when the file ends. */
export function withServerAndBrowser(
  ready: (server: RunningServer, browser: Browser) => void,
  env: Record<string, string> = {},
): void {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launch();
    ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}
