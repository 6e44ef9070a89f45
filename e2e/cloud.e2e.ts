import type { Browser, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import * as meta from "../server/src/test/cloud-payloads.js";
import { exampleTemplates, graphTemplate, startFakeGraph } from "../server/src/test/fake-graph.js";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

/*
 * The official WhatsApp Cloud API end to end (issue 31): the built server talks to a fake Graph API
 * (GRAPH_API_URL); Meta's webhook calls are made here, signed with the connection's app secret.
 */
const fake = await startFakeGraph({ displayPhoneNumber: "15550783881", templates: exampleTemplates() });
afterAll(() => fake.close());

let server: RunningServer;
let browser: Browser;
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { GRAPH_API_URL: fake.baseUrl },
);

const shots = process.env.E2E_SHOTS_DIR;
const APP_SECRET = "e2e-app-secret-7f3a";
const VERIFY_TOKEN = "e2e-verify-token";
const HOUR_S = 3600;

type Ticket = { id: number; uuid: string; status: string; contact: { number: string } };

/** The browser's own session token: logging in through the API would end the page's session. */
async function pageApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = JSON.parse(localStorage.getItem("token") ?? '""') as string;
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  ) as Promise<{ status: number; json: T }>;
}

/** What Meta does: POSTs the payload to the connection's callback URL, signed with the app secret. */
async function deliver(webhookUrl: string, payload: object): Promise<number> {
  const raw = JSON.stringify(payload);
  const res = await fetch(webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": meta.signBody(raw, APP_SECRET) },
    body: raw,
  });
  await res.arrayBuffer();
  return res.status;
}

