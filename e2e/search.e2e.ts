import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe("global search", () => {
  it("Ctrl+K, a word, the arrows and Enter open the ticket at the message found; Escape clears", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const [simulator] = await api<{ id: number }[]>(server.url, "GET", "/whatsapp", undefined, token);
    const say = (number: string, body: string) =>
      api<{ ticketId: number; messageId: number }>(
        server.url,
        "POST",
        `/simulator/${simulator.id}/inbound`,
        { number, body },
        token,
      );
    await say("5215530000001", "Buenas tardes, consulta general");
    const target = await say("5215530000002", "Quiero un reembolso de mi compra del martes");
    // later messages push the one found out of the conversation's first page
    for (let i = 0; i < 30; i++) await say("5215530000002", `Mensaje de relleno número ${i}`);
    await say("5215530000003", "Otra pregunta sobre envíos");

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets/);
    await page.getByTestId("tickets-tab-search").waitFor({ timeout: 15_000 });

    await page.keyboard.press("Control+k");
    const field = input(page, "global-search");
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.fill("re");
    await page.getByTestId("global-search-empty").waitFor();
    // accents and word forms do not matter: "reembolsos" finds "reembolso"
    await field.fill("reembolsos");
    const results = page.getByTestId("global-search-result");
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await results.first().textContent()).toContain("reembolso");
    await page.keyboard.press("End");
    await page.keyboard.press("Home");
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`messageId=${target.messageId}`), { timeout: 10_000 });
    await page.locator(`[data-message-id="${target.messageId}"]`).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator(`[data-message-id="${target.messageId}"]`).isVisible(), { timeout: 10_000 }).toBe(true);

    // back on the search tab, Escape clears it
    await page.keyboard.press("Control+k");
    await field.fill("consulta");
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.keyboard.press("Escape");
    await expect.poll(() => field.inputValue()).toBe("");
    await context.close();
  }, 120_000);
});
