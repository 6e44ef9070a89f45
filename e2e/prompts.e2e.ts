import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api } from "./support/server.js";
import { setUpSimulator } from "./support/simulator.js";
import { withServerAndBrowser } from "./support/suite.js";
import { setPlanFlags, simulatorOutTexts, simulatorSay, startFakeService } from "./support/fakes.js";

type Queue = { id: number; name: string };
type Prompt = { id: number; name: string; apiKey: string; hasApiKey: boolean; model: string };
type Ticket = {
  id: number;
  uuid: string;
  contactId: number;
  queueId: number | null;
  useIntegration: boolean;
  userId: number | null;
};
type Chat = { model: string; messages: { role: string; content: string }[] };

let server: RunningServer;
let browser: Browser;
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  // no key of the machine's own: the prompt brings its key and the fake endpoint's URL
  { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
);

const KEY = "sk-e2e-bicis-0042";
const REPLY = "¡Hola! Tenemos bicis de montaña desde $5000.";
/** What the model answers a customer asking for an invoice: a line for them, then its transfer phrase. */
const HANDS_OVER = "Eso lo revisa una persona del Taller. Acción: Transferir al sector de atención";
const shots = process.env.E2E_SHOTS_DIR;

/** A local OpenAI-compatible endpoint: its models, and one answer to every chat; what it was asked. */
const chats: Chat[] = [];
const authorizations: string[] = [];
let ai: Awaited<ReturnType<typeof startFakeService>>;
let aiUrl = "";
beforeAll(async () => {
  ai = await startFakeService((req) => {
    authorizations.push(req.headers.authorization ?? "");
    if (req.headers.authorization !== `Bearer ${KEY}`) return { status: 401, json: { error: { message: "Incorrect API key" } } };
    if (req.method === "GET" && req.url === "/v1/models") {
      return { status: 200, json: { object: "list", data: ["gpt-4o-mini", "llama3"].map((id) => ({ id, object: "model" })) } };
    }
    if (req.method === "POST" && req.url === "/v1/chat/completions") {
      const body = JSON.parse(req.body) as Chat;
      chats.push(body);
      const last = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      const content = last.includes("factura") ? HANDS_OVER : REPLY;
      const choice = { index: 0, message: { role: "assistant", content }, finish_reason: "stop" };
      return {
        status: 200,
        json: { id: `c${chats.length}`, object: "chat.completion", created: 0, model: body.model, choices: [choice] },
      };
    }
    return { status: 404, json: { error: { message: "not found" } } };
  });
  aiUrl = `${ai.url}/v1`;
});
afterAll(() => ai.close());

