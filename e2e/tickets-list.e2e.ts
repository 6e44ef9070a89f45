import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Ticket = { id: number; uuid: string; status: string; userId: number | null; queueId: number | null };
type TicketsPage = { tickets: Ticket[]; count: number };
type Connection = { id: number; isDefault: boolean; provider?: string };
type Inbound = { ticketId: number | null };

// A second admin does the set-up: a login ends the user's other sessions, so the admin watching the
// screen must not be the one whose token sends the customers' messages.
const HELPER = { name: "Admin Ayudante", email: "ayudante@e2e.test", password: "ayudante-123" };
const AGENT_OFF = { name: "Agente Sin Todos", email: "agente-off@e2e.test", password: "agente-123" };
const AGENT_ON = { name: "Agente Con Todos", email: "agente-on@e2e.test", password: "agente-123" };

let server: RunningServer;
let browser: Browser;
let helper = "";
let whatsappId = 0;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function setUp(): Promise<void> {
  if (helper) return;
  const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
  await api(server.url, "POST", "/users", { ...HELPER, profile: "admin" }, admin);
  await api(server.url, "POST", "/users", { ...AGENT_OFF, profile: "user", allTicket: "disable" }, admin);
  await api(server.url, "POST", "/users", { ...AGENT_ON, profile: "user", allTicket: "enable" }, admin);
  helper = await apiLogin(server.url, HELPER.email, HELPER.password);
  const connections = await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, helper);
  const simulator = connections.find((c) => c.isDefault) ?? connections[0];
  whatsappId = simulator.id;
}

/** A customer writes through the simulator connection; the answer names the ticket it landed in. */
async function customerSays(number: string, name: string, body: string): Promise<Ticket> {
  const inbound = await api<Inbound>(server.url, "POST", `/simulator/${whatsappId}/inbound`, { number, name, body }, helper);
  expect(inbound.ticketId).toBeGreaterThan(0);
  return api<Ticket>(server.url, "GET", `/tickets/${inbound.ticketId}`, undefined, helper);
}

const item = (page: Page, ticketId: number) => page.locator(`[data-testid="ticket-item"][data-ticket-id="${ticketId}"]`);
const countOf = async (page: Page, which: "assigned" | "pending") =>
  Number((await page.getByTestId(`tickets-count-${which}`).textContent())?.trim());

async function openTickets(page: Page, email: string, password: string): Promise<void> {
  await loginThroughUi(page, server.url, email, password);
  // the tickets screen is where a login lands once the area exists
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
  await page.getByTestId("tickets-list").waitFor();
  await waitForLive(page);
}

