import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api } from "./support/server.js";
import { setUpSimulator } from "./support/simulator.js";
import { withServerAndBrowser } from "./support/suite.js";
import { setPlanFlags, simulatorOutTexts, simulatorSay, startFakeService } from "./support/fakes.js";

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
let typebot: Awaited<ReturnType<typeof startFakeService>>;
let typebotUrl = "";
beforeAll(async () => {
  typebot = await startFakeService((req) => {
    const body = JSON.parse(req.body || "{}") as { message?: { text?: string } };
    const said = body.message?.text ?? "";
    calls.push({ path: req.url, text: said });
    const json = (status: number, out: unknown) => ({ status, json: out });
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
    return json(404, { message: "Not found" });
  });
  typebotUrl = typebot.url;
});
afterAll(() => typebot.close());

describe("typebot", () => {
  it("admin sets a typebot on an area in its dialog; a customer on the Simulator talks to it, and the finish word hands back", async () => {
    // the company's plan offers integrations (the pickers show only then)
    const token = await setPlanFlags(server.url, { useIntegrations: true });
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
    await setUpSimulator(server.url, token, {
      greetingMessage: "Hola, elige un área:",
      queueIds: [bot.id, humans.id],
    });

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
    await simulatorSay(page, "Hola");
    await expect
      .poll(() => simulatorOutTexts(page), { timeout: 10_000 })
      .toEqual([expect.stringContaining("Hola, elige un área:")]);
    await simulatorSay(page, "1");
    await expect.poll(async () => (await simulatorOutTexts(page)).at(-1), { timeout: 10_000 }).toContain("Bienvenido a Ventas");
    await simulatorSay(page, "Quiero información");
    // its bubbles, image and choice as WhatsApp texts, in order (spaced by the integration's 300 ms)
    await expect
      .poll(async () => (await simulatorOutTexts(page)).slice(2), { timeout: 15_000 })
      .toEqual([
        expect.stringContaining("¡Hola! Soy el asistente de Ventas"),
        expect.stringContaining("https://img.test/catalogo.png"),
        expect.stringMatching(/\[ 1 \]\*? - Precios[\s\S]*\[ 2 \]\*? - Horarios/),
      ]);
    expect(calls.map((c) => [c.path, c.text])).toEqual([["/api/v1/typebots/ventas-bot/startChat", "Quiero información"]]);

    await simulatorSay(page, "1");
    await expect.poll(async () => (await simulatorOutTexts(page)).at(-1), { timeout: 10_000 }).toContain("Precios: desde $10");
    await simulatorSay(page, "zzz");
    await expect
      .poll(async () => (await simulatorOutTexts(page)).at(-1), { timeout: 10_000 })
      .toContain("No entendí, responde con un número");

    // the finish word hands the ticket back to the area's humans; Typebot is not asked again
    const asked = calls.length;
    await simulatorSay(page, "salir");
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
