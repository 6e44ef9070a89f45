import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe("web shell", () => {
  it("logs in, sees the greeting, creates a user, logs out; that user sees only the agent menu", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await expect.poll(() => page.getByTestId("greeting").textContent(), { timeout: 15_000 }).toMatch(/Admin/);
    expect(await page.getByTestId("greeting").textContent()).toMatch(/Empresa 1/);
    expect(await page.getByTestId("menu-users").count()).toBe(1);

    await page.getByTestId("menu-users").click();
    await page.waitForURL(/\/users$/);
    await page.getByTestId("users-add").click();
    await input(page, "user-name").fill("Agente Prueba");
    await input(page, "user-email").fill("agente@e2e.test");
    await input(page, "user-password").fill("agente-123");
    await page.getByTestId("user-save").click();
    await expect
      .poll(() => page.getByTestId("users-row").filter({ hasText: "agente@e2e.test" }).count(), { timeout: 10_000 })
      .toBe(1);

    await page.getByTestId("user-menu-button").click();
    await page.getByTestId("logout").click();
    await page.waitForURL(/\/login$/);
    await context.close();

    const agent = await newPage(browser);
    await loginThroughUi(agent.page, server.url, "agente@e2e.test", "agente-123");
    await expect.poll(() => agent.page.getByTestId("greeting").textContent(), { timeout: 15_000 }).toMatch(/Agente Prueba/);
    expect(await agent.page.getByTestId("menu-todolist").count()).toBe(1);
    expect(await agent.page.getByTestId("menu-users").count()).toBe(0);
    expect(await agent.page.getByTestId("menu-settings").count()).toBe(0);
    // the API refuses what the menu hides
    await agent.page.goto(`${server.url}/users`);
    expect(await agent.page.getByTestId("users-table").count()).toBe(0);
    await agent.context.close();
  });

  it("refuses a company whose subscription expired, naming the date", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const plans = await api<{ id: number }[]>(server.url, "GET", "/plans/list");
    await api(
      server.url,
      "POST",
      "/companies",
      { name: "Vencida SA", email: "vencida@e2e.test", password: "vencida-123", planId: plans[0].id, dueDate: "2024-03-09" },
      token,
    );
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, "vencida@e2e.test", "vencida-123");
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("09/03/2024");
    expect(page.url()).toMatch(/\/login$/);
    await context.close();
  });

  it("a login elsewhere ends this session: the message shows, then storage is cleared and the page reloads", async () => {
    const first = await newPage(browser);
    await loginThroughUi(first.page, server.url, ADMIN.email, ADMIN.password);
    await first.page.getByTestId("greeting").waitFor();
    // the notice is on screen for 1 s, often before the second page has even drawn itself: the first
    // page notes when it shows (sessionStorage outlives the reload that follows)
    await first.page.evaluate(() => {
      new MutationObserver(() => {
        if (
          document.body.textContent?.includes("Sua conta foi acessada em outro computador.") &&
          !sessionStorage.getItem("notice")
        )
          sessionStorage.setItem("notice", String(Date.now()));
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await waitForLive(first.page);
    const second = await newPage(browser);
    await loginThroughUi(second.page, server.url, ADMIN.email, ADMIN.password);
    await second.page.getByTestId("greeting").waitFor();
    await first.page.waitForURL(/\/login$/, { timeout: 10_000 });
    const shown = Number(await first.page.evaluate(() => sessionStorage.getItem("notice")));
    expect(shown).toBeGreaterThan(0);
    expect(await first.page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    // the newer session is untouched
    await second.page.reload();
    await second.page.getByTestId("greeting").waitFor();
    await first.context.close();
    await second.context.close();
  });

  it("keeps the chosen theme across reloads", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("theme-toggle").waitFor();
    const before = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await Promise.all([page.waitForEvent("load"), page.getByTestId("theme-toggle").click()]);
    await page.getByTestId("theme-toggle").waitFor();
    const stored = await page.evaluate(() => localStorage.getItem("preferredTheme"));
    expect(stored).toMatch(/dark|light/);
    const after = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(after).not.toBe(before);
    await page.reload();
    await page.getByTestId("theme-toggle").waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(after);
    expect(await page.evaluate(() => localStorage.getItem("preferredTheme"))).toBe(stored);
    await context.close();
  });
});