describe("tickets list", () => {
  it("a customer message raises the pending count live; peek leaves it unread; accept opens it as assigned", async () => {
    await setUp();
    const { context, page } = await newPage(browser);
    await openTickets(page, ADMIN.email, ADMIN.password);
    expect(await countOf(page, "pending")).toBe(0);
    expect(await page.getByTestId("tickets-empty").count()).toBe(1);

    const ticket = await customerSays("5215500000001", "Cliente Uno", "Hola, necesito ayuda con mi pedido");
    expect(ticket.status).toBe("pending");
    await expect.poll(() => countOf(page, "pending"), { timeout: 10_000 }).toBe(1);

    await page.getByTestId("tickets-subtab-pending").click();
    const row = item(page, ticket.id);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute("data-status")).toBe("pending");
    expect(await row.textContent()).toContain("Cliente Uno");
    expect(await row.textContent()).toContain("Hola, necesito ayuda con mi pedido");
    expect(await row.getByTestId("ticket-item-unread").textContent()).toBe("1");

    // a second message moves it up with the new count, still live
    await customerSays("5215500000001", "Cliente Uno", "¿Alguien me lee?");
    await expect.poll(() => row.getByTestId("ticket-item-unread").textContent(), { timeout: 10_000 }).toBe("2");
    expect(await row.textContent()).toContain("¿Alguien me lee?");
    expect(await countOf(page, "pending")).toBe(1);

    // pending tickets are accepted, not opened by a click; the click says why (issue 26)
    await row.click();
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Acepta el ticket para responder");
    expect(new URL(page.url()).pathname).toBe("/tickets");

    // the admin's peek shows the conversation read-only and leaves it unread
    await row.getByTestId("ticket-item-peek").click();
    const peek = page.getByTestId("peek-dialog");
    await peek.waitFor();
    await expect.poll(() => peek.textContent(), { timeout: 10_000 }).toContain("¿Alguien me lee?");
    expect(await peek.textContent()).toContain("Hola, necesito ayuda con mi pedido");
    await page.getByTestId("peek-close").click();
    await expect.poll(() => page.getByTestId("peek-dialog").count(), { timeout: 10_000 }).toBe(0);
    const afterPeek = await api<Ticket & { unreadMessages: number }>(
      server.url,
      "GET",
      `/tickets/${ticket.id}`,
      undefined,
      helper,
    );
    expect(afterPeek.unreadMessages).toBe(2);

    await row.getByTestId("ticket-item-accept").click();
    await page.waitForURL(new RegExp(`/tickets/${ticket.uuid}$`), { timeout: 10_000 });
    // the list switched to assigned, where the ticket now is, open and selected
    const assigned = item(page, ticket.id);
    await assigned.waitFor({ timeout: 10_000 });
    expect(await assigned.getAttribute("data-status")).toBe("open");
    await expect.poll(() => assigned.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    await expect.poll(() => countOf(page, "pending"), { timeout: 10_000 }).toBe(0);
    expect(await countOf(page, "assigned")).toBe(1);
    const accepted = await api<Ticket>(server.url, "GET", `/tickets/${ticket.id}`, undefined, helper);
    expect(accepted.status).toBe("open");

    // the search (kept in the URL) filters the list and survives a reload
    await input(page, "tickets-search").fill("no-existe-nada");
    await page.waitForURL(/search=no-existe-nada/);
    await page.getByTestId("tickets-empty").waitFor({ timeout: 10_000 });
    await input(page, "tickets-search").fill("Cliente Uno");
    await item(page, ticket.id).waitFor({ timeout: 10_000 });
    await context.close();
  });

  it("a pending ticket is resolved from its row, without accepting it (core §4, issue 26)", async () => {
    await setUp();
    const { context, page } = await newPage(browser);
    await openTickets(page, ADMIN.email, ADMIN.password);
    const ticket = await customerSays("5215500000077", "Cliente Spam", "Gane dinero fácil");
    await page.getByTestId("tickets-subtab-pending").click();
    const row = item(page, ticket.id);
    await row.waitFor({ timeout: 10_000 });
    await row.getByTestId("ticket-item-resolve").click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    const closed = await api<Ticket>(server.url, "GET", `/tickets/${ticket.id}`, undefined, helper);
    expect(closed.status).toBe("closed");
    expect(new URL(page.url()).pathname).toBe("/tickets");
    await context.close();
  });

  it("a queue-less pending ticket reaches agents with allTicket enabled only, live", async () => {
    await setUp();
    const off = await newPage(browser);
    const on = await newPage(browser);
    await openTickets(off.page, AGENT_OFF.email, AGENT_OFF.password);
    await openTickets(on.page, AGENT_ON.email, AGENT_ON.password);
    // agents have no show-all switch and no peek
    expect(await on.page.getByTestId("tickets-showall").count()).toBe(0);
    for (const { page } of [off, on]) await page.getByTestId("tickets-subtab-pending").click();
    const before = await countOf(on.page, "pending");

    const ticket = await customerSays("5215500000002", "Cliente Dos", "Buenas, ¿tienen envío gratis?");
    expect(ticket.queueId).toBeNull();

    await item(on.page, ticket.id).waitFor({ timeout: 10_000 });
    await expect.poll(() => countOf(on.page, "pending"), { timeout: 10_000 }).toBe(before + 1);
    expect(await on.page.getByTestId("ticket-item-peek").count()).toBe(0);

    await off.page.waitForTimeout(1500);
    expect(await item(off.page, ticket.id).count()).toBe(0);
    expect(await countOf(off.page, "pending")).toBe(0);
    // not after a reload either: the API does not list it for them
    await off.page.reload();
    await off.page.getByTestId("tickets-list").waitFor();
    await off.page.getByTestId("tickets-subtab-pending").click();
    await off.page.getByTestId("tickets-empty").waitFor({ timeout: 10_000 });
    expect(await item(off.page, ticket.id).count()).toBe(0);
    const listed = await api<TicketsPage>(server.url, "GET", "/tickets?status=pending", undefined, helper);
    expect(listed.tickets.some((t) => t.id === ticket.id)).toBe(true);
    await off.context.close();
    await on.context.close();
  });

  it("the new-ticket modal opens a ticket for an existing contact; a second try opens the same one", async () => {
    await setUp();
    await api(server.url, "POST", "/contacts", { name: "Cliente Nuevo Ticket", number: "5215500000003" }, helper);
    const { context, page } = await newPage(browser);
    await openTickets(page, ADMIN.email, ADMIN.password);

    await page.getByTestId("tickets-new").click();
    await input(page, "new-ticket-contact").fill("Nuevo Tick");
    await page.getByRole("option", { name: /Cliente Nuevo Ticket/ }).click();
    await page.getByTestId("new-ticket-save").click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    const uuid = new URL(page.url()).pathname.split("/").pop() ?? "";
    const created = await api<Ticket>(server.url, "GET", `/tickets/u/${uuid}`, undefined, helper);
    expect(created.status).toBe("open");
    const row = item(page, created.id);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute("data-status")).toBe("open");
    expect(await row.textContent()).toContain("Cliente Nuevo Ticket");

    // the contact's ticket is already open and it is the caller's: the modal closes and opens it
    await page.goto(`${server.url}/tickets`);
    await page.getByTestId("tickets-list").waitFor();
    await page.getByTestId("tickets-new").click();
    await input(page, "new-ticket-contact").fill("Nuevo Tick");
    await page.getByRole("option", { name: /Cliente Nuevo Ticket/ }).click();
    await page.getByTestId("new-ticket-save").click();
    await page.waitForURL(new RegExp(`/tickets/${uuid}$`), { timeout: 10_000 });
    await expect.poll(() => page.getByTestId("new-ticket-modal").count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it("narrow screens switch between the list and the chat with the bottom tabs", async () => {
    await setUp();
    // an open ticket of the admin's, whatever ran before
    const contact = await api<{ id: number }>(
      server.url,
      "POST",
      "/contacts",
      { name: "Cliente Móvil", number: "5215500000004" },
      helper,
    );
    const users = await api<{ id: number; email: string }[]>(server.url, "GET", "/users/list", undefined, helper);
    const adminId = users.find((u) => u.email === ADMIN.email)?.id;
    await api(server.url, "POST", "/tickets", { contactId: contact.id, userId: adminId, status: "open" }, helper);
    const { context, page } = await newPage(browser, 390, 844);
    await openTickets(page, ADMIN.email, ADMIN.password);
    expect(await page.getByTestId("tickets-bottom-tab-list").getAttribute("class")).toContain("Mui-selected");
    const first = page.getByTestId("ticket-item").first();
    await first.waitFor({ timeout: 10_000 });
    await first.click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => page.getByTestId("tickets-bottom-tab-chat").getAttribute("class"), { timeout: 10_000 })
      .toContain("Mui-selected");
    expect(await page.getByTestId("tickets-list").isVisible()).toBe(false);
    await page.getByTestId("tickets-bottom-tab-list").click();
    expect(await page.getByTestId("tickets-list").isVisible()).toBe(true);
    await context.close();
  });
});
