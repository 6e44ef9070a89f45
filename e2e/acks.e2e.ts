import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { input, launch, loginThroughUi, newPage } from "./support/browser.js";
import { adminUrl, type ScratchDatabase, scratchDatabase } from "./support/postgres.js";
import { ADMIN, type RunningServer, api, apiLogin, startServer } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

// Issue #8: ticks on WhatsApp's scale (docs/acks.md), the honest simulator (it reads what it shows,
// it keeps both sides of the conversation on the server), WhatsApp formatting on the phone and in
// the list preview, and a deleted message leaving the preview.

type Connection = { id: number; provider?: string };
type Ticket = { id: number; uuid: string };

const shots = process.env.E2E_SHOTS_DIR;
const payloads = readFileSync(new URL("./fixtures/xss-payloads.txt", import.meta.url), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line.length > 0);

async function simulatorOf(base: string, token: string): Promise<number> {
  const list = await api<Connection[]>(base, "GET", "/whatsapp", undefined, token);
  const simulator = list.find((wa) => wa.provider === "simulator");
  if (!simulator) throw new Error("no simulator connection");
  return simulator.id;
}

/** The API with the browser's own token (a new login would end the browser's session). */
function pageApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = JSON.parse(localStorage.getItem("token") ?? '""') as string;
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.status === 204 ? null : res.json();
    },
    { method, path, body },
  ) as Promise<T>;
}

const agentMessages = (page: Page) => page.locator('[data-testid="message"][data-from-me="true"]');
const acksOf = async (page: Page) =>
  (await agentMessages(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-ack")))).join(",");
const preview = (page: Page, ticketId: number) =>
  page.locator(`[data-testid="ticket-item"][data-ticket-id="${ticketId}"] [data-testid="ticket-item-last-message"]`);

async function trapScripts(page: Page) {
  await page.context().addInitScript(() => {
    (window as unknown as { __xss: number }).__xss = 0;
    window.alert = () => {
      (window as unknown as { __xss: number }).__xss++;
    };
    window.prompt = window.alert as typeof window.prompt;
  });
}

describe("ticks, the honest simulator and formatting", () => {
  let server: RunningServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => {
    server = s;
    browser = b;
  });

  it("shows grey ticks when delivered and blue once the phone page shows the answer, in any tab", async () => {
    const number = "5215512340001";
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const wa = await simulatorOf(server.url, token);
    const first = await api<{ ticketId: number }>(
      server.url,
      "POST",
      `/simulator/${wa}/inbound`,
      { number, name: "Cliente Ticks", body: "Hola *Admin*, lo de ~ayer~ es _urgente_: ```pedido 42```" },
      token,
    );
    await api(server.url, "PUT", `/tickets/${first.ticketId}`, { status: "open" }, token);
    const ticket = await api<Ticket>(server.url, "GET", `/tickets/${first.ticketId}`, undefined, token);

    const { context, page: agent } = await newPage(browser);
    await trapScripts(agent);
    await loginThroughUi(agent, server.url, ADMIN.email, ADMIN.password);
    await agent.waitForURL(/\/tickets/);
    await agent.goto(`${server.url}/tickets/${ticket.uuid}`);
    await agent.getByTestId("chat-header").waitFor({ timeout: 15_000 });

    // the list preview formats like the chat: no markers left, bold, strike, italic and monospace
    const last = preview(agent, ticket.id);
    await expect.poll(() => last.textContent(), { timeout: 10_000 }).toBe("Hola Admin, lo de ayer es urgente: pedido 42");
    expect(await last.locator("strong").textContent()).toBe("Admin");
    expect(await last.locator("s").textContent()).toBe("ayer");
    expect(await last.locator("em").textContent()).toBe("urgente");
    expect(await last.locator("code").textContent()).toBe("pedido 42");

    // an answer while nobody looks at the phone: delivered, two grey ticks, and no further
    await pageApi(agent, "POST", `/messages/${ticket.id}`, { body: "*Listo*, te ayudo" });
    await expect.poll(() => acksOf(agent), { timeout: 10_000 }).toBe("3");
    await agentMessages(agent).locator('[data-testid="ack-delivered"]').waitFor();
    await agent.waitForTimeout(1500);
    expect(await acksOf(agent)).toBe("3");
    if (shots) await agent.screenshot({ path: `${shots}/chat-delivered.png` });

    // the phone page, opened in another tab, shows both sides (from the server) and reads the answer
    const phone = await context.newPage();
    await phone.goto(`${server.url}/simulator`);
    await phone.getByTestId("simulator-thread").waitFor({ timeout: 15_000 });
    await input(phone, "simulator-number").fill(number);
    const customer = phone.getByTestId("simulator-in");
    await expect.poll(() => customer.count(), { timeout: 10_000 }).toBe(1);
    expect(await customer.locator("strong").textContent()).toBe("Admin");
    expect(await customer.locator("s").textContent()).toBe("ayer");
    expect(await customer.textContent()).not.toContain("*Admin*");
    const answer = phone.getByTestId("simulator-out");
    await answer.waitFor({ timeout: 10_000 });
    expect(await answer.locator("strong").textContent()).toBe("Listo");
    await expect.poll(() => answer.getAttribute("data-ack"), { timeout: 10_000 }).toBe("4");
    await answer.getByTestId("simulator-ack-read").waitFor();

    // …and the agent's ticks turn blue live
    await expect.poll(() => acksOf(agent), { timeout: 10_000 }).toBe("4");
    const blue = agentMessages(agent).locator('[data-testid="ack-read"]');
    await blue.waitFor();
    expect(await blue.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(83, 189, 235)");
    if (shots) {
      await phone.screenshot({ path: `${shots}/simulator.png` });
      await agent.screenshot({ path: `${shots}/chat-read.png` });
    }

    // a deleted answer leaves the list preview (live) and the phone
    const [secret] = await pageApi<{ id: number }[]>(agent, "POST", `/messages/${ticket.id}`, { body: "Precio secreto: 100" });
    await expect.poll(() => last.textContent(), { timeout: 10_000 }).toBe("Precio secreto: 100");
    await pageApi(agent, "DELETE", `/messages/${secret.id}`);
    await expect.poll(() => last.textContent(), { timeout: 10_000 }).toBe("Listo, te ayudo");
    // the phone keeps only the fact
    await expect
      .poll(() => phone.locator(`[data-message-id="${secret.id}"]`).textContent(), { timeout: 10_000 })
      .toContain("Se eliminó este mensaje");
    expect(await phone.getByTestId("simulator-thread").textContent()).not.toContain("Precio secreto");

    // the customer's words survive a reload of the phone page (they live on the server)
    await phone.reload();
    await input(phone, "simulator-number").fill(number);
    await expect.poll(() => customer.count(), { timeout: 10_000 }).toBe(1);
    expect(await agent.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    await context.close();
  }, 90_000);

  it("shows script-injection payloads in list previews and on the phone as text", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const wa = await simulatorOf(server.url, token);
    for (const [i, body] of payloads.entries()) {
      await api(server.url, "POST", `/simulator/${wa}/inbound`, { number: `52155123${String(i).padStart(5, "0")}`, body }, token);
    }
    const { context, page } = await newPage(browser);
    await trapScripts(page);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets/);
    await page.getByTestId("tickets-subtab-pending").click();
    await expect.poll(() => page.getByTestId("ticket-item-last-message").count(), { timeout: 15_000 }).toBeGreaterThan(10);
    const shown = (await page.getByTestId("ticket-item-last-message").allTextContents()).join("\n");
    // payloads without WhatsApp markers read exactly as sent
    const plain = payloads.filter((p) => !/[*_~`]/.test(p) && !/\s{2,}/.test(p));
    expect(plain.filter((p) => shown.includes(p)).length).toBeGreaterThan(5);
    const list = "[data-testid=ticket-item-last-message]";
    expect(await page.locator(`${list} img, ${list} svg[onload], ${list} iframe, ${list} script, ${list} a`).count()).toBe(0);

    // the phone of one of them
    await page.goto(`${server.url}/simulator`);
    await page.getByTestId("simulator-thread").waitFor({ timeout: 15_000 });
    await input(page, "simulator-number").fill("5215512300001");
    await page.getByTestId("simulator-in").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("simulator-in").textContent()).toContain(payloads[1].replace(/[*_~`]/g, "").slice(0, 5));
    expect(await page.locator("[data-testid=simulator-thread] img, [data-testid=simulator-thread] script").count()).toBe(0);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  }, 90_000);
});

