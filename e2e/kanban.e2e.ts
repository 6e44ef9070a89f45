import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Tag = { id: number; name: string; color: string };
type Card = { id: number; uuid: string; tags: Tag[]; contact: { name: string; number: string } };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const AGENT = { name: "Agente Kanban", email: "agente-kanban@e2e.test", password: "agente-123" };
// contact-controlled text: it must show as typed, never as markup
const CUSTOMER = { number: "5215577001100", name: "Ana <b>Ventas</b>" };
const OTHER = { number: "5215577002200", name: "Beto Soporte" };

const bodyText = (page: Page) => page.locator("body").textContent();
const lane = (page: Page, id: number | "open") => page.locator(`[data-testid="kanban-lane"][data-lane-id="${id}"]`);
const card = (page: Page, ticketId: number) => page.locator(`[data-testid="kanban-card"][data-ticket-id="${ticketId}"]`);
const laneOf = (page: Page, ticketId: number) =>
  card(page, ticketId).evaluateAll((cards) =>
    cards.map((c) => c.closest('[data-testid="kanban-lane"]')?.getAttribute("data-lane-id")).join(","),
  );

async function pageToken(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem("token") ?? '""') as string);
}

async function seedTicket(token: string, whatsappId: number, customer: { number: string; name: string }, body: string) {
  const answer = await api<{ ticketId: number }>(
    server.url,
    "POST",
    `/simulator/${whatsappId}/inbound`,
    { ...customer, body },
    token,
  );
  return answer.ticketId;
}

