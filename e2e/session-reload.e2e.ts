import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

// A reload starts the session's refresh and the page's code together (main.tsx): both outcomes must hold.
describe("reloading with a stored session", () => {
  it("lands on the same screen when the session is alive, and on the login page once it was ended elsewhere", async () => {
    const { context, page } = await newPage(browser);
    const refreshes: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/v1/auth/refresh_token")) refreshes.push(r.url());
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets$/);

    await page.reload();
    await page.getByTestId("greeting").waitFor({ timeout: 15_000 });
    expect(page.url()).toMatch(/\/tickets$/);
    // one refresh for the reload, not one from start-up and another from the session provider
    expect(refreshes).toHaveLength(1);

    // a login elsewhere ends this browser's session: the next reload's refresh is refused
    await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await page.reload();
    await page.waitForURL(/\/login$/, { timeout: 15_000 });
    // the open page also hears of the other login and reloads by itself (core §4): read once it settles
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem("token")).catch(() => "navigating"), { timeout: 10_000 })
      .toBeNull();
    expect(page.url()).toMatch(/\/login$/);
    await context.close();
  });
});
