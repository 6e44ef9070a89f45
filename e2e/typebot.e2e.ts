import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Connection = { id: number; provider: string; name: string; number: string };
type Plan = Record<string, unknown> & { id: number; name: string };
type Queue = { id: number; name: string; integrationId: number | null };
type Ticket = { id: number; useIntegration: boolean; queueId: number | null };

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const text = (t: string) => ({
  id: t,
  type: "text",
  content: { type: "richText", richText: [{ type: "p", children: [{ text: t }] }] },
});

/** A local stand-in for Typebot's chat API: a greeting with a choice, then the chosen item's answer. */
const calls: { path: string; text: string }[] = [];
let typebot: Server;
let typebotUrl = "";
beforeAll(async () => {
  typebot = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { message?: { text?: string } };
    const said = body.message?.text ?? "";
    calls.push({ path: req.url ?? "", text: said });
    const json = (status: number, out: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(out));
    if (req.url === "/api/v1/typebots/ventas-bot/startChat") {
      return json(200, {
        sessionId: "e2e-session",
        typebot: { id: "tb", theme: {}, settings: {} },
        messages: [
          text("¡Hola! Soy el asistente de Ventas"),
          { id: "img", type: "image", content: { url: "https://img.test/catalogo.png" } },
        ],
        input: {
          id: "c",
          type: "choice input",
          items: [
            { id: "a", content: "Precios" },
            { id: "b", content: "Horarios" },
          ],
        },
      });
    }
    if (req.url === "/api/v1/sessions/e2e-session/continueChat") {
      if (said === "1") return json(200, { messages: [text("Precios: desde $10")], input: { id: "t", type: "text input" } });
      return json(400, { message: "Invalid reply" });
    }
    json(404, { message: "Not found" });
  });
  await new Promise<void>((resolve) => typebot.listen(0, "127.0.0.1", resolve));
  typebotUrl = `http://127.0.0.1:${(typebot.address() as AddressInfo).port}`;
});
afterAll(async () => {
  typebot.closeAllConnections();
  await new Promise<void>((resolve) => typebot.close(() => resolve()));
});

const outTexts = (page: Page) => page.getByTestId("simulator-out").allTextContents();

async function say(page: Page, body: string) {
  await page.getByTestId("simulator-body").fill(body);
  await page.getByTestId("simulator-send").click();
  const sent = page.getByTestId("simulator-in").filter({ hasText: body }).last();
  await sent.waitFor({ timeout: 10_000 });
}