describe("kanban", () => {
  it("an agent drags a ticket of their area between lanes, sees moves made elsewhere, and opens it", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const ventas = await api<{ id: number }>(server.url, "POST", "/queue", { name: "Ventas", color: "#1976D2" }, admin);
    const soporte = await api<{ id: number }>(server.url, "POST", "/queue", { name: "Soporte", color: "#8E24AA" }, admin);
    await api(server.url, "POST", "/users", { ...AGENT, profile: "user", queueIds: [ventas.id] }, admin);
    // the admin moves a card too (live, below): a board holds only the user's own areas' tickets
    const me = await api<{ id: number; name: string }>(server.url, "GET", "/auth/me", undefined, admin);
    await api(
      server.url,
      "PUT",
      `/users/${me.id}`,
      { name: me.name, email: ADMIN.email, profile: "admin", queueIds: [ventas.id] },
      admin,
    );
    const prospecto = await api<Tag>(server.url, "POST", "/tags", { name: "Prospecto", color: "#E65100", kanban: 1 }, admin);
    const cerrado = await api<Tag>(server.url, "POST", "/tags", { name: "Cerrado", color: "#2E7D32", kanban: 1 }, admin);
    // a tag that is no lane: kept on the ticket through every move
    const nota = await api<Tag>(server.url, "POST", "/tags", { name: "Nota", color: "#607D8B", kanban: 0 }, admin);

    const connections = await api<{ id: number; provider: string }[]>(server.url, "GET", "/whatsapp", undefined, admin);
    const simulator = connections.find((c) => c.provider === "simulator");
    if (!simulator) throw new Error("no simulator connection");
    const ticketId = await seedTicket(admin, simulator.id, CUSTOMER, "Quiero una cotización <img src=x onerror=alert(1)>");
    const otherId = await seedTicket(admin, simulator.id, OTHER, "Mi pedido no llegó");
    await api(server.url, "PUT", `/tickets/${ticketId}`, { queueId: ventas.id }, admin);
    await api(server.url, "PUT", `/tickets/${otherId}`, { queueId: soporte.id }, admin);
    await api(server.url, "POST", "/tags/sync", { ticketId, tags: [{ id: nota.id }] }, admin);
    const { uuid } = await api<{ uuid: string }>(server.url, "GET", `/tickets/${ticketId}`, undefined, admin);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, AGENT.email, AGENT.password);
    await page.getByTestId("menu-kanban").click();
    await page.waitForURL(/\/kanban$/);
    await page.getByTestId("kanban-board").waitFor();
    await card(page, ticketId).waitFor();

    // "Abierto" first, then the kanban tags by name; the other area's ticket is not on this board
    expect(
      await page.getByTestId("kanban-lane").evaluateAll((lanes) => lanes.map((l) => l.getAttribute("data-lane-id"))),
    ).toEqual(["open", String(cerrado.id), String(prospecto.id)]);
    expect(await lane(page, "open").locator("h2").textContent()).toBe("Abierto");
    expect(await laneOf(page, ticketId)).toBe("open");
    expect(await card(page, otherId).count()).toBe(0);
    expect(await page.getByTestId("kanban-card").count()).toBe(1);
    expect(await card(page, ticketId).textContent()).toContain(CUSTOMER.name);
    expect(await card(page, ticketId).textContent()).toContain(CUSTOMER.number);
    expect(await card(page, ticketId).textContent()).toContain("<img src=x onerror=alert(1)>");
    expect(await card(page, ticketId).locator("b, img").count()).toBe(0);
    expect(await card(page, ticketId).getAttribute("data-uuid")).toBe(uuid);

    // to a tag's lane: the tag is added (the agent's own session: a second login would end the page's)
    const serverTags = async () => {
      const board = await api<{ tickets: Card[] }>(server.url, "GET", "/ticket/kanban", undefined, await pageToken(page));
      return (board.tickets.find((t) => t.id === ticketId)?.tags ?? []).map((t) => t.name).sort();
    };
    await card(page, ticketId).dragTo(lane(page, prospecto.id));
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Etiqueta de ticket agregada exitosamente!");
    await expect.poll(() => laneOf(page, ticketId), { timeout: 10_000 }).toBe(String(prospecto.id));
    expect(await lane(page, prospecto.id).getByTestId("kanban-lane-count").textContent()).toBe("1");
    expect(await lane(page, "open").getByTestId("kanban-lane-count").textContent()).toBe("0");
    await expect.poll(serverTags, { timeout: 10_000 }).toEqual(["Nota", "Prospecto"]);

    // lane to lane: the card's kanban tag is replaced
    await card(page, ticketId).dragTo(lane(page, cerrado.id));
    await expect.poll(() => laneOf(page, ticketId), { timeout: 10_000 }).toBe(String(cerrado.id));
    await expect.poll(serverTags, { timeout: 10_000 }).toEqual(["Cerrado", "Nota"]);

    // back to "Abierto": the kanban tag is removed
    await card(page, ticketId).dragTo(lane(page, "open"));
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Ticket Tag Removido!");
    await expect.poll(() => laneOf(page, ticketId), { timeout: 10_000 }).toBe("open");
    await expect.poll(serverTags, { timeout: 10_000 }).toEqual(["Nota"]);

    // a move made elsewhere arrives live
    await api(server.url, "PUT", `/ticket-tags/${ticketId}/${prospecto.id}`, undefined, admin);
    await expect.poll(() => laneOf(page, ticketId), { timeout: 10_000 }).toBe(String(prospecto.id));

    // a move the server refuses puts the card back, without a word (secondary §9)
    const refused = "**/api/v1/ticket-tags/**";
    await page.route(refused, (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"ERR_INTERNAL","message":"boom"}' }),
    );
    const failed = page.waitForResponse((r) => r.url().includes("/ticket-tags/") && r.status() === 500);
    await card(page, ticketId).dragTo(lane(page, cerrado.id));
    await failed;
    await expect.poll(() => laneOf(page, ticketId), { timeout: 10_000 }).toBe(String(prospecto.id));
    expect(await bodyText(page)).not.toContain("boom");
    await page.unroute(refused);

    await card(page, ticketId).getByTestId("kanban-view-ticket").click();
    await page.waitForURL(new RegExp(`/tickets/${uuid}$`));
    await context.close();
  });

  it("an admin without areas sees every area's tagged tickets on the board (issue 26)", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const area = await api<{ id: number }>(server.url, "POST", "/queue", { name: "Cobranza", color: "#00897B" }, admin);
    const urgent = await api<Tag>(server.url, "POST", "/tags", { name: "Urgente", color: "#C62828", kanban: 1 }, admin);
    const boss = { name: "Admin Sin Áreas", email: "admin-sin-areas@e2e.test", password: "admin-sin-123" };
    await api(server.url, "POST", "/users", { ...boss, profile: "admin", queueIds: [] }, admin);
    const connections = await api<{ id: number; provider: string }[]>(server.url, "GET", "/whatsapp", undefined, admin);
    const simulator = connections.find((c) => c.provider === "simulator");
    if (!simulator) throw new Error("no simulator connection");
    const tagged = await seedTicket(admin, simulator.id, { number: "5215577003300", name: "Carla Cobranza" }, "¿Cuánto debo?");
    await api(server.url, "PUT", `/tickets/${tagged}`, { queueId: area.id }, admin);
    await api(server.url, "PUT", `/ticket-tags/${tagged}/${urgent.id}`, undefined, admin);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, boss.email, boss.password);
    await page.getByTestId("menu-kanban").click();
    await page.waitForURL(/\/kanban$/);
    await page.getByTestId("kanban-board").waitFor();
    await card(page, tagged).waitFor({ timeout: 15_000 });
    expect(await laneOf(page, tagged)).toBe(String(urgent.id));
    expect(await card(page, tagged).textContent()).toContain("Carla Cobranza");
    await context.close();
  });

  it("a plan without Kanban has neither the menu item nor the board", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const plan = await api<{ id: number }>(server.url, "POST", "/plans", { name: "Sin Kanban", useKanban: false }, admin);
    const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await api(
      server.url,
      "POST",
      "/companies",
      { name: "Sin Tablero SA", email: "sin-kanban@e2e.test", password: "sin-kanban-123", planId: plan.id, dueDate },
      admin,
    );
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, "sin-kanban@e2e.test", "sin-kanban-123");
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("menu-kanban").count()).toBe(0);

    await page.goto(`${server.url}/kanban`);
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).not.toBe("/kanban");
    expect(await page.getByTestId("kanban-board").count()).toBe(0);
    // the API refuses what the menu hides
    const token = await apiLogin(server.url, "sin-kanban@e2e.test", "sin-kanban-123");
    await expect(api(server.url, "GET", "/ticket/kanban", undefined, token)).rejects.toThrow(/403/);
    await context.close();
  });
});
