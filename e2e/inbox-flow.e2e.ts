import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { tinyPng } from "./support/png.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

/**
 * Issue 3's whole inbox, as two people live it: the admin plays a customer on the Simulator page while
 * an agent answers from the tickets screen, in two browsers at once.
 */
let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const AGENT = { name: "Agente Flujo", email: "agente-flujo@e2e.test", password: "agente-123" };
const CUSTOMER = { number: "5215512340000", name: "Cliente Flujo" };

const pendingCount = async (page: Page) => Number((await page.getByTestId("tickets-count-pending").textContent()) || "0");

describe("inbox flow", () => {
  it("a customer writes from the Simulator; the agent accepts, answers with text and an image, resolves", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    // allTicket: an agent sees the tickets that have no area yet
    await api(server.url, "POST", "/users", { ...AGENT, profile: "user", allTicket: "enable" }, token);

    const agentSide = await newPage(browser);
    const agent = agentSide.page;
    await loginThroughUi(agent, server.url, AGENT.email, AGENT.password);
    await agent.waitForURL(/\/tickets$/);
    await agent.getByTestId("tickets-subtab-pending").waitFor();
    const before = await pendingCount(agent);

    const customerSide = await newPage(browser);
    const phone = customerSide.page;
    await loginThroughUi(phone, server.url, ADMIN.email, ADMIN.password);
    await phone.getByTestId("menu-simulator").click();
    await phone.getByTestId("simulator-thread").waitFor();
    await input(phone, "simulator-number").fill(CUSTOMER.number);
    await input(phone, "simulator-name").fill(CUSTOMER.name);
    await phone.getByTestId("simulator-body").fill("Hola, ¿tienen envío a Puebla?");
    await phone.getByTestId("simulator-send").click();
    await phone.getByTestId("simulator-in").filter({ hasText: "¿tienen envío a Puebla?" }).waitFor({ timeout: 10_000 });

    // the agent's pending badge rises live; accepting opens the conversation
    await expect.poll(() => pendingCount(agent), { timeout: 15_000 }).toBe(before + 1);
    // allTicket: the pending ticket is in the agent's bell too, until the agent reads it
    const bell = agent.locator('[data-testid="bell-tickets"] .MuiBadge-badge');
    await expect.poll(() => bell.textContent(), { timeout: 10_000 }).toBe("1");
    await agent.getByTestId("tickets-subtab-pending").click();
    const row = agent.getByTestId("ticket-item").filter({ hasText: CUSTOMER.name });
    await row.waitFor({ timeout: 10_000 });
    await row.getByTestId("ticket-item-accept").click();
    await agent.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    await agent.getByTestId("composer-input").waitFor({ timeout: 10_000 });
    // nothing unread left: no badge at all, not a red "0"
    await expect.poll(() => bell.textContent(), { timeout: 10_000 }).toBe("");
    expect(await agent.getByTestId("bell-tickets").getAttribute("data-count")).toBe("0");

    await agent.getByTestId("composer-input").fill("¡Sí! Enviamos a todo México.");
    await agent.getByTestId("composer-input").press("Enter");
    await agent.getByTestId("composer-attach").setInputFiles({ name: "tarifas.png", mimeType: "image/png", buffer: tinyPng() });
    await agent.getByTestId("composer-file").waitFor();
    await agent.getByTestId("composer-send").click();

    // the customer's phone shows both answers and reads them: their ticks turn blue (4, docs/acks.md)
    const answers = phone.getByTestId("simulator-out");
    await expect.poll(() => answers.count(), { timeout: 15_000 }).toBe(2);
    expect(await answers.first().textContent()).toContain("Enviamos a todo México");
    await phone.getByTestId("simulator-out-image").waitFor({ timeout: 10_000 });
    await expect
      .poll(async () => (await answers.evaluateAll((els) => els.map((el) => el.getAttribute("data-ack")))).join(","), {
        timeout: 15_000,
      })
      .toBe("4,4");

    // resolving sends the agent to /tickets, and the ticket is in the closed tab
    await agent.getByTestId("chat-resolve").click();
    await agent.waitForURL(/\/tickets$/, { timeout: 10_000 });
    await agent.getByTestId("tickets-tab-closed").click();
    const closed = agent.getByTestId("ticket-item").filter({ hasText: CUSTOMER.name });
    await closed.waitFor({ timeout: 10_000 });
    expect(await closed.getAttribute("data-status")).toBe("closed");

    await agentSide.context.close();
    await customerSide.context.close();
  }, 120_000);
});