describe("typebot", () => {
  it("admin sets a typebot on an area in its dialog; a customer on the Simulator talks to it, and the finish word hands back", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    // the company's plan offers integrations (the pickers show only then)
    const plans = await api<Plan[]>(server.url, "GET", "/plans/all", undefined, token);
    const { id: planId, createdAt: _c, updatedAt: _u, ...plan } = plans[0];
    await api(server.url, "PUT", `/plans/${planId}`, { ...plan, useIntegrations: true }, token);
    const integration = await api<{ id: number }>(
      server.url,
      "POST",
      "/queueIntegration",
      {
        type: "typebot",
        name: "Asistente Ventas",
        urlN8N: typebotUrl,
        typebotSlug: "ventas-bot",
        typebotKeywordFinish: "Salir",
        typebotUnknownMessage: "No entendí, responde con un número",
        typebotDelayMessage: 300,
        typebotExpires: 5,
      },
      token,
    );
    const bot = await api<Queue>(
      server.url,
      "POST",
      "/queue",
      { name: "Ventas", color: "#0062B1", greetingMessage: "Bienvenido a Ventas", orderQueue: 1 },
      token,
    );
    const humans = await api<Queue>(server.url, "POST", "/queue", { name: "Soporte", color: "#194D33", orderQueue: 2 }, token);
    const simulator = (await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, token)).find(
      (c) => c.provider === "simulator",
    );
    if (!simulator) throw new Error("no simulator connection");
    await api(
      server.url,
      "PUT",
      `/whatsapp/${simulator.id}`,
      {
        name: simulator.name,
        number: simulator.number || "5215500000000",
        provider: "simulator",
        isDefault: true,
        greetingMessage: "Hola, elige un área:",
        queueIds: [bot.id, humans.id],
      },
      token,
    );

    // the admin points the area at the typebot through the dialog's Integración select
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(15_000);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-queues").click();
    await page.waitForURL(/\/queues$/);
    await page.getByTestId("queues-row").filter({ hasText: "Ventas" }).getByTestId("queue-edit").click();
    await page.getByTestId("queue-modal").waitFor();
    await page.getByTestId("queue-integration").click();
    await page.getByTestId(`queue-integration-${integration.id}`).click();
    expect(await page.getByTestId("queue-integration").textContent()).toContain("Asistente Ventas");
    await page.getByTestId("queue-modal-save").click();
    await expect.poll(async () => page.getByTestId("queue-modal").count(), { timeout: 10_000 }).toBe(0);
    const browserToken = await page.evaluate(() => JSON.parse(localStorage.getItem("token") ?? "null") as string);
    const saved = (await api<Queue[]>(server.url, "GET", "/queue", undefined, browserToken)).find((q) => q.id === bot.id);
    expect(saved?.integrationId).toBe(integration.id);

    // a customer on the Simulator page chooses the area, and the typebot talks from the next message
    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await page.getByTestId("simulator-thread").waitFor();
    await input(page, "simulator-number").fill("+54 9 11 4444-1212");
    await input(page, "simulator-name").fill("Cliente Typebot");
    await say(page, "Hola");
    await expect.poll(() => outTexts(page), { timeout: 10_000 }).toEqual([expect.stringContaining("Hola, elige un área:")]);
    await say(page, "1");
    await expect.poll(async () => (await outTexts(page)).at(-1), { timeout: 10_000 }).toContain("Bienvenido a Ventas");
    await say(page, "Quiero información");
    // its bubbles, image and choice as WhatsApp texts, in order (spaced by the integration's 300 ms)
    await expect
      .poll(async () => (await outTexts(page)).slice(2), { timeout: 15_000 })
      .toEqual([
        expect.stringContaining("¡Hola! Soy el asistente de Ventas"),
        expect.stringContaining("https://img.test/catalogo.png"),
        expect.stringMatching(/\[ 1 \]\*? - Precios[\s\S]*\[ 2 \]\*? - Horarios/),
      ]);
    expect(calls.map((c) => [c.path, c.text])).toEqual([["/api/v1/typebots/ventas-bot/startChat", "Quiero información"]]);

    await say(page, "1");
    await expect.poll(async () => (await outTexts(page)).at(-1), { timeout: 10_000 }).toContain("Precios: desde $10");
    await say(page, "zzz");
    await expect
      .poll(async () => (await outTexts(page)).at(-1), { timeout: 10_000 })
      .toContain("No entendí, responde con un número");

    // the finish word hands the ticket back to the area's humans; Typebot is not asked again
    const asked = calls.length;
    await say(page, "salir");
    const tickets = await api<{ tickets: Ticket[] }>(
      server.url,
      "GET",
      "/tickets?searchParam=5491144441212&showAll=true",
      undefined,
      browserToken,
    );
    const ticketId = tickets.tickets[0]?.id;
    expect(ticketId).toBeGreaterThan(0);
    await expect
      .poll(async () => (await api<Ticket>(server.url, "GET", `/tickets/${ticketId}`, undefined, browserToken)).useIntegration, {
        timeout: 10_000,
      })
      .toBe(false);
    const handed = await api<Ticket>(server.url, "GET", `/tickets/${ticketId}`, undefined, browserToken);
    expect(handed.queueId).toBe(bot.id);
    expect(calls.length).toBe(asked);
    await context.close();
  }, 120_000);
});
