import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type BotTexts, setUpTwoLevelBot } from "./support/chatbot.js";
import { loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, api, apiLogin, type RunningServer } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

/*
 * Issue 26: a ticket still at the chatbot's area choice is shown to the agents of the connection's
 * areas with the robot, read-only (no accept, the conversation in the peek dialog, the chat's composer
 * replaced by a notice) until the contact picks an area; then the normal rule applies, live.
 */

type Ticket = { id: number; uuid: string; status: string; queueId: number | null; chatbot: boolean };
type Inbound = { ticketId: number };

const AGENT = { name: "Agente Soporte", email: "agente-soporte@e2e.test", password: "agente-123" };
const TEXTS: BotTexts = {
  welcome: "Bienvenido, elige un área:",
  ventas: "Ventas",
  soporte: "Soporte",
  ventasGreeting: "Hola, esto es Ventas",
  precios: "Nuestros precios:",
  leaf: "Un asesor mayorista te escribe pronto",
};

let server: RunningServer;
let browser: Browser;
let admin = "";
let simulatorId = 0;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function setUp(): Promise<void> {
  admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
  simulatorId = (await setUpTwoLevelBot(server.url, admin, TEXTS)).simulatorId;
  const queues = await api<{ id: number; name: string }[]>(server.url, "GET", "/queue", undefined, admin);
  const soporte = queues.find((q) => q.name === TEXTS.soporte);
  expect(soporte).toBeDefined();
  // an agent of Soporte only: the bot's tickets are theirs to watch until a contact picks Ventas
  await api(server.url, "POST", "/users", { ...AGENT, profile: "user", queueIds: [soporte?.id] }, admin);
}

async function customerSays(number: string, body: string): Promise<Ticket> {
  const inbound = await api<Inbound>(
    server.url,
    "POST",
    `/simulator/${simulatorId}/inbound`,
    { number, name: `Cliente ${number.slice(-2)}`, body },
    admin,
  );
  return api<Ticket>(server.url, "GET", `/tickets/${inbound.ticketId}`, undefined, admin);
}

const item = (page: Page, ticketId: number) => page.locator(`[data-testid="ticket-item"][data-ticket-id="${ticketId}"]`);

async function pendingTab(page: Page): Promise<void> {
  await page.getByTestId("tickets-list").waitFor();
  await waitForLive(page);
  await page.getByTestId("tickets-subtab-pending").click();
}

describe("tickets list: the chatbot's tickets", () => {
  it("an agent of the connection's areas watches them read-only, and takes one once the contact picks the agent's area", async () => {
    await setUp();
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, AGENT.email, AGENT.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await pendingTab(page);

    const ticket = await customerSays("5215500000071", "Hola, ¿me ayudan?");
    expect(ticket).toMatchObject({ status: "pending", queueId: null, chatbot: true });
    const row = item(page, ticket.id);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute("data-bot-holds")).toBe("true");
    expect(await row.getByTestId("ticket-item-chatbot").count()).toBe(1);
    expect(await row.getByTestId("ticket-item-accept").count()).toBe(0);
    expect(await row.getByTestId("ticket-item-resolve").count()).toBe(0);
    expect(await row.getByTestId("ticket-item-bot-holds").textContent()).toBe("En el bot");

    // a click shows the conversation read-only: the customer's message and the bot's list
    await row.click();
    const peek = page.getByTestId("peek-dialog");
    await peek.waitFor();
    await expect.poll(() => peek.textContent(), { timeout: 10_000 }).toContain(TEXTS.welcome);
    expect(await peek.textContent()).toContain("Hola, ¿me ayudan?");
    await page.getByTestId("peek-close").click();
    await expect.poll(() => page.getByTestId("peek-dialog").count(), { timeout: 10_000 }).toBe(0);

    // reached by its address, the chat says the bot is serving it and offers no action
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    const notice = page.getByTestId("composer-notice");
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain("El bot está atendiendo este ticket");
    expect(await page.getByTestId("chat-accept").count()).toBe(0);
    expect(await page.getByTestId("composer-accept").count()).toBe(0);

    // the contact picks Soporte (no options): the bot lets go, the agent may accept it, live
    await page.goto(`${server.url}/tickets`);
    await pendingTab(page);
    await row.waitFor({ timeout: 10_000 });
    await customerSays("5215500000071", "2");
    await expect.poll(() => row.getByTestId("ticket-item-accept").count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getAttribute("data-bot-holds")).toBeNull();
    expect(await row.getByTestId("ticket-item-chatbot").count()).toBe(0);

    // another contact picks Ventas, not the agent's area: the row leaves the agent's list, live
    const other = await customerSays("5215500000072", "Buenas");
    const otherRow = item(page, other.id);
    await otherRow.waitFor({ timeout: 10_000 });
    expect(await otherRow.getAttribute("data-bot-holds")).toBe("true");
    await customerSays("5215500000072", "1");
    await expect.poll(() => otherRow.count(), { timeout: 10_000 }).toBe(0);

    await row.getByTestId("ticket-item-accept").click();
    await page.waitForURL(new RegExp(`/tickets/${ticket.uuid}$`), { timeout: 10_000 });
    const accepted = await api<Ticket & { userId: number | null }>(server.url, "GET", `/tickets/${ticket.id}`, undefined, admin);
    expect(accepted).toMatchObject({ status: "open", chatbot: false });
    await context.close();
  });
});
