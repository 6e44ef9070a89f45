import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { tinyPng } from "./support/png.js";
import type { RunningServer } from "./support/server.js";
import { ADMIN, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const CUSTOMER = { number: "5215587654321", display: "+52 1 55 8765 4321" };

describe("/messages-api", () => {
  it("an admin copies a Simulator connection's token, sends a text and a file through the test forms, and the phone receives both", async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);

    // Connections → Token on the seed's Simulator connection: shown, copied
    await page.getByTestId("menu-connections").click();
    await page.waitForURL(/\/connections$/);
    const row = page
      .getByTestId("connections-row")
      .filter({ has: page.getByTestId("connection-label").getByText("Simulador", { exact: true }) });
    await row.getByTestId("connection-api-token").click();
    const dialog = page.getByTestId("api-token-dialog");
    await dialog.waitFor();
    await expect.poll(() => page.getByTestId("api-token-value").inputValue(), { timeout: 10_000 }).toMatch(/^chr_/);
    const shown = await page.getByTestId("api-token-value").inputValue();
    // regenerated after a confirmation: a new token, the old one stops working (checked below)
    await page.getByTestId("api-token-regenerate").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => page.getByTestId("api-token-value").inputValue(), { timeout: 10_000 }).not.toBe(shown);
    const old = shown;
    await page.getByTestId("api-token-copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^chr_/);
    const token = await page.evaluate(() => navigator.clipboard.readText());
    expect(token).toBe(await page.getByTestId("api-token-value").inputValue());
    expect(token).not.toBe(old);

    // the dialog's link leads to the documentation page, reachable from the menu too
    await page.getByTestId("api-token-docs").click();
    await page.waitForURL(/\/messages-api$/);
    for (const section of ["text", "media", "contact", "messages", "groups", "webhook"])
      await page.getByTestId(`api-section-${section}`).waitFor();
    expect(await page.getByTestId("api-curl-text").textContent()).toContain(`${server.url}/api/messages/send`);
    expect(await page.getByTestId("api-connections-link").getAttribute("href")).toBe("/connections");
    expect(await page.getByTestId("menu-messages-api").count()).toBe(1);

    // the text form: all three fields are required
    await page.getByTestId("api-text-send").click();
    await expect.poll(() => page.getByTestId("api-text-form").textContent()).toContain("Requerido");
    await input(page, "api-text-token").fill(token);
    await input(page, "api-text-number").fill(CUSTOMER.number);
    await page.getByTestId("api-text-body").fill("Hola desde la API");
    await page.getByTestId("api-text-send").click();
    await page.getByText("Mensaje enviado con éxito.").waitFor({ timeout: 10_000 });

    // the media form: token, number and file
    await input(page, "api-media-token").fill(token);
    await input(page, "api-media-number").fill(CUSTOMER.number);
    await page.getByTestId("api-media-send").click();
    await expect.poll(() => page.getByTestId("api-media-form").textContent()).toContain("Requerido");
    await page.getByTestId("api-media-file").setInputFiles({ name: "recibo.png", mimeType: "image/png", buffer: tinyPng() });
    await expect.poll(() => page.getByTestId("api-media-file-name").textContent()).toBe("recibo.png");
    await page.getByTestId("api-media-send").click();
    await page.getByText("Mensaje enviado correctamente").waitFor({ timeout: 10_000 });

    // the regenerated-away token is refused with the catalogue's words
    await input(page, "api-text-token").fill(old);
    await page.getByTestId("api-text-body").fill("No debe llegar");
    await page.getByTestId("api-text-send").click();
    await page.getByText("Token de API inválido").first().waitFor({ timeout: 10_000 });

    // the customer's phone (the Simulator page) got both
    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await page.getByTestId("simulator-thread").waitFor();
    await input(page, "simulator-number").fill(CUSTOMER.number);
    await page.getByTestId("simulator-out").filter({ hasText: "Hola desde la API" }).waitFor({ timeout: 15_000 });
    await page.getByTestId("simulator-out-image").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("simulator-out").filter({ hasText: "No debe llegar" }).count()).toBe(0);
    await context.close();
  });

  it("an agent without the admin profile has no menu item and is told and sent away from the page", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const agent = { name: "Agente API", email: "agente-api@e2e.test", password: "agente-123", profile: "user" };
    await api(server.url, "POST", "/users", agent, token);
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, agent.email, agent.password);
    await page.getByTestId("menu-tickets").waitFor();
    expect(await page.getByTestId("menu-messages-api").count()).toBe(0);
    await page.goto(`${server.url}/messages-api`);
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 15_000 })
      .toContain("¡Esta empresa no tiene permiso para acceder a esta página! Te estamos redirigiendo.");
    await page.waitForURL((url) => url.pathname !== "/messages-api", { timeout: 10_000 });
    expect(await page.getByTestId("api-section-text").count()).toBe(0);
    await context.close();
  });
});
