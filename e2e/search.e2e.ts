import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { setUpTwoLevelBot } from "./support/chatbot.js";
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

  it("message bodies read as in the chat everywhere: search results, the peek dialog and the delete confirmation", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const bot = await setUpTwoLevelBot(server.url, token, {
      welcome: "Bienvenido a *Pedidosya*, elija un área:",
      ventas: "Ventas",
      soporte: "Soporte",
      ventasGreeting: "",
      precios: "Precios",
      leaf: "Mayoristas",
    });
    const number = "5215530000042";
    const said = await api<{ ticketId: number }>(
      server.url,
      "POST",
      `/simulator/${bot.simulatorId}/inbound`,
      {
        number,
        body: "Hola, mis *pedidosya* llegaron ~tarde~",
      },
      token,
    );
    await api(server.url, "PUT", `/tickets/${said.ticketId}`, { status: "open" }, token);
    await api(server.url, "POST", `/messages/${said.ticketId}`, { body: "Revisamos sus *pedidosya* ~hoy~" }, token);
    await bot.reset();
    const ticket = await api<{ uuid: string }>(server.url, "GET", `/tickets/${said.ticketId}`, undefined, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets/);
    await page.getByTestId("tickets-tab-search").click();
    const field = input(page, "global-search");
    await field.fill("pedidosya");
    const results = page.getByTestId("global-search-result");
    // the contact, the bot's welcome and the staff's answer
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(3);
    const bodies = page.getByTestId("global-search-body");
    const texts = await bodies.allTextContents();
    // no raw markers: bold and strike as elements, the word found marked inside the bold
    for (const text of texts) expect(text).not.toMatch(/[*~]/);
    const customer = bodies.filter({ hasText: "llegaron" });
    expect(await customer.locator("strong").textContent()).toBe("pedidosya");
    expect(await customer.locator("strong mark").textContent()).toBe("pedidosya");
    expect(await customer.locator("s").textContent()).toBe("tarde");
    // the bot's message is the bot's, the staff's is "Tú"
    const welcome = bodies.filter({ hasText: "Bienvenido" });
    expect(await welcome.getByTestId("global-search-automatic").count()).toBe(1);
    expect(await welcome.textContent()).toMatch(/^Bot: Bienvenido a Pedidosya/);
    const answer = bodies.filter({ hasText: "Revisamos" });
    expect(await answer.textContent()).toBe("Tú: Revisamos sus pedidosya hoy");
    expect(await customer.textContent()).toBe("Hola, mis pedidosya llegaron tarde");
    // today's messages by their time as the chat shows it (HH:mm), the contact by its formatted number
    for (const meta of await page.getByTestId("global-search-meta").allTextContents()) expect(meta).toMatch(/^\d{2}:\d{2}$/);
    await field.fill("");
    await field.fill("5215530000042");
    // a contact without a name goes by its number, written as everywhere else
    await expect.poll(() => results.first().textContent(), { timeout: 15_000 }).toContain("+52 1 55 3000 0042");
    expect(await results.first().textContent()).not.toContain("5215530000042");

    // the admin's peek at the conversation
    await page.getByTestId("tickets-tab-open").click();
    const row = page.locator(`[data-testid="ticket-item"][data-ticket-id="${said.ticketId}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.getByTestId("ticket-item-peek").click();
    const peek = page.getByTestId("peek-dialog");
    await expect.poll(() => peek.getByTestId("peek-message").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    for (const text of await peek.getByTestId("peek-message").allTextContents()) expect(text).not.toMatch(/[*~]/);
    expect(await peek.locator("strong").allTextContents()).toEqual(expect.arrayContaining(["pedidosya", "Pedidosya"]));
    expect(await peek.locator("s").allTextContents()).toEqual(["tarde", "hoy"]);
    await page.getByTestId("peek-close").click();

    // deleting one's own message names it as the bubble shows it
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    const bubble = page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Revisamos" });
    await bubble.waitFor({ timeout: 15_000 });
    await bubble.hover();
    await bubble.getByTestId("message-menu").click();
    await page.getByTestId("message-delete").click();
    const dialog = page.getByTestId("confirm-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Se eliminará para todos: «Revisamos sus pedidosya hoy»");
    expect(await dialog.locator("strong").textContent()).toBe("pedidosya");
    expect(await dialog.locator("s").textContent()).toBe("hoy");
    await page.getByTestId("confirm-cancel").click();
    await context.close();
  }, 120_000);
});