describe("AI prompts", () => {
  it("the admin creates a prompt in its dialog; pointed at the Simulator connection, it answers a customer there", async () => {
    // the company's plan offers AI prompts (the page and its menu item show only then)
    const token = await setPlanFlags(server.url, { useOpenAi: true });
    const sales = await api<Queue>(server.url, "POST", "/queue", { name: "Ventas", color: "#0062B1", orderQueue: 1 }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-prompts").click();
    await page.waitForURL(/\/prompts$/);
    await page.getByTestId("prompts-empty").waitFor();
    await page.getByTestId("prompts-add").click();
    const dialog = page.getByTestId("prompt-modal");
    await dialog.waitFor();
    // secondary §9 defaults; temperature shown, disabled
    expect(await input(page, "prompt-max-tokens").inputValue()).toBe("500");
    expect(await input(page, "prompt-max-messages").inputValue()).toBe("10");
    expect(await input(page, "prompt-temperature").inputValue()).toBe("1");
    expect(await input(page, "prompt-temperature").isDisabled()).toBe(true);
    expect(await page.getByTestId("prompt-voice").textContent()).toContain("Texto");

    await input(page, "prompt-name").fill("Vendedor de bicis");
    await page.getByTestId("prompt-text").fill("Eres el vendedor de una tienda de bicicletas. Responde breve.");
    await input(page, "prompt-base-url").fill(aiUrl);
    await input(page, "prompt-api-key").fill(KEY);
    // the model list comes from the endpoint, with the typed key and URL
    await input(page, "prompt-model").click();
    await page.getByRole("option", { name: "llama3" }).click();
    expect(await input(page, "prompt-model").inputValue()).toBe("llama3");
    expect(authorizations).toContain(`Bearer ${KEY}`);
    // without an area: 'Informar al sector' (secondary §5), nothing saved
    await page.getByTestId("prompt-modal-save").click();
    await dialog.getByText("Informar al sector").waitFor();
    await page.getByTestId("prompt-queue").click();
    await page.getByTestId(`prompt-queue-${sales.id}`).click();
    await page.getByTestId("prompt-modal-save").click();
    await expect.poll(async () => dialog.count(), { timeout: 10_000 }).toBe(0);
    const row = page.getByTestId("prompts-row").filter({ hasText: "Vendedor de bicis" });
    await row.waitFor();
    expect(await row.textContent()).toContain("Ventas");
    expect(await page.content()).not.toContain(KEY);

    // the stored key is shown masked on edit, never in full
    await row.getByTestId("prompt-edit").click();
    await dialog.waitFor();
    await dialog.getByText("••••••••0042").waitFor();
    expect(await input(page, "prompt-api-key").inputValue()).toBe("");
    await page.getByTestId("prompt-modal-cancel").click();

    const browserToken = await page.evaluate(() => JSON.parse(localStorage.getItem("token") ?? "null") as string);
    const [saved] = (await api<{ prompts: Prompt[] }>(server.url, "GET", "/prompt", undefined, browserToken)).prompts;
    expect(saved).toMatchObject({ name: "Vendedor de bicis", model: "llama3", hasApiKey: true, apiKey: "••••••••0042" });
    // live: a prompt another admin adds appears on the page (company-{id}-prompt)
    await waitForLive(page);
    await api(
      server.url,
      "POST",
      "/prompt",
      { name: "Asistente nocturno", prompt: "Atiendes de noche.", model: "gpt-4o-mini", queueId: sales.id },
      browserToken,
    );
    await page.getByTestId("prompts-row").filter({ hasText: "Asistente nocturno" }).waitFor({ timeout: 10_000 });

    // the Simulator connection answers through the prompt (no areas: the connection's prompt talks)
    // the browser's sign-in ended the set-up's session (one session per user): its token from here on
    await setUpSimulator(server.url, browserToken, { queueIds: [], promptId: saved.id });

    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await page.getByTestId("simulator-thread").waitFor();
    await input(page, "simulator-number").fill("+52 55 1234 0042");
    await input(page, "simulator-name").fill("Cliente Bicis");
    await simulatorSay(page, "Hola, ¿tienen bicis de montaña?");
    await expect.poll(() => simulatorOutTexts(page), { timeout: 15_000 }).toEqual([expect.stringContaining(REPLY)]);
    expect(chats).toHaveLength(1);
    expect(chats[0].model).toBe("llama3");
    expect(chats[0].messages[0]).toMatchObject({ role: "system" });
    expect(chats[0].messages[0].content).toContain("vendedor de una tienda de bicicletas");
    expect(chats[0].messages.at(-1)).toEqual({ role: "user", content: "Hola, ¿tienen bicis de montaña?" });

    // asking for a person hands the conversation to the prompt's area, waiting for its humans
    await simulatorSay(page, "Quiero hablar con un humano");
    const tickets = await api<{ tickets: Ticket[] }>(
      server.url,
      "GET",
      "/tickets?searchParam=525512340042&showAll=true",
      undefined,
      browserToken,
    );
    const ticketId = tickets.tickets[0]?.id;
    expect(ticketId).toBeGreaterThan(0);
    await expect
      .poll(async () => api<Ticket>(server.url, "GET", `/tickets/${ticketId}`, undefined, browserToken), { timeout: 10_000 })
      .toMatchObject({ queueId: sales.id, useIntegration: false, userId: null });
    expect(chats).toHaveLength(1);
    await context.close();
  }, 120_000);
  it("a prompt saved with its area answers the customer who picks it, with the chat as context, and hands over with a note; the three dialogs offer it", async () => {
    // with integrations too: the dialogs offer the prompts beside them
    const token = await setPlanFlags(server.url, { useOpenAi: true, useIntegrations: true });
    const area = (name: string, color: string, orderQueue: number, greetingMessage: string) =>
      api<Queue>(server.url, "POST", "/queue", { name, color, orderQueue, greetingMessage }, token);
    const workshop = await area("Taller", "#5300EB", 1, "Bienvenido al Taller");
    const shop = await area("Tienda", "#FCCB00", 2, "Bienvenido a la Tienda");
    // saved with its area ("Informar al sector") and nothing else: no area, option or connection names it
    const mechanic = await api<Prompt>(
      server.url,
      "POST",
      "/prompt",
      {
        name: "Mecánico",
        prompt: "Eres el mecánico del taller de bicicletas.",
        model: "llama3",
        apiKey: KEY,
        baseUrl: aiUrl,
        queueId: workshop.id,
      },
      token,
    );
    const simulator = await setUpSimulator(server.url, token, {
      greetingMessage: "Hola, elige un área:",
      transferMessage: "Te paso con el equipo.",
      queueIds: [workshop.id, shop.id],
    });

    const { context, page } = await newPage(browser, 1366, 900);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    // the area's dialog: the prompt picker beside the integrations, and who answers the area now
    await page.getByTestId("menu-queues").click();
    await page.waitForURL(/\/queues$/);
    await page.getByTestId("queues-row").filter({ hasText: "Taller" }).getByTestId("queue-edit").click();
    const areaDialog = page.getByTestId("queue-modal");
    await areaDialog.waitFor();
    await page.getByTestId("queue-prompt").scrollIntoViewIfNeeded();
    expect(await page.getByTestId("queue-answer-now").textContent()).toContain("«Mecánico», guardado con esta área");
    expect(await page.getByTestId("queue-automation-help").textContent()).toContain("el más antiguo");
    if (shots) await page.screenshot({ path: `${shots}/area-dialog-prompt.png` });
    await page.getByTestId("queue-prompt").click();
    await page.getByTestId(`queue-prompt-${mechanic.id}`).waitFor();
    if (shots) await page.screenshot({ path: `${shots}/area-dialog-prompt-open.png` });
    await page.keyboard.press("Escape");
    // the option editor offers them too, and says when an option's prompt answers
    await page.getByTestId("queue-option-add").click();
    await page.getByTestId("queue-option-prompt").scrollIntoViewIfNeeded();
    expect(await page.getByTestId("queue-option-automation-help").textContent()).toContain("si el área no tiene un prompt");
    if (shots) await page.screenshot({ path: `${shots}/option-editor-prompt.png` });
    await page.getByTestId("queue-option-discard").click();
    await page.getByTestId("queue-modal-cancel").click();
    await expect.poll(async () => areaDialog.count()).toBe(0);
    // and the connection's dialog
    await page.getByTestId("menu-connections").click();
    await page.waitForURL(/\/connections$/);
    await page.getByTestId("connections-row").filter({ hasText: simulator.name }).getByTestId("connection-edit").click();
    await page.getByTestId("connection-modal").waitFor();
    await page.getByTestId("connection-automation-help").scrollIntoViewIfNeeded();
    expect(await page.getByTestId("connection-automation-help").textContent()).toContain("aún no tiene área");
    await page.getByTestId("connection-prompt").click();
    await page.getByTestId(`connection-prompt-${mechanic.id}`).waitFor();
    await page.keyboard.press("Escape");
    if (shots) await page.screenshot({ path: `${shots}/connection-dialog-prompt.png` });
    await page.getByTestId("connection-cancel").click();

    // a customer picks the area on the Simulator: its greeting, then the prompt's answer, in the same turn
    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await page.getByTestId("simulator-thread").waitFor();
    await input(page, "simulator-number").fill("+52 55 1234 0077");
    await input(page, "simulator-name").fill("Cliente Taller");
    await simulatorSay(page, "Hola");
    await expect.poll(() => simulatorOutTexts(page)).toEqual([expect.stringContaining("Hola, elige un área:")]);
    const asked = chats.length;
    await simulatorSay(page, "1");
    await expect
      .poll(async () => (await simulatorOutTexts(page)).slice(1))
      .toEqual([expect.stringContaining("Bienvenido al Taller"), expect.stringContaining(REPLY)]);
    // one call, with the prompt and the chat so far (the list, the choice, the greeting) as context
    expect(chats.length).toBe(asked + 1);
    const chat = chats[asked];
    expect(chat.model).toBe("llama3");
    expect(chat.messages[0].content).toContain("mecánico del taller");
    expect(chat.messages.slice(1).map((m) => [m.role, m.content.split("\n")[0]])).toEqual([
      ["user", "Hola"],
      ["assistant", "Hola, elige un área:"],
      ["user", "1"],
      ["assistant", "Bienvenido al Taller"],
    ]);

    // the transfer phrase: its line for the customer, the transfer message, the ticket to the area's humans
    await simulatorSay(page, "Necesito una factura de 2019");
    await expect
      .poll(async () => (await simulatorOutTexts(page)).slice(3))
      .toEqual([
        expect.stringContaining("Eso lo revisa una persona del Taller."),
        expect.stringContaining("Te paso con el equipo."),
      ]);
    expect((await simulatorOutTexts(page)).join(" ")).not.toContain("Transferir al sector");
    const browserToken = await page.evaluate(() => JSON.parse(localStorage.getItem("token") ?? "null") as string);
    const found = await api<{ tickets: Ticket[] }>(
      server.url,
      "GET",
      "/tickets?searchParam=525512340077&showAll=true",
      undefined,
      browserToken,
    );
    const ticketId = found.tickets[0]?.id;
    expect(ticketId).toBeGreaterThan(0);
    const ticket = await api<Ticket>(server.url, "GET", `/tickets/${ticketId}`, undefined, browserToken);
    expect(ticket).toMatchObject({ queueId: workshop.id, useIntegration: false, userId: null });
    const notes = await api<{ note: string }[]>(
      server.url,
      "GET",
      `/ticket-notes/list?ticketId=${ticketId}&contactId=${ticket.contactId}`,
      undefined,
      browserToken,
    );
    expect(notes.map((n) => n.note)).toEqual([expect.stringContaining("«Mecánico» transfirió")]);
    // the prompt stays quiet after: the area's humans answer
    const calls = chats.length;
    await simulatorSay(page, "¿Hola?");
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    await page.getByTestId("chat-header").waitFor();
    // the agent's chat shows the prompt's answer as the company's, and the customer's last message
    const texts = () => page.getByTestId("message-text").allTextContents();
    await expect.poll(async () => (await texts()).some((text) => text.includes("¿Hola?"))).toBe(true);
    expect((await texts()).some((text) => text.includes(REPLY))).toBe(true);
    expect(chats.length).toBe(calls);
    if (shots) await page.screenshot({ path: `${shots}/ticket-after-prompt.png` });
    await context.close();
  }, 180_000);
});
