import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { tinyPng } from "./support/png.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

/*
 * Issue #8, "What a user saw": the bell at zero, reopening from the closed tab, the chat at 390 px,
 * the interface language (MUI's texts, the user menu, cut labels), live lists without refetching,
 * and no logo request for a company without one.
 */

type Ticket = { id: number; uuid: string; status: string; userId: number | null };
type Connection = { id: number; isDefault: boolean };
type Inbound = { ticketId: number };

// A second admin does the set-up: a login ends the user's other sessions, so the admin watching the
// screen must not be the one whose token drives the customers and the assignments.
const HELPER = { name: "Admin Ayudante", email: "ayudante@e2e.test", password: "ayudante-123" };

let server: RunningServer;
let browser: Browser;
let helper = "";
let whatsappId = 0;
let adminId = 0;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function setUp(): Promise<void> {
  if (helper) return;
  const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
  await api(server.url, "POST", "/users", { ...HELPER, profile: "admin" }, admin);
  helper = await apiLogin(server.url, HELPER.email, HELPER.password);
  const connections = await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, helper);
  whatsappId = (connections.find((c) => c.isDefault) ?? connections[0]).id;
  const users = await api<{ id: number; email: string }[]>(server.url, "GET", "/users/list", undefined, helper);
  adminId = users.find((u) => u.email === ADMIN.email)?.id ?? 0;
  expect(adminId).toBeGreaterThan(0);
}

async function customerSays(number: string, name: string, body: string): Promise<Ticket> {
  const inbound = await api<Inbound>(server.url, "POST", `/simulator/${whatsappId}/inbound`, { number, name, body }, helper);
  return api<Ticket>(server.url, "GET", `/tickets/${inbound.ticketId}`, undefined, helper);
}

/** A customer's ticket, open and assigned to the admin watching the screen. */
async function adminTicket(number: string, name: string, bodies: string[]): Promise<Ticket> {
  let ticket = await customerSays(number, name, bodies[0]);
  for (const body of bodies.slice(1)) ticket = await customerSays(number, name, body);
  return api<Ticket>(server.url, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: adminId }, helper);
}

async function openTickets(page: Page): Promise<void> {
  await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
  await page.getByTestId("tickets-list").waitFor();
  await waitForLive(page);
}

const item = (page: Page, ticketId: number) => page.locator(`[data-testid="ticket-item"][data-ticket-id="${ticketId}"]`);
const countOf = async (page: Page, which: "assigned" | "pending") =>
  Number((await page.getByTestId(`tickets-count-${which}`).textContent())?.trim());

/** Requests for ticket lists (GET /api/v1/tickets with any query), the bell's included. */
function countListRequests(page: Page): { count: () => number; reset: () => void } {
  let count = 0;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" && url.pathname === "/api/v1/tickets") count++;
  });
  return {
    count: () => count,
    reset: () => {
      count = 0;
    },
  };
}