// A failure needs a row the API cannot produce yet (a channel refusing a message): on a real
// PostgreSQL the test writes it, as a channel's error report would, and the chat shows the mark.

describe.runIf(adminUrl)("a failed message", () => {
  let scratch: ScratchDatabase;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    scratch = await scratchDatabase("acks");
    server = await startServer({ DATABASE_URL: scratch.url });
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await scratch?.drop();
  });

  it("shows an error mark with the reason as its tooltip", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const wa = await simulatorOf(server.url, token);
    const { ticketId } = await api<{ ticketId: number }>(
      server.url,
      "POST",
      `/simulator/${wa}/inbound`,
      { number: "5215512349999", body: "Hola" },
      token,
    );
    await api(server.url, "PUT", `/tickets/${ticketId}`, { status: "open" }, token);
    const [sent] = await api<{ id: number }[]>(server.url, "POST", `/messages/${ticketId}`, { body: "No llegará" }, token);
    await expect
      .poll(
        async () => (await scratch.db.query<{ ack: number }>("select ack from messages where id = $1", [sent.id])).rows[0].ack,
        { timeout: 10_000 },
      )
      .toBe(3);
    await scratch.db.query("update messages set ack = -1, ack_error = 'ERR_SENDING_WAPP_MSG' where id = $1", [sent.id]);
    const ticket = await api<Ticket>(server.url, "GET", `/tickets/${ticketId}`, undefined, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets/);
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    const mark = agentMessages(page).locator('[data-testid="ack-failed"]');
    await mark.waitFor({ timeout: 15_000 });
    expect(await agentMessages(page).getAttribute("data-ack")).toBe("-1");
    expect(await mark.getAttribute("aria-label")).toBe("No se pudo enviar: Error al enviar el mensaje de WhatsApp.");
    // the bubble's menu button sits over the time and ticks while hovered: point at the mark itself
    await mark.dispatchEvent("mouseover");
    await expect
      .poll(() => page.getByRole("tooltip").textContent(), { timeout: 5_000 })
      .toBe("No se pudo enviar: Error al enviar el mensaje de WhatsApp.");
    if (shots) await page.screenshot({ path: `${shots}/chat-failed.png` });
    await context.close();
  }, 60_000);
});
