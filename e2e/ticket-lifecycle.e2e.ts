import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { companyTyped } from "./support/clock.js";
import { setUpSimulator } from "./support/simulator.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

// the timed-work runner sends due schedules; each second keeps the wait for the reminder short
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { JOBS_INTERVAL_MS: "1000" },
);

const MARIA = { name: "María Lifecycle", number: "5215577001122" };
const PEDRO = { name: "Pedro Soporte", email: "pedro-lifecycle@e2e.test", password: "pedro-123" };
const GREETING = "¡Hola! Gracias por escribir a Empresa 1.";
const SHOTS = process.env.LIFECYCLE_SHOTS_DIR;

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/**
 * The newcomer's walk of issue 40: a scheduled reminder to a customer whose ticket was resolved and
 * rated. It must reach the customer without waking the bot, and the conversation must go to the
 * reminder's author — not back to Pendientes "Sin área", where an agent without that right saw it.
 */
describe("a message the company starts", () => {
  it("a reminder to a resolved customer goes to its author: no greeting, no menu, not Pendientes; the agent does not see it", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const soporte = await api<{ id: number }>(
      server.url,
      "POST",
      "/queue",
      { name: "Soporte", color: "#194D33", orderQueue: 1 },
      token,
    );
    const ventas = await api<{ id: number }>(
      server.url,
      "POST",
      "/queue",
      { name: "Ventas", color: "#0062B1", orderQueue: 2 },
      token,
    );
    const simulator = await setUpSimulator(server.url, token, { greetingMessage: GREETING, queueIds: [soporte.id, ventas.id] });
    await api(server.url, "PUT", "/settings/userRating", { value: "enabled" }, token);
    await api(server.url, "POST", "/users", { ...PEDRO, profile: "user", allTicket: "disable", queueIds: [soporte.id] }, token);
    await api(server.url, "POST", "/contacts", MARIA, token);

    // María writes, picks Soporte; Carla (the admin) serves and resolves her; María rates 3
    const say = (body: string) =>
      api<{ ticketId: number }>(server.url, "POST", `/simulator/${simulator.id}/inbound`, { ...MARIA, body }, token);
    const { ticketId } = await say("hola");
    await say("1");
    await api(server.url, "PUT", `/tickets/${ticketId}`, { status: "open" }, token);
    await api(server.url, "POST", `/messages/${ticketId}`, { body: "Listo, quedó resuelto" }, token);
    await api(server.url, "PUT", `/tickets/${ticketId}`, { status: "closed" }, token);
    await say("3");

    // Carla: Contactos → María → Programar, a minute ahead
    const { context, page } = await newPage(browser, 1366, 800);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-contacts").click();
    await page.waitForURL(/\/contacts$/);
    await input(page, "contacts-search").fill("Lifecycle");
    const contactRow = page.getByTestId("contacts-row").filter({ hasText: MARIA.name });
    await contactRow.waitFor({ timeout: 10_000 });
    await contactRow.getByTestId("contact-schedule").click();
    await page.getByTestId("schedule-modal").waitFor();
    await page.getByTestId("schedule-body").fill("Recordatorio: su cita es mañana a las 10");
    const when = companyTyped(1);
    await input(page, "schedule-date").fill(when.date);
    await input(page, "schedule-time").fill(when.time);
    await page.getByTestId("schedule-modal-save").click();
    await page.waitForURL(/\/schedules$/);
    await waitForLive(page);
    const row = page.getByTestId("schedules-row").filter({ hasText: MARIA.name });
    await expect
      .poll(() => row.getByTestId("schedule-status").first().textContent(), { timeout: 100_000, interval: 1000 })
      .toBe("Enviada");

    // the customer's phone: the reminder, and nothing after it — no greeting, no area menu
    await page.getByTestId("menu-simulator").click();
    await input(page, "simulator-number").fill(MARIA.number);
    await page.getByTestId("simulator-out").filter({ hasText: "Recordatorio: su cita" }).waitFor({ timeout: 15_000 });
    const outTexts = async () => (await page.getByTestId("simulator-out").allTextContents()).join("\n");
    // a moment for anything the bot would add (its owed-turn sweep runs every second here)
    await page.waitForTimeout(3000);
    const afterReminder = (await outTexts()).split("Recordatorio: su cita")[1] ?? "";
    expect(afterReminder).not.toContain(GREETING);
    expect(afterReminder).not.toContain("Ventas");
    expect((await outTexts()).split(GREETING).length - 1).toBe(1);
    await shot(page, "lifecycle-simulator");

    // Carla's inbox: the conversation is hers and open, with the reminder last; Pendientes has nothing
    await page.getByTestId("menu-tickets").click();
    await page.waitForURL(/\/tickets$/);
    await page.getByTestId("tickets-tab-open").click();
    await page.getByTestId("tickets-subtab-assigned").click();
    const mine = page.getByTestId("ticket-item").filter({ hasText: MARIA.name });
    await mine.waitFor({ timeout: 10_000 });
    expect(await mine.textContent()).toContain("Recordatorio: su cita");
    await page.getByTestId("tickets-subtab-pending").click();
    await expect.poll(() => page.getByTestId("ticket-item").filter({ hasText: MARIA.name }).count()).toBe(0);
    await shot(page, "lifecycle-carla-inbox");

    // Pedro (Soporte, without "Ver tickets sin área") does not see it anywhere in his inbox
    const pedroSide = await newPage(browser, 1366, 800);
    await loginThroughUi(pedroSide.page, server.url, PEDRO.email, PEDRO.password);
    await pedroSide.page.waitForURL(/\/tickets$/);
    await pedroSide.page.getByTestId("tickets-subtab-pending").click();
    await waitForLive(pedroSide.page);
    expect(await pedroSide.page.getByTestId("ticket-item").filter({ hasText: MARIA.name }).count()).toBe(0);

    // María answers from her phone: no bot, and it lands in Carla's open conversation, not with Pedro
    // (the admin's API token ended with her sign-in here: one session a user, so the phone is the page's)
    await page.getByTestId("menu-simulator").click();
    await input(page, "simulator-number").fill(MARIA.number);
    await input(page, "simulator-name").fill(MARIA.name);
    await page.getByTestId("simulator-body").fill("Gracias, ahí estaré");
    await page.getByTestId("simulator-send").click();
    await page.getByTestId("simulator-in").filter({ hasText: "Gracias, ahí estaré" }).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(2000);
    expect((await outTexts()).split(GREETING).length - 1).toBe(1);
    await page.getByTestId("menu-tickets").click();
    await page.getByTestId("tickets-tab-open").click();
    await page.getByTestId("tickets-subtab-assigned").click();
    await expect.poll(() => mine.textContent(), { timeout: 15_000 }).toContain("Gracias, ahí estaré");
    expect(await pedroSide.page.getByTestId("ticket-item").filter({ hasText: MARIA.name }).count()).toBe(0);

    await pedroSide.context.close();
    await context.close();
  }, 240_000);
});