async function ticketOf(page: Page, number: string): Promise<Ticket> {
  let found: Ticket | undefined;
  await expect
    .poll(
      async () => {
        const { json } = await pageApi<{ tickets: Ticket[] }>(page, "GET", `/tickets?searchParam=${number}&showAll=true`);
        found = json?.tickets?.find((ticket) => ticket.contact.number === number);
        return found?.id ?? 0;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  return found as Ticket;
}

async function openChat(page: Page, ticket: Ticket) {
  await page.goto(`${server.url}/tickets/${ticket.uuid}`);
  await page.getByTestId("chat-header").waitFor({ timeout: 15_000 });
  await waitForLive(page);
}

const business = () => ({ phoneNumberId: fake.phoneNumberId, businessAccountId: fake.businessAccountId });
const textSends = () => fake.sent().filter((send) => send.type === "text");
const templateSends = () => fake.sent().filter((send) => send.type === "template");

describe("WhatsApp Cloud API", () => {
  it("an admin connects a Cloud API number, answers a customer inside the window, and once it has closed only a template goes", async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets/);

    // Connections → add: the Cloud API's fields show only for its provider
    await page.goto(`${server.url}/connections`);
    await page.getByTestId("connections-add").click();
    await page.getByTestId("connection-modal").waitFor();
    expect(await page.getByTestId("connection-cloud-fields").count()).toBe(0);
    await input(page, "connection-name").fill("Meta oficial");
    await input(page, "connection-number").fill("15550783881");
    await page.getByTestId("connection-provider").click();
    await page.getByTestId("connection-provider-cloud").click();
    await page.getByTestId("connection-cloud-fields").waitFor();
    await page.getByTestId("connection-cloud-webhook-later").waitFor();
    // the three secrets are required on a new connection (the server says so, beside its field or as a toast)
    await input(page, "connection-cloud-phone-number-id").fill(fake.phoneNumberId);
    await input(page, "connection-cloud-business-account-id").fill(fake.businessAccountId);
    await input(page, "connection-cloud-access-token").fill(fake.accessToken);
    await input(page, "connection-cloud-app-secret").fill(APP_SECRET);
    await input(page, "connection-cloud-verify-token").fill(VERIFY_TOKEN);
    expect(await input(page, "connection-cloud-access-token").getAttribute("type")).toBe("password");
    if (shots) await page.screenshot({ path: `${shots}/cloud-form-new.png` });
    await page.getByTestId("connection-save").click();

    // saved: the dialog stays open on the webhook URL to paste in Meta's app, secrets only by their tail
    const urlField = page.getByTestId("connection-cloud-webhook-url");
    await urlField.waitFor({ timeout: 15_000 });
    const webhookUrl = await urlField.inputValue();
    expect(webhookUrl).toMatch(/^https?:\/\/[^/]+\/api\/whatsapp-cloud\/webhook\/[\w-]{16,}$/);
    await page.getByTestId("connection-cloud-webhook-url-copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(webhookUrl);
    expect(await input(page, "connection-cloud-access-token").inputValue()).toBe("");
    const savedToken = await input(page, "connection-cloud-verify-token-saved").inputValue();
    expect(savedToken).not.toBe("");
    expect(savedToken).not.toBe(VERIFY_TOKEN);
    expect(VERIFY_TOKEN.endsWith(savedToken.replace(/[^\w-]/g, "").slice(-4))).toBe(true);
    expect(await page.getByTestId("connection-modal").textContent()).not.toContain(fake.accessToken);
    if (shots) await page.screenshot({ path: `${shots}/cloud-form-saved.png` });

    // the template automatic messages go as outside the window: one Meta lists as approved, with its variables
    const modal = page.getByTestId("connection-modal");
    await input(page, "connection-cloud-template-name").fill("no_existe");
    await input(page, "connection-cloud-template-language").fill("es");
    await page.getByTestId("connection-save").click();
    await expect
      .poll(() => modal.textContent(), { timeout: 15_000 })
      .toContain("No se encontró una plantilla aprobada con ese nombre e idioma.");
    await input(page, "connection-cloud-template-name").fill("seguimiento");
    await page.getByTestId("connection-cloud-template-params").fill("{{name}}\n");
    await page.getByTestId("connection-save").click();
    await expect.poll(() => modal.textContent(), { timeout: 15_000 }).toContain("La plantilla necesita 2 variables.");
    await page.getByTestId("connection-cloud-template-params").fill("{{name}}\n{{protocol}}");
    await page.getByTestId("connection-save").click();
    await modal.waitFor({ state: "detached", timeout: 15_000 });

    // the row: connected by the test call on save, no QR or session buttons for Meta's API
    const row = page
      .getByTestId("connections-row")
      .filter({ has: page.getByTestId("connection-label").getByText("Meta oficial", { exact: true }) });
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 15_000 }).toBe("CONNECTED");
    await row.getByTestId("connection-cloud-chip").waitFor();
    for (const button of ["connection-qr", "connection-new-qr", "connection-disconnect", "connection-retry"])
      expect(await row.getByTestId(button).count()).toBe(0);
    expect(
      fake.requests.some((r) => r.path.endsWith(`/${fake.phoneNumberId}`) && r.authorization === `Bearer ${fake.accessToken}`),
    ).toBe(true);
    if (shots) await page.screenshot({ path: `${shots}/cloud-connections.png` });

    // Meta's verification of the callback URL: the challenge back for the right token only
    const challenge = await fetch(`${webhookUrl}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(challenge.status).toBe(200);
    expect(await challenge.text()).toBe("1158201444");
    expect((await fetch(`${webhookUrl}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)).status).toBe(403);

    // a customer writes: the signed call is taken, a forged one refused
    const customer = { from: "5215544443333", name: "Lucía Nube" };
    const hello = meta.text("Hola, ¿siguen abiertos hoy?", customer, business());
    expect(await deliver(webhookUrl, hello)).toBe(200);
    const forged = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": meta.signBody(hello, "not-the-secret") },
      body: JSON.stringify(meta.text("Mensaje falso", customer, business())),
    });
    expect(forged.status).toBe(401);

    const ticket = await ticketOf(page, customer.from);
    await openChat(page, ticket);
    await page.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: "siguen abiertos" }).waitFor();
    expect(await page.locator('[data-testid="message"]').filter({ hasText: "Mensaje falso" }).count()).toBe(0);
    const chip = page.getByTestId("chat-window");
    await expect.poll(() => chip.getAttribute("data-open"), { timeout: 15_000 }).toBe("true");
    expect(await chip.textContent()).toMatch(/^Ventana abierta · cierra en 2[34] h$/);

    // inside the window the agent answers freely; the fake Graph API gets the text
    await page.getByTestId("chat-accept").click();
    await page.getByTestId("composer-input").fill("¡Hola Lucía! Sí, hasta las 20 h.");
    await page.getByTestId("composer-send").click();
    await expect.poll(() => textSends().length, { timeout: 15_000 }).toBe(1);
    expect(textSends()[0]).toMatchObject({
      messaging_product: "whatsapp",
      to: customer.from,
      type: "text",
      // the agent's signature (on by default) heads it
      text: { body: expect.stringMatching(/^\*Admin\*\n¡Hola Lucía! Sí, hasta las 20 h\.$/) },
    });
    // Meta's statuses move the ticks: delivered, then a failure shows its reason on the message
    // (each once the send's answer is stored, the one tick: Meta answers a send before its statuses)
    const answer = page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "hasta las 20 h" });
    await answer.locator('[data-testid="ack-sent"]').waitFor({ timeout: 15_000 });
    expect(
      await deliver(
        webhookUrl,
        meta.status(textSends()[0].answeredId ?? "", "delivered", { recipient: customer.from }, business()),
      ),
    ).toBe(200);
    await answer.locator('[data-testid="ack-delivered"]').waitFor({ timeout: 15_000 });
    if (shots) await page.screenshot({ path: `${shots}/cloud-chat-open.png` });

    await page.getByTestId("composer-input").fill("¿Te reservo una mesa?");
    await page.getByTestId("composer-send").click();
    await expect.poll(() => textSends().length, { timeout: 15_000 }).toBe(2);
    const second = textSends()[1].answeredId ?? "";
    const secondBubble = page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "reservo una mesa" });
    await secondBubble.locator('[data-testid="ack-sent"]').waitFor({ timeout: 15_000 });
    expect(await deliver(webhookUrl, meta.status(second, "failed", { recipient: customer.from, code: 131026 }, business()))).toBe(
      200,
    );
    const failed = secondBubble.locator('[data-testid="ack-failed"]');
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.getAttribute("aria-label")).toBe(
      "No se pudo enviar: WhatsApp no pudo entregar el mensaje a este número.",
    );

    // another customer whose last message is 25 h old: the window has closed
    const late = { from: "5215566667777", name: "Marta Tarde", timestamp: Math.floor(Date.now() / 1000) - 25 * HOUR_S };
    expect(await deliver(webhookUrl, meta.text("¿Me pueden llamar mañana?", late, business()))).toBe(200);
    const lateTicket = await ticketOf(page, late.from);
    await openChat(page, lateTicket);
    await expect.poll(() => chip.getAttribute("data-open"), { timeout: 15_000 }).toBe("false");
    expect(await chip.textContent()).toBe("Ventana de 24 h cerrada");
    await page.getByTestId("chat-accept").click();

    // only templates are offered: no free text box; the API refuses free text too
    await page.getByTestId("template-composer").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("composer-input").count()).toBe(0);
    const refused = await pageApi<{ error: string }>(page, "POST", `/messages/${lateTicket.id}`, { body: "texto libre" });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe("ERR_CLOUD_WINDOW_CLOSED");

    // the list comes from the business account; a template approved meanwhile shows after refreshing
    await page.getByTestId("template-select").click();
    await expect.poll(() => page.getByTestId("template-option").count()).toBe(2);
    await page.keyboard.press("Escape");
    fake.setTemplates([
      ...exampleTemplates(),
      {
        name: "recordatorio_cita",
        language: "es_MX",
        status: "APPROVED",
        category: "UTILITY",
        components: [{ type: "BODY", text: "{{1}}, te recordamos tu cita." }],
      },
      {
        name: "promo_rechazada",
        language: "es",
        status: "REJECTED",
        category: "MARKETING",
        components: [{ type: "BODY", text: "x" }],
      },
    ]);
    await page.getByTestId("template-refresh").click();
    await page.getByTestId("template-select").click();
    await expect.poll(() => page.getByTestId("template-option").count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByRole("listbox").textContent()).not.toContain("promo_rechazada");
    await page.getByTestId("template-option").filter({ hasText: "seguimiento" }).click();

    // its variables come filled from the contact and the ticket; the preview reads as the customer will
    expect(await input(page, "template-param-1").inputValue()).toBe("Marta Tarde");
    await input(page, "template-param-2").fill("");
    await input(page, "template-param-2").fill("#A-17");
    await page.keyboard.press("Escape");
    await expect
      .poll(() => page.getByTestId("template-preview-body").textContent())
      .toBe("Hola Marta Tarde, seguimos con tu consulta #A-17.");
    if (shots) {
      await page.screenshot({ path: `${shots}/cloud-chat-template.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId("template-preview").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/cloud-chat-template-phone.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.getByTestId("template-send").click();
    await expect.poll(() => templateSends().length, { timeout: 15_000 }).toBe(1);
    expect(templateSends()[0]).toMatchObject({
      to: late.from,
      template: graphTemplate("seguimiento", "es", ["Marta Tarde", "#A-17"]),
    });
    await page
      .locator('[data-testid="message"][data-from-me="true"]')
      .filter({ hasText: "Hola Marta Tarde, seguimos con tu consulta #A-17." })
      .waitFor({ timeout: 15_000 });

    // the customer answers: the window opens again live and the free text box comes back
    const answerId = meta.wamid();
    const answerFrom = { from: late.from, name: late.name, id: answerId };
    expect(await deliver(webhookUrl, meta.text("Sí, llámenme a las 10", answerFrom, business()))).toBe(200);
    await expect.poll(() => chip.getAttribute("data-open"), { timeout: 15_000 }).toBe("true");
    await page.getByTestId("composer-input").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("template-composer").count()).toBe(0);
    if (shots) await page.screenshot({ path: `${shots}/cloud-chat-reopened.png` });

    // the token is revoked at Meta: the send fails saying so, the connection turns DISCONNECTED with
    // the reason, and "Verificar" brings it back once Meta answers again
    await expect
      .poll(() => fake.sent().some((send) => send.status === "read" && send.message_id === answerId), { timeout: 15_000 })
      .toBe(true);
    fake.failNext(401, { code: 190, type: "OAuthException", message: "Error validating access token: Session has expired" });
    await page.getByTestId("composer-input").fill("¿A las 10 de la mañana?");
    await page.getByTestId("composer-send").click();
    const refusedMark = page
      .locator('[data-testid="message"][data-from-me="true"]')
      .filter({ hasText: "A las 10 de la mañana" })
      .locator('[data-testid="ack-failed"]');
    await refusedMark.waitFor({ timeout: 15_000 });
    expect(await refusedMark.getAttribute("aria-label")).toBe(
      "No se pudo enviar: WhatsApp rechazó el token de acceso de la conexión: genera uno nuevo en Meta y guárdalo en la conexión.",
    );
    await page.goto(`${server.url}/connections`);
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 15_000 }).toBe("DISCONNECTED");
    expect(await row.getByTestId("connection-status-reason").textContent()).toBe("Meta rechazó el token de acceso");
    expect(await row.getByTestId("connection-new-qr").count()).toBe(0);
    if (shots) {
      await page.screenshot({ path: `${shots}/cloud-connections-refused.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${shots}/cloud-connections-refused-phone.png` });
      await row.getByTestId("connection-edit").click();
      await page.getByTestId("connection-cloud-webhook").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/cloud-form-phone.png` });
      await page.getByTestId("connection-cancel").click();
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await row.getByTestId("connection-retry").click();
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 15_000 }).toBe("CONNECTED");
    expect(await row.getByTestId("connection-status-reason").count()).toBe(0);
    await context.close();
  }, 180_000);
});
