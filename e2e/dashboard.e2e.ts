import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

/*
 * The dashboard (core §2, route /): the admin sees today's tickets drawn per hour and the period's
 * counters; a `user` profile opening / lands on /tickets.
 */

type Ticket = { id: number; uuid: string; status: string };
type Connection = { id: number; isDefault: boolean };

// A second admin drives the set-up: a login ends the user's other sessions.
const HELPER = { name: "Admin Tablero", email: "tablero@e2e.test", password: "tablero-123" };
const AGENT = { name: "Agente Tablero", email: "agente-tablero@e2e.test", password: "agente-123" };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Three customers write in: one ticket stays pending, one is accepted, one is resolved. */
async function setUp(): Promise<void> {
  const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
  await api(server.url, "POST", "/users", { ...HELPER, profile: "admin" }, admin);
  const helper = await apiLogin(server.url, HELPER.email, HELPER.password);
  await api(server.url, "POST", "/users", { ...AGENT, profile: "user", allTicket: "enable" }, helper);
  const connections = await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, helper);
  const whatsappId = (connections.find((c) => c.isDefault) ?? connections[0]).id;
  const tickets: Ticket[] = [];
  for (const [i, name] of ["Cliente Uno", "Cliente Dos", "Cliente Tres"].entries()) {
    const inbound = await api<{ ticketId: number }>(
      server.url,
      "POST",
      `/simulator/${whatsappId}/inbound`,
      { number: `52155100000${i}`, name, body: `Hola, soy ${name}` },
      helper,
    );
    tickets.push(await api<Ticket>(server.url, "GET", `/tickets/${inbound.ticketId}`, undefined, helper));
  }
  await api(server.url, "PUT", `/tickets/${tickets[1].id}`, { status: "open" }, helper);
  await api(server.url, "PUT", `/tickets/${tickets[2].id}`, { status: "open" }, helper);
  await api(server.url, "PUT", `/tickets/${tickets[2].id}`, { status: "closed" }, helper);
}

describe("dashboard", () => {
  it("shows the admin today's chart with data, the counters and the closed tickets", async () => {
    await setUp();
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.getByTestId("menu-home").click();
    await page.waitForURL((url) => url.pathname === "/", { timeout: 15_000 });

    // the chart: 24 hourly buckets, with the three tickets of today drawn as bars
    await page.getByTestId("tickets-per-hour").waitFor();
    await expect.poll(() => page.getByTestId("tickets-per-hour-total").textContent(), { timeout: 15_000 }).toBe("Total: 3");
    await expect
      .poll(() => page.locator('[data-testid="tickets-per-hour"] .recharts-bar-rectangle path').count())
      .toBeGreaterThan(0);
    expect(
      await page.locator('[data-testid="tickets-per-hour"] .recharts-xAxis .recharts-cartesian-axis-tick').count(),
    ).toBeGreaterThan(0);

    // counters of the default period (first of the month → today)
    const value = (id: string) => page.getByTestId(`counter-${id}-value`).textContent();
    await expect.poll(() => value("pending"), { timeout: 15_000 }).toBe("1");
    expect(await value("happening")).toBe("1");
    expect(await value("finished")).toBe("1");
    expect(await value("leads")).toBe("3");
    expect(await value("supportTime")).toMatch(/^\d{2} h \d{2} m$/);
    expect(await value("waitTime")).toMatch(/^\d{2} h \d{2} m$/);

    // the attendants table names the helper (who finished one) and the closed-tickets table lists it
    await expect.poll(() => page.getByTestId("attendants").textContent()).toContain(HELPER.name);
    await expect.poll(() => page.getByTestId("closed-tickets-table").textContent()).toContain("Cliente Tres");

    // the range reads DD/MM/YYYY whatever the browser's locale (this Chromium's is English); typing a
    // past year empties the counters
    const from = page.getByTestId("dashboard-date-from");
    expect(await from.inputValue()).toMatch(/^01\/\d{2}\/\d{4}$/);
    await from.fill("01012020");
    expect(await from.inputValue()).toBe("01/01/2020");
    await page.getByTestId("dashboard-date-to").fill("31/12/2020");
    await expect.poll(() => value("leads"), { timeout: 10_000 }).toBe("0");
    expect(await value("finished")).toBe("0");

    // mode 2: a preset period gives the same numbers for today's work
    await page.getByTestId("dashboard-filter").getByRole("combobox").first().click();
    await page.getByRole("option", { name: "Filtro por período" }).click();
    await expect.poll(() => value("finished"), { timeout: 10_000 }).toBe("1");
    await context.close();
  });

  it("says Parametrize o filtro and shows no counters once both dates are cleared", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, HELPER.email, HELPER.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.goto(`${server.url}/`);
    const value = (id: string) => page.getByTestId(`counter-${id}-value`).textContent();
    await expect.poll(() => value("finished"), { timeout: 15_000 }).toBe("1");

    await page.getByTestId("dashboard-date-from").fill("");
    // one date left is still a filter (everything up to today): the numbers stay
    await expect.poll(() => value("finished"), { timeout: 10_000 }).toBe("1");
    await page.getByTestId("dashboard-date-to").fill("");
    await page.getByTestId("dashboard-filter-required").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("dashboard-filter-required").textContent()).toBe("Parametrize o filtro");
    expect(await page.getByTestId("counter-finished").count()).toBe(0);
    expect(await page.getByTestId("attendants").count()).toBe(0);

    // a date again brings the period's numbers back
    await page.getByTestId("dashboard-date-from").fill("01/01/2020");
    await expect.poll(() => value("finished"), { timeout: 10_000 }).toBe("1");
    expect(await page.getByTestId("dashboard-filter-required").count()).toBe(0);
    await context.close();
  });

  it("sends a user profile who opens / to /tickets", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, AGENT.email, AGENT.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    expect(await page.getByTestId("menu-home").count()).toBe(0);
    expect(await page.getByTestId("tickets-per-hour").count()).toBe(0);
    await context.close();
  });
});
