import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Connection = { id: number; provider?: string };
type InboundResult = { ticketId: number; messageId: number };
type Outbound = { id: number; body: string; mediaType: string; ack: number };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const bodyText = (page: Page) => page.locator("body").textContent();
const fromMe = (page: Page) => page.locator('[data-testid="message"][data-from-me="true"]');

/** After the browser logged in, the set-up's API token is gone (one session per user): ask through the page. */
function pageApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const token = JSON.parse(localStorage.getItem("token") ?? '""') as string;
    const res = await fetch(`/api/v1${p}`, { headers: { authorization: `Bearer ${token}` } });
    return res.json();
  }, path) as Promise<T>;
}

describe("quick replies", () => {
  it("creates a reply with a file in the dialog, then picks it with / in a ticket and sends text and file", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const list = await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, token);
    const wa = (list.find((c) => c.provider === "simulator") ?? list[0]).id;
    const number = "5215577778888";
    const inbound = await api<InboundResult>(
      server.url,
      "POST",
      `/simulator/${wa}/inbound`,
      { number, name: "Cliente Rápido", body: "¿Tienen catálogo?" },
      token,
    );
    const ticket = await api<{ uuid: string }>(server.url, "GET", `/tickets/${inbound.ticketId}`, undefined, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-quick-messages").click();
    await page.waitForURL(/\/quick-messages$/);
    await page.getByTestId("quick-messages-table").waitFor();

    // secondary §5: the shortcode is required ('Obligatorio'), said beside the field before anything is sent
    await page.getByTestId("quick-messages-add").click();
    await page.getByTestId("quick-message-modal").waitFor();
    await page.getByTestId("quick-message-modal-save").click();
    await page.getByTestId("quick-message-modal").getByText("Obligatorio").first().waitFor();

    await input(page, "quick-message-shortcode").fill("catalogo");
    await page.getByTestId("quick-message-message").fill("Aquí tiene nuestro catálogo de productos 2026");
    await page
      .getByTestId("quick-message-file")
      .setInputFiles({ name: "catalogo.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n% catálogo\n") });
    expect(await page.getByTestId("quick-message-media-name").textContent()).toBe("catalogo.pdf");
    await page.getByTestId("quick-message-modal-save").click();
    await page.getByTestId("quick-message-modal").waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Respuesta rápida guardada con éxito.");
    const row = page.getByTestId("quick-messages-row").filter({ hasText: "/catalogo" });
    await row.waitFor();
    const saved = await pageApi<{ records: { shortcode: string; isMedia: boolean; mediaName: string }[] }>(
      page,
      "/quick-messages?searchParam=catalogo",
    );
    expect(saved.records).toMatchObject([{ shortcode: "catalogo", isMedia: true, mediaName: "catalogo.pdf" }]);

    // in the ticket: "/" + shortcode offers it, cut at 35 characters plus an ellipsis (core §5)
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    await page.getByTestId("chat-header").waitFor({ timeout: 15_000 });
    await page.getByTestId("chat-accept").click();
    await page.getByTestId("composer-input").waitFor({ timeout: 10_000 });
    await page.getByTestId("composer-input").fill("/cata");
    const option = page.getByTestId("quick-reply").first();
    await option.waitFor({ timeout: 10_000 });
    expect(await option.textContent()).toBe(`${"/catalogo - Aquí tiene nuestro catálogo de productos 2026".slice(0, 35)}…`);
    await option.click();
    expect(await page.getByTestId("composer-input").inputValue()).toBe("Aquí tiene nuestro catálogo de productos 2026");
    // its file joins the tray and goes with the text as its caption
    await page.getByTestId("composer-file").waitFor({ timeout: 10_000 });
    await page.getByTestId("composer-send").click();
    await fromMe(page).first().waitFor({ timeout: 15_000 });
    await expect
      .poll(
        async () => {
          const out = await pageApi<Outbound[]>(page, `/simulator/${wa}/outbound?number=${number}`);
          return out.map((m) => `${m.mediaType}:${m.body}`);
        },
        { timeout: 15_000 },
      )
      // one message: the file, captioned with the text (after the admin's signature)
      .toEqual([expect.stringMatching(/^application:[\s\S]*Aquí tiene nuestro catálogo de productos 2026$/)]);
    await context.close();
  });

  it("the list says which replies carry a file, and at 390 px a long shortcode stays whole on one line beside its buttons", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const long = "bienvenida_clientes_nuevos_temporada_alta";
    const reply = await api<{ id: number }>(
      server.url,
      "POST",
      "/quick-messages",
      { shortcode: long, message: "Hola, gracias por escribirnos." },
      token,
    );
    const file = new FormData();
    file.append("file", new Blob([Buffer.from("%PDF-1.4\n")], { type: "application/pdf" }), "tarifas-2026.pdf");
    const upload = await fetch(`${server.url}/api/v1/quick-messages/${reply.id}/media-upload`, {
      method: "POST",
      body: file,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(upload.status).toBe(200);
    await api(server.url, "POST", "/quick-messages", { shortcode: "horario", message: "Atendemos de 9 a 18 h." }, token);

    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ]) {
      const { context, page } = await newPage(browser, width, height);
      await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
      await page.getByTestId("greeting").waitFor();
      await page.goto(`${server.url}/quick-messages`);
      const row = page.locator(`[data-quick-message-id="${reply.id}"]`);
      await row.waitFor({ timeout: 15_000 });
      // the reply with a file shows its name beside a clip; the one without shows none
      const media = row.locator('[data-testid="quick-message-media"]:visible');
      await expect.poll(() => media.textContent()).toBe("tarifas-2026.pdf");
      expect(
        await page
          .getByTestId("quick-messages-row")
          .filter({ hasText: "/horario" })
          .locator('[data-testid="quick-message-media"]:visible')
          .count(),
      ).toBe(0);
      // the shortcode: one line (cut with an ellipsis, whole in its title), never broken inside the word
      const code = row.getByTestId("quick-message-shortcode");
      const lines = await code.evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
      );
      expect(lines).toBe(1);
      expect(await code.getAttribute("title")).toBe(`/${long}`);
      // the row's buttons are on screen, without scrolling sideways
      for (const action of ["quick-message-edit", "quick-message-delete"]) {
        const box = await row.getByTestId(action).boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(width);
      }
      await page.screenshot({ path: `/tmp/quick-messages-${width}.png` });
      await context.close();
    }
  });

  it("shows an agent edit and delete on their own replies only, not on a colleague's shared one", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const shared = await api<{ id: number }>(
      server.url,
      "POST",
      "/quick-messages",
      { shortcode: "empresa-horario", message: "Atendemos de 9 a 18" },
      token,
    );
    const agent = { email: `agente-qm-${Date.now()}@e2e.charla`, password: "agente-123" };
    await api(server.url, "POST", "/users", { name: "Agente Rápido", ...agent, profile: "user" }, token);
    const agentToken = await apiLogin(server.url, agent.email, agent.password);
    await api(server.url, "POST", "/quick-messages", { shortcode: "mio-saludo", message: "Hola, soy yo" }, agentToken);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, agent.email, agent.password);
    await page.getByTestId("menu-quick-messages").click({ timeout: 15_000 });
    await page.waitForURL(/\/quick-messages$/);
    const row = (id: string) => page.getByTestId("quick-messages-row").filter({ hasText: id });
    await row("/mio-saludo").waitFor({ timeout: 15_000 });
    await row("/empresa-horario").waitFor();
    expect(await row("/mio-saludo").getByTestId("quick-message-edit").count()).toBe(1);
    expect(await row("/mio-saludo").getByTestId("quick-message-delete").count()).toBe(1);
    // the company's reply is the agent's to use, not to change (the API answers 403 alike)
    expect(await row("/empresa-horario").getByTestId("quick-message-edit").count()).toBe(0);
    expect(await row("/empresa-horario").getByTestId("quick-message-delete").count()).toBe(0);
    await page.screenshot({ path: "/tmp/quick-messages-agent.png" });
    await context.close();
    await api(server.url, "DELETE", `/quick-messages/${shared.id}`, undefined, token);
  });
});
