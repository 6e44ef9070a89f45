import type { IncomingHttpHeaders } from "node:http";
import type { Browser } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";
import { setPlanFlags, startFakeService } from "./support/fakes.js";

let server: RunningServer;
let browser: Browser;
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  // the receiver listens on 127.0.0.1
  { INTEGRATIONS_ALLOW_PRIVATE: "true" },
);

/** The company's webhook receiver: each request, and whether it verified with the Standard Webhooks library. */
type Received = { headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
let receiver: Awaited<ReturnType<typeof startFakeService>>;
let receiverUrl = "";
beforeAll(async () => {
  receiver = await startFakeService((req) => {
    received.push({ headers: req.headers, body: req.body });
    return undefined;
  });
  receiverUrl = `${receiver.url}/charla`;
});
afterAll(() => receiver.close());

const setFlag = (useIntegrations: boolean) => setPlanFlags(server.url, { useIntegrations });

describe("queue integrations", () => {
  it("without the plan's flag the page says so and sends the admin to /", async () => {
    await setFlag(false);
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-tickets").waitFor();
    expect(await page.getByTestId("menu-queue-integration").count()).toBe(0);
    await page.goto(`${server.url}/queue-integration`);
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 15_000 })
      .toContain("¡Esta empresa no tiene permiso para acceder a esta página! Te estamos redirigiendo.");
    await page.waitForURL((url) => url.pathname !== "/queue-integration", { timeout: 10_000 });
    await context.close();
  });

  it("the admin adds a webhook, copies its secret key, sends a test event and sees it delivered; the receiver verifies it", async () => {
    await setFlag(true);
    const { context, page } = await newPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-queue-integration").click();
    await page.waitForURL(/\/queue-integration$/);
    await page.getByTestId("integrations-empty").waitFor();
    await page.getByTestId("integrations-add").click();
    const dialog = page.getByTestId("integration-modal");
    await dialog.waitFor();
    // the name is checked as the API checks it (2 to 50)
    await input(page, "integration-name").fill("P");
    await input(page, "integration-url").fill(receiverUrl);
    await page.getByTestId("integration-modal-save").click();
    await dialog.getByText("Demasiado corto").waitFor();
    await input(page, "integration-name").fill("Pedidos a n8n");
    // typebot's defaults (secondary §9), then back to a webhook
    await page.getByTestId("integration-type").click();
    await page.getByTestId("integration-type-typebot").click();
    expect(await input(page, "integration-delay").inputValue()).toBe("1000");
    expect(await input(page, "integration-expires").inputValue()).toBe("1");
    await page.getByTestId("integration-type").click();
    await page.getByTestId("integration-type-webhook").click();
    await dialog.getByText("La clave secreta se genera al guardar").waitFor();
    await page.getByTestId("integration-modal-save").click();

    // saved: the dialog stays to show the server's secret key, read-only, to copy
    const keyInput = input(page, "integration-apikey");
    await keyInput.waitFor({ timeout: 10_000 });
    const secret = await keyInput.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(await keyInput.getAttribute("readonly")).not.toBeNull();
    await page.getByTestId("integration-apikey-copy").click();
    await page.getByText("¡Copiado!").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByTestId("integration-modal-cancel").click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);

    const row = page.getByTestId("integrations-row").filter({ hasText: "Pedidos a n8n" });
    await row.waitFor();
    await row.getByText("Sin envíos aún").waitFor();
    await row.getByTestId("integration-log").click();
    const log = page.getByTestId("delivery-log");
    await log.waitFor();
    await log.getByTestId("delivery-log-empty").waitFor();
    await page.getByTestId("delivery-log-test").click();
    // live: the log turns Entregado (company-{id}-queueIntegration), and so does the list's last delivery
    await log.locator('[data-testid="delivery-status"][data-status="delivered"]').waitFor({ timeout: 15_000 });
    expect(await log.getByTestId("delivery-row").first().textContent()).toContain("Entregado");
    expect(await log.getByTestId("delivery-row").first().textContent()).toContain("Evento de prueba");
    await page.getByTestId("delivery-log-close").click();
    await row.getByText("Entregado").waitFor({ timeout: 10_000 });

    // the receiver's own check, with the copied secret and the Standard Webhooks library
    expect(received).toHaveLength(1);
    const [req] = received;
    expect(req.headers["secret-key"]).toBe(secret);
    const body = new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
    expect(body).toEqual({ msg: [], eventintegration: "test", ticket: null, userData: null });
    const webhookId = req.headers["webhook-id"] as string;
    expect(webhookId).toMatch(/^test_/);
    await context.close();
  });
});
