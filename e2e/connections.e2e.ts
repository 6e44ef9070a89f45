import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

const AGENT = { name: "Agente Conexiones", email: "agente-conexiones@e2e.test", password: "agente-123" };

let server: RunningServer;
let browser: Browser;

// test mode: "beta" connections get a stand-in phone that shows a QR and scans it itself
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { CHARLA_FAKE_WHATSAPP: "1" },
);

// by the name cell: every simulator row also carries a "Simulador" chip
const row = (page: Page, name: string) =>
  page.getByTestId("connections-row").filter({ has: page.getByTestId("connection-label").getByText(name, { exact: true }) });
const statusOf = (page: Page, name: string) => row(page, name).getAttribute("data-status");

async function openConnections(page: Page) {
  await page.getByTestId("menu-connections").click();
  await page.waitForURL(/\/connections$/);
  await page.getByTestId("connections-table").waitFor();
}

async function confirm(page: Page, title: string) {
  const dialog = page.getByTestId("confirm-dialog");
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain(title);
  await page.getByTestId("confirm-ok").click();
  await expect.poll(() => page.getByTestId("confirm-dialog").count(), { timeout: 10_000 }).toBe(0);
}

describe("connections page", () => {
  it("admin disconnects the seeded simulator and brings it back, live", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openConnections(page);
    const simulator = row(page, "Simulador");
    await simulator.waitFor();
    expect(await simulator.getByTestId("connection-simulator-chip").textContent()).toBe("Simulador");
    expect(await simulator.getAttribute("data-default")).toBe("true");
    expect(await simulator.getByTestId("connection-is-default").count()).toBe(1);
    expect(await simulator.getByTestId("connection-updated").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}$/);

    // the session resumes at start; should it not be up yet, Reintentar brings it
    if ((await statusOf(page, "Simulador")) === "DISCONNECTED") await simulator.getByTestId("connection-retry").click();
    await expect.poll(() => statusOf(page, "Simulador"), { timeout: 10_000 }).toBe("CONNECTED");
    expect(await simulator.getByTestId("connection-status").getAttribute("data-status")).toBe("CONNECTED");
    expect(await simulator.getByTestId("connection-disconnect").count()).toBe(1);
    expect(await simulator.getByTestId("connection-retry").count()).toBe(0);
    // core §9: every connection is up, so no warning on the menu (evaluated after 2 s)
    await page.waitForTimeout(2500);
    expect(await page.getByTestId("menu-connections-warning").count()).toBe(0);

    // Desconectar, through the confirm dialog: the status arrives over the socket
    await simulator.getByTestId("connection-disconnect").click();
    await confirm(page, "¿Desconectar Simulador?");
    await expect.poll(() => statusOf(page, "Simulador"), { timeout: 10_000 }).toBe("DISCONNECTED");
    await simulator.getByTestId("connection-retry").waitFor();
    expect(await simulator.getByTestId("connection-new-qr").count()).toBe(1);
    expect(await simulator.getByTestId("connection-disconnect").count()).toBe(0);
    await page.getByTestId("menu-connections-warning").waitFor({ timeout: 10_000 });

    // Reintentar: connected again, and the warning goes
    await simulator.getByTestId("connection-retry").click();
    await expect.poll(() => statusOf(page, "Simulador"), { timeout: 10_000 }).toBe("CONNECTED");
    await simulator.getByTestId("connection-disconnect").waitFor();
    await expect.poll(() => page.getByTestId("menu-connections-warning").count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it("admin adds a simulator connection, makes it the default and deletes it", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openConnections(page);
    await row(page, "Simulador").waitFor();

    // the form's own checks first: name and number are required
    await page.getByTestId("connections-add").click();
    await page.getByTestId("connection-save").click();
    await expect.poll(() => page.getByTestId("connection-modal").textContent()).toContain("Requerido");

    await input(page, "connection-name").fill("Sucursal Norte");
    await input(page, "connection-number").fill("+52 1 55 9876 5432");
    await page.getByTestId("connection-provider").click();
    await page.getByTestId("connection-provider-simulator").click();
    await page.getByTestId("connection-greeting").fill("¡Hola! Bienvenido a la sucursal norte.");
    await page.getByTestId("connection-save").click();
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Conexión guardada con éxito.");
    const added = row(page, "Sucursal Norte");
    await added.waitFor({ timeout: 10_000 });
    // issue 26: a simulator has nothing to scan, so it starts at once (no «Reintentar» needed)
    await expect.poll(() => added.getAttribute("data-status"), { timeout: 10_000 }).toBe("CONNECTED");
    // and its tooltip speaks of the simulator, not of a phone's internet or QR codes
    await added.getByTestId("connection-status").hover();
    const tooltip = page.getByTestId("connection-status-tooltip");
    await tooltip.waitFor({ timeout: 10_000 });
    expect(await tooltip.textContent()).toContain("Simulador listo");
    expect(await tooltip.textContent()).not.toMatch(/QR|internet/);
    await page.mouse.move(0, 0);
    expect(await added.getAttribute("data-default")).toBe("false");
    expect(await added.getByTestId("connection-simulator-chip").count()).toBe(1);
    expect(await added.textContent()).toContain("+52 1 55 9876 5432");
    const id = Number(await added.getAttribute("data-connection-id"));
    expect(id).toBeGreaterThan(0);

    // edit: the saved values come back; making it the default moves the flag
    await added.getByTestId("connection-edit").click();
    await expect.poll(() => input(page, "connection-name").inputValue(), { timeout: 10_000 }).toBe("Sucursal Norte");
    expect(await input(page, "connection-number").inputValue()).toBe("5215598765432");
    expect(await page.getByTestId("connection-greeting").inputValue()).toBe("¡Hola! Bienvenido a la sucursal norte.");
    // the provider is chosen once, at creation
    expect(await page.getByTestId("connection-provider").count()).toBe(0);
    expect(await input(page, "connection-default").isChecked()).toBe(false);
    await input(page, "connection-default").check();
    await page.getByTestId("connection-save").click();
    await expect.poll(() => page.getByTestId("connection-modal").count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => added.getAttribute("data-default"), { timeout: 10_000 }).toBe("true");
    expect(await row(page, "Simulador").getAttribute("data-default")).toBe("false");
    expect(await page.getByTestId("connection-is-default").count()).toBe(1);

    // the default cannot simply be switched off: the switch is locked in its modal
    await added.getByTestId("connection-edit").click();
    await expect.poll(() => input(page, "connection-name").inputValue(), { timeout: 10_000 }).toBe("Sucursal Norte");
    expect(await input(page, "connection-default").isDisabled()).toBe(true);
    await page.getByTestId("connection-cancel").click();
    await expect.poll(() => page.getByTestId("connection-modal").count(), { timeout: 10_000 }).toBe(0);

    // delete, through the confirm dialog: the oldest remaining connection becomes the default again
    await added.getByTestId("connection-delete").click();
    await confirm(page, "¿Eliminar Sucursal Norte?");
    await expect.poll(() => row(page, "Sucursal Norte").count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Conexión eliminada con éxito.");
    await expect.poll(() => row(page, "Simulador").getAttribute("data-default"), { timeout: 10_000 }).toBe("true");
    await context.close();
  });

  it("a new WhatsApp (beta) connection opens the QR modal with a QR image, then turns CONNECTED live", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openConnections(page);
    await page.getByTestId("connections-add").click();
    await input(page, "connection-name").fill("WhatsApp Ventas");
    await input(page, "connection-number").fill("5215511223344");
    await page.getByTestId("connection-save").click();
    const beta = row(page, "WhatsApp Ventas");
    await beta.waitFor({ timeout: 10_000 });
    expect(await beta.getAttribute("data-status")).toBe("DISCONNECTED");

    // Reintentar starts the session: it asks for a scan, and the row's QR button opens the modal
    await beta.getByTestId("connection-retry").click();
    await expect.poll(() => beta.getAttribute("data-status"), { timeout: 10_000 }).toBe("qrcode");
    await beta.getByTestId("connection-qr").click();
    const image = page.getByTestId("qr-image");
    await image.waitFor({ timeout: 10_000 });
    const box = await image.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);

    // the phone scans: the modal closes by itself and the row shows CONNECTED with its button
    await expect.poll(() => page.getByTestId("qr-modal").count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => beta.getAttribute("data-status"), { timeout: 10_000 }).toBe("CONNECTED");
    expect(await beta.getByTestId("connection-disconnect").count()).toBe(1);
    await context.close();
  });

  it("shows exactly the buttons of core §4 for every status", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const statuses = ["qrcode", "DISCONNECTED", "CONNECTED", "PAIRING", "TIMEOUT", "OPENING"] as const;
    for (const status of statuses)
      await api(
        server.url,
        "POST",
        "/whatsapp",
        { name: `Estado ${status}`, number: "5215500001111", provider: "simulator" },
        token,
      );
    const { context, page } = await newPage(browser);
    // the list as the server would send it with each connection in its status (no phone can reach them all here)
    await page.route(/\/api\/v1\/whatsapp$/, async (route) => {
      const res = await route.fetch();
      const list = (await res.json()) as { name: string; status: string; qrcode: string }[];
      for (const c of list) {
        const wanted = statuses.find((st) => c.name === `Estado ${st}`);
        if (wanted) Object.assign(c, { status: wanted, qrcode: wanted === "qrcode" ? "charla-demo-qr-status-test" : "" });
      }
      await route.fulfill({ response: res, json: list });
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openConnections(page);
    const buttons = ["connection-qr", "connection-retry", "connection-new-qr", "connection-disconnect", "connection-connecting"];
    const expected: Record<(typeof statuses)[number], string[]> = {
      qrcode: ["connection-qr"],
      DISCONNECTED: ["connection-retry", "connection-new-qr"],
      CONNECTED: ["connection-disconnect"],
      PAIRING: ["connection-disconnect"],
      TIMEOUT: ["connection-disconnect"],
      OPENING: ["connection-connecting"],
    };
    for (const status of statuses) {
      const r = row(page, `Estado ${status}`);
      await r.waitFor();
      expect(await r.getAttribute("data-status")).toBe(status);
      const shown: string[] = [];
      for (const b of buttons) if ((await r.getByTestId(b).count()) > 0) shown.push(b);
      expect(shown, status).toEqual(expected[status]);
    }
    expect(await row(page, "Estado OPENING").getByTestId("connection-connecting").isDisabled()).toBe(true);
    await context.close();
  });

  it("the WhatsApp link generator builds a wa.me link with an optional text, to copy or open (issue 26)", async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openConnections(page);
    await row(page, "Simulador").getByTestId("connection-link").click();
    const dialog = page.getByTestId("whatsapp-link-dialog");
    await dialog.waitFor();
    await input(page, "whatsapp-link-number").fill("+52 1 55 1234 5678");
    expect(await input(page, "whatsapp-link-url").inputValue()).toBe("https://wa.me/5215512345678");
    await page.getByTestId("whatsapp-link-text").fill("Hola, quiero información & precios");
    const link = "https://wa.me/5215512345678?text=Hola%2C%20quiero%20informaci%C3%B3n%20%26%20precios";
    expect(await input(page, "whatsapp-link-url").inputValue()).toBe(link);
    expect(await page.getByTestId("whatsapp-link-open").getAttribute("href")).toBe(link);
    expect(await page.getByTestId("whatsapp-link-open").getAttribute("target")).toBe("_blank");
    await page.getByTestId("whatsapp-link-copy").click();
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Enlace copiado.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    // no number, no link
    await input(page, "whatsapp-link-number").fill("");
    expect(await input(page, "whatsapp-link-url").inputValue()).toBe("");
    expect(await page.getByTestId("whatsapp-link-copy").isDisabled()).toBe(true);
    await page.getByTestId("whatsapp-link-close").click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it("a WhatsApp (beta) session that stays OPENING says the server cannot reach WhatsApp (issue 26)", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "POST", "/whatsapp", { name: "Sin Salida", number: "5215500002222" }, token);
    const { context, page } = await newPage(browser);
    // the list as a server with no way out to WhatsApp sends it: OPENING since two minutes ago
    const since = new Date(Date.now() - 120_000).toISOString();
    await page.route(/\/api\/v1\/whatsapp$/, async (route) => {
      const res = await route.fetch();
      const list = (await res.json()) as { name: string; status: string; updatedAt: string }[];
      for (const c of list) if (c.name === "Sin Salida") Object.assign(c, { status: "OPENING", updatedAt: since });
      await route.fulfill({ response: res, json: list });
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openConnections(page);
    const stuck = row(page, "Sin Salida");
    await stuck.waitFor();
    const reason = stuck.getByTestId("connection-status-reason");
    await reason.waitFor({ timeout: 10_000 });
    expect(await reason.textContent()).toBe("El servidor no logra comunicarse con WhatsApp");
    await stuck.getByTestId("connection-status").hover();
    const tooltip = page.getByTestId("connection-status-tooltip");
    await tooltip.waitFor({ timeout: 10_000 });
    expect(await tooltip.textContent()).toContain("web.whatsapp.com");
    // a session that just began OPENING is still given its time
    expect(await row(page, "Simulador").getByTestId("connection-status-reason").count()).toBe(0);
    await context.close();
  });

  it("an agent has no Connections menu item nor page", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "POST", "/users", { ...AGENT, profile: "user" }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, AGENT.email, AGENT.password);
    await page.getByTestId("menu-contacts").waitFor();
    expect(await page.getByTestId("menu-connections").count()).toBe(0);
    // a typed URL does not open what the menu hides
    await page.goto(`${server.url}/connections`);
    await page.getByTestId("menu-contacts").waitFor();
    expect(await page.getByTestId("connections-table").count()).toBe(0);
    await context.close();
  });
});
