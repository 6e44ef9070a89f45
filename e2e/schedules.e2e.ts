import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { companyTyped } from "./support/clock.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

// the timed-work runner sends due schedules; each second instead of every 5 s keeps the test short
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { JOBS_INTERVAL_MS: "1000" },
);

const CUSTOMER = { name: "Ana Agendada", number: "5491155540001" };
const SHOTS = process.env.SCHEDULE_SHOTS_DIR;

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  // dialogs and toasts fade in: the picture is taken once they have settled
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};
const row = (page: Page) => page.getByTestId("schedules-row").filter({ hasText: CUSTOMER.name });

describe("schedules", () => {
  it("a schedule made from a contact goes out on its time and reaches the customer's phone on the Simulator page", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "POST", "/contacts", CUSTOMER, token);

    const { context, page } = await newPage(browser, 1366, 800);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-contacts").click();
    await page.waitForURL(/\/contacts$/);
    await input(page, "contacts-search").fill("Agendada");
    const contactRow = page.getByTestId("contacts-row").filter({ hasText: CUSTOMER.name });
    await contactRow.waitFor({ timeout: 10_000 });

    // "Programar" on the contact opens the dialog on /schedules for that contact
    await contactRow.getByTestId("contact-schedule").click();
    await page.waitForURL(/\/schedules\?contactId=\d+$/);
    const dialog = page.getByTestId("schedule-modal");
    await dialog.waitFor();
    await expect.poll(() => input(page, "schedule-contact").inputValue(), { timeout: 10_000 }).toContain(CUSTOMER.name);

    // the body is required, as the API requires it
    await page.getByTestId("schedule-modal-save").click();
    await dialog.getByText("Requerido").first().waitFor();

    await page.getByTestId("schedule-body").fill("Recordatorio para ");
    await dialog.getByText("{{firstName}}").click();
    expect(await page.getByTestId("schedule-body").inputValue()).toBe("Recordatorio para {{firstName}}");
    const when = companyTyped(1);
    await input(page, "schedule-date").fill(when.date);
    await input(page, "schedule-time").fill(when.time);
    await shot(page, "schedule-dialog-1366");
    await page.getByTestId("schedule-modal-save").click();

    // saved from a contact: the user is on /schedules, the row pending with the text cut at 25
    await page.waitForURL(/\/schedules$/);
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 10_000 })
      .toContain("Agendamiento guardado con éxito.");
    await row(page).waitFor({ timeout: 10_000 });
    expect(await row(page).getByTestId("schedule-body-cut").textContent()).toBe("Recordatorio para {{first…");
    expect(await row(page).getByTestId("schedule-status").first().textContent()).toBe("Pendiente");

    // the next 24 h view lists it
    await page.getByTestId("schedules-upcoming").click();
    await page.getByTestId("schedules-upcoming-row").filter({ hasText: CUSTOMER.name }).waitFor();
    await shot(page, "schedules-upcoming-1366");
    await page.getByTestId("schedules-upcoming-close").click();

    // live: the row turns "Enviada" when the sweep sends it (within about a minute)
    await waitForLive(page);
    await expect
      .poll(() => row(page).getByTestId("schedule-status").first().textContent(), { timeout: 100_000, interval: 1000 })
      .toBe("Enviada");
    await shot(page, "schedules-1366");
    await page.setViewportSize({ width: 390, height: 800 });
    await shot(page, "schedules-390");
    if (SHOTS) {
      await page.getByTestId("schedules-add").click();
      await page.getByTestId("schedule-modal").waitFor();
      await shot(page, "schedule-dialog-390");
      await page.getByTestId("schedule-modal-cancel").click();
      await page.getByTestId("schedules-upcoming").click();
      await page.getByTestId("schedules-upcoming-dialog").waitFor();
      await shot(page, "schedules-upcoming-390");
      await page.getByTestId("schedules-upcoming-close").click();
    }
    await page.setViewportSize({ width: 1366, height: 800 });

    // the customer's phone (the simulator) shows it once, the variable filled
    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await input(page, "simulator-number").fill(CUSTOMER.number);
    const received = page.getByTestId("simulator-out").filter({ hasText: "Recordatorio para Ana" });
    await received.waitFor({ timeout: 15_000 });
    expect(await received.count()).toBe(1);
    await context.close();
  }, 180_000);
});