describe("what a user saw", () => {
  it("the bell shows no badge at zero; messages and acks update the lists and the bell without reading them again", async () => {
    await setUp();
    const { context, page } = await newPage(browser);
    const lists = countListRequests(page);
    const logoRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith("/logo")) logoRequests.push(request.url());
    });
    await openTickets(page);

    // nothing unread: no red "0"
    const bell = page.getByTestId("bell-tickets");
    expect(await bell.getAttribute("data-count")).toBe("0");
    expect(await bell.locator(".MuiBadge-badge").getAttribute("class")).toContain("MuiBadge-invisible");
    expect((await bell.textContent())?.trim()).toBe("");

    const number = "5215570000001";
    const ticket = await adminTicket(number, "Cliente En Vivo", ["Hola"]);
    const row = item(page, ticket.id);
    await row.waitFor({ timeout: 10_000 });
    await expect.poll(() => bell.getAttribute("data-count"), { timeout: 10_000 }).toBe("1");
    const unread = (await api<{ unreadMessages: number }>(server.url, "GET", `/tickets/${ticket.id}`, undefined, helper))
      .unreadMessages;
    await page.waitForTimeout(1500); // anything the set-up started has settled
    lists.reset();

    // three customer messages: the row, its unread count and the bell follow the events
    for (const body of ["¿Siguen ahí?", "Necesito el pedido", "Último mensaje del cliente"]) {
      await customerSays(number, "Cliente En Vivo", body);
    }
    await expect.poll(() => row.getByTestId("ticket-item-unread").textContent(), { timeout: 10_000 }).toBe(String(unread + 3));
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain("Último mensaje del cliente");
    expect(await bell.getAttribute("data-count")).toBe("1");
    expect((await bell.textContent())?.trim()).toBe("1");

    // a new customer lands in the pending tab, live
    const before = await countOf(page, "pending");
    await customerSays("5215570000002", "Cliente Nuevo", "Buenas tardes");
    await expect.poll(() => countOf(page, "pending"), { timeout: 10_000 }).toBe(before + 1);

    // an answer and its acks (the customer reads it) only update the row
    await api(server.url, "POST", `/messages/${ticket.id}`, { body: "Respuesta del equipo" }, helper);
    await api(server.url, "POST", `/simulator/${whatsappId}/read`, { number }, helper);
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain("Respuesta del equipo");
    await page.waitForTimeout(1500);
    expect(lists.count()).toBe(0);

    // the company has no logo: it is never asked for; once it has one, the next session shows it
    expect(logoRequests).toEqual([]);
    const me = await api<{ companyId: number }>(server.url, "GET", "/auth/me", undefined, helper);
    const form = new FormData();
    form.append("logo", new Blob([new Uint8Array(tinyPng())], { type: "image/png" }), "logo.png");
    const upload = await fetch(`${server.url}/api/v1/companies/${me.companyId}/logo`, {
      method: "POST",
      headers: { authorization: `Bearer ${helper}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    await page.reload();
    await expect.poll(() => logoRequests.length, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() => page.locator('header img[alt^="Logo de"]').getAttribute("src"), { timeout: 10_000 })
      .toMatch(/^blob:/);
    await context.close();
  });

  it("reopening a ticket from the closed tab moves the list to the open tab with the ticket selected", async () => {
    await setUp();
    const ticket = await adminTicket("5215570000003", "Cliente Cerrado", ["Gracias, eso era todo"]);
    await api(server.url, "PUT", `/tickets/${ticket.id}`, { status: "closed", userId: adminId }, helper);
    const { context, page } = await newPage(browser);
    await openTickets(page);

    await page.getByTestId("tickets-tab-closed").click();
    await item(page, ticket.id).click();
    await page.waitForURL(new RegExp(`/tickets/${ticket.uuid}`), { timeout: 10_000 });
    await page.getByTestId("chat-reopen").click();

    await expect.poll(() => page.getByTestId("tickets-tab-open").getAttribute("aria-selected"), { timeout: 10_000 }).toBe("true");
    expect(await page.getByTestId("tickets-subtab-assigned").getAttribute("aria-selected")).toBe("true");
    const row = item(page, ticket.id);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute("data-status")).toBe("open");
    await expect.poll(() => row.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    expect(await page.getByTestId("tickets-empty").count()).toBe(0);
    await context.close();
  });

  it("at 390 px each bubble's menu arrow sits beside its time, and the day label does not stay over the messages", async () => {
    await setUp();
    const bodies = ["ok", "Hola", "Buenas tardes, quería saber si tienen disponible el producto que vi ayer", "sí"];
    for (let i = 0; i < 6; i++) bodies.push(`Mensaje de relleno número ${i + 1} para que la conversación se desplace`);
    const ticket = await adminTicket("5215570000004", "Cliente Móvil", bodies);
    const context = await browser.newContext({
      viewport: { width: 390, height: 700 },
      locale: "es-MX",
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    await openTickets(page);
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    await page.getByTestId("chat-header").waitFor({ timeout: 15_000 });
    const bubbles = page.locator('[data-testid="message"]');
    await expect.poll(() => bubbles.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(bodies.length);

    for (let i = 0; i < (await bubbles.count()); i++) {
      const bubble = bubbles.nth(i);
      await bubble.scrollIntoViewIfNeeded();
      const arrow = await bubble.getByTestId("message-menu").boundingBox();
      const time = await bubble
        .locator("span", { hasText: /^\d{2}:\d{2}$/ })
        .last()
        .boundingBox();
      expect(arrow && time).toBeTruthy();
      if (!arrow || !time) continue;
      const overlap =
        arrow.x < time.x + time.width &&
        time.x < arrow.x + arrow.width &&
        arrow.y < time.y + time.height &&
        time.y < arrow.y + arrow.height;
      expect(overlap, `bubble ${i}: arrow ${JSON.stringify(arrow)} over time ${JSON.stringify(time)}`).toBe(false);
    }

    // the day divider scrolls with the messages; a floating copy shows while scrolling, then goes
    const divider = page.getByTestId("day-divider").first();
    expect(await divider.evaluate((el) => getComputedStyle(el.parentElement as HTMLElement).position)).not.toBe("sticky");
    const list = page.getByTestId("chat-messages");
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.waitForTimeout(1500);
    await list.evaluate((el) => {
      el.scrollTop = 200;
    });
    await expect.poll(() => page.getByTestId("day-floating").textContent(), { timeout: 3000 }).toMatch(/hoy/i);
    await expect.poll(() => page.getByTestId("day-floating").count(), { timeout: 5000 }).toBe(0);
    await context.close();
  });

  it("Spanish throughout: MUI's and the toasts' texts, an empty picker says Sin opciones", async () => {
    await setUp();
    const ticket = await adminTicket("5215570000005", "Cliente Traslado", ["Quiero hablar con ventas"]);
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);

    // the login toast (shown for 2 s): its region and close button speak Spanish
    const close = page.locator("button.Toastify__close-button").first();
    await close.waitFor({ timeout: 5000 });
    expect(await close.getAttribute("aria-label")).toBe("Cerrar aviso");
    expect(await page.locator('[aria-label="Notificaciones (Alt+T)"]').count()).toBe(1);
    expect(await page.locator('[aria-label="Notifications Alt+T"], [aria-label="close"]').count()).toBe(0);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });

    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    await page.getByTestId("chat-header").waitFor({ timeout: 15_000 });
    expect(
      await page
        .locator('textarea[data-testid="composer-input"], [data-testid="composer-input"] textarea')
        .first()
        .getAttribute("placeholder"),
    ).toBe("Escribe un mensaje");
    await page.getByTestId("chat-options").click();
    await page.getByTestId("chat-transfer").click();
    const modal = page.getByTestId("transfer-modal");
    await modal.waitFor();
    // the company has no queues: the picker opens empty
    expect(await modal.locator('button[aria-label="Abrir"]').count()).toBeGreaterThan(0);
    expect(await modal.locator('[aria-label="Open"], [aria-label="Clear"]').count()).toBe(0);
    await page.getByTestId("transfer-queue").click();
    await expect
      .poll(() => page.locator(".MuiAutocomplete-noOptions").first().textContent(), { timeout: 5000 })
      .toBe("Sin opciones");
    await context.close();
  });

  it("the user menu changes the language and it is remembered; English chips keep their labels at 390 px", async () => {
    await setUp();
    const ticket = await adminTicket("5215570000006", "Cliente Etiquetas", ["Hola"]);
    const tags: number[] = [];
    for (const [name, color] of [
      ["Urgente", "#E53935"],
      ["Cliente VIP", "#1E88E5"],
    ]) {
      tags.push((await api<{ id: number }>(server.url, "POST", "/tags", { name, color }, helper)).id);
    }
    await api(server.url, "POST", "/tags/sync", { ticketId: ticket.id, tags: tags.map((id) => ({ id })) }, helper);

    const { context, page } = await newPage(browser, 390, 800);
    await openTickets(page);
    expect(await page.getByTestId("tickets-tab-open").textContent()).toContain("Abiertos");

    await page.getByTestId("user-menu-button").click();
    await page.getByTestId("menu-language").click();
    await page.getByTestId("language-en").click();
    await expect.poll(() => page.getByTestId("tickets-tab-open").textContent(), { timeout: 5000 }).toContain("Open");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");

    // remembered across a reload, as the login page's choice is
    await page.reload();
    await page.getByTestId("tickets-list").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("tickets-tab-open").textContent()).toContain("Open");

    // connection and user chips are not cut to "Simula…" / "Ad…" by the tags beside them
    const row = item(page, ticket.id);
    await row.waitFor({ timeout: 10_000 });
    for (const testId of ["ticket-item-connection", "ticket-item-user"]) {
      const cut = await row
        .getByTestId(testId)
        .evaluate((el) => (el.lastElementChild as HTMLElement).scrollWidth > (el.lastElementChild as HTMLElement).clientWidth);
      expect(cut, testId).toBe(false);
    }
    await context.close();
  });
});
