import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { input, loginThroughUi, waitForLive } from "./support/browser.js";
import { COMPANY_ZONE, companyNow, onCompanyClock } from "./support/clock.js";
import { setPlanFlags, startFakeService } from "./support/fakes.js";
import { ADMIN, type RunningServer, api } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  // schedules and campaigns go out within a second of their time; the webhook receiver is on 127.0.0.1
  { JOBS_INTERVAL_MS: "1000", INTEGRATIONS_ALLOW_PRIVATE: "true" },
);

let receiver: Awaited<ReturnType<typeof startFakeService>>;
beforeAll(async () => {
  receiver = await startFakeService(() => undefined);
});
afterAll(() => receiver.close());

// 11 hours from the company's America/Noronha (UTC−2), and usually on another calendar day
const BROWSER_ZONE = "Asia/Tokyo";
const CUSTOMER = { name: "Rosa Horaria", number: "5491155560001" };
const LIST_NUMBER = "5491155560002";
const SHOTS = process.env.TIME_SHOTS_DIR;

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  // dialogs and toasts fade in: the picture is taken once they have settled
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** Every "DD/MM/YYYY HH:mm" the company's clock read from `from` to `to` (ms): when a thing that happened in between may be shown. */
function companyMinutes(from: number, to: number): string[] {
  const shown: string[] = [];
  for (let at = from - (from % 60_000); at <= to; at += 60_000) {
    const { date, time } = onCompanyClock(at);
    shown.push(`${date} ${time}`);
  }
  return shown;
}
const timesOf = (labels: string[]) => labels.map((label) => label.slice(11));

/** After the browser logged in, the set-up's API token is gone (one session per user): ask through the page. */
function pageApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const token = JSON.parse(localStorage.getItem("token") ?? '""') as string;
    const res = await fetch(`/api/v1${p}`, { headers: { authorization: `Bearer ${token}` } });
    return res.json();
  }, path) as Promise<T>;
}

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent())?.trim() ?? "";

async function choose(page: Page, selectTestId: string, option: string) {
  await page.getByTestId(selectTestId).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** A contact list with one number the Simulator connection has said has WhatsApp. */
async function listOfOne(token: string, name: string, number: string) {
  const list = await api<{ id: number }>(server.url, "POST", "/contact-lists", { name }, token);
  await api(
    server.url,
    "POST",
    "/contact-list-items",
    { name: "Cliente Lista", number, email: "", contactListId: list.id },
    token,
  );
  await expect
    .poll(async () => {
      const page = await api<{ contacts: { isWhatsappValid: boolean | null }[] }>(
        server.url,
        "GET",
        `/contact-list-items?contactListId=${list.id}`,
        undefined,
        token,
      );
      return page.contacts.every((c) => c.isWhatsappValid === true);
    })
    .toBe(true);
}

describe("one time zone for the whole web", () => {
  it("a browser on Tokyo's clock reads the company's (America/Noronha) everywhere: schedule, chat, Simulator, campaign, report and delivery log", async () => {
    // set-up through the API first: the browser's login ends the user's other sessions
    const token = await setPlanFlags(server.url, { useIntegrations: true, useCampaigns: true, useSchedules: true });
    const contact = await api<{ id: number }>(server.url, "POST", "/contacts", CUSTOMER, token);
    await listOfOne(token, "Lista Horaria", LIST_NUMBER);
    await api(
      server.url,
      "POST",
      "/queueIntegration",
      { type: "webhook", name: "Registro horario", urlN8N: `${receiver.url}/hook` },
      token,
    );

    const context = await browser.newContext({
      viewport: { width: 1366, height: 800 },
      locale: "es-MX",
      timezoneId: BROWSER_ZONE,
    });
    // secondary §2: the campaign routes exist only while the browser holds cshow
    await context.addInitScript(() => localStorage.setItem("cshow", "1"));
    const page = await context.newPage();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);

    // the top bar says the times are the company's, the browser's clock being another
    const hint = page.getByTestId("company-zone-hint");
    await hint.waitFor({ timeout: 15_000 });
    expect(await hint.getAttribute("data-zone")).toBe(COMPANY_ZONE);
    expect(await page.getByTestId("company-zone-offset").textContent()).toBe("UTC\u22122");
    const clockBefore = Date.now();
    const companyNowShown = (await page.getByTestId("company-zone-now").textContent()) ?? "";
    expect(timesOf(companyMinutes(clockBefore - 60_000, Date.now()))).toContain(companyNowShown);
    expect(await hint.getAttribute("aria-label")).toContain(
      `${COMPANY_ZONE} (UTC\u22122). Tu navegador está en ${BROWSER_ZONE} (UTC+9)`,
    );

    if (SHOTS) {
      await hint.hover();
      await shot(page, "zone-hint");
      await page.mouse.move(700, 500);
    }

    // a schedule typed on the company's clock, a minute ahead
    await page.goto(`${server.url}/schedules?contactId=${contact.id}`);
    const scheduleDialog = page.getByTestId("schedule-modal");
    await scheduleDialog.waitFor({ timeout: 15_000 });
    await expect.poll(() => input(page, "schedule-contact").inputValue()).toContain(CUSTOMER.name);
    expect(await text(page, "schedule-when-help")).toBe(`Hora de la empresa: ${COMPANY_ZONE} (UTC\u22122)`);
    await page.getByTestId("schedule-body").fill("Recordatorio de la cita");
    const sendAt = companyNow(1);
    await input(page, "schedule-date").fill(sendAt.date.replace(/\D/g, ""));
    await input(page, "schedule-time").fill(sendAt.time.replace(/\D/g, ""));
    await shot(page, "schedule-dialog");
    await page.getByTestId("schedule-modal-save").click();
    await expect.poll(() => scheduleDialog.count()).toBe(0);
    const scheduleRow = page.getByTestId("schedules-row").filter({ hasText: CUSTOMER.name });
    await scheduleRow.waitFor();
    // the list reads what was typed
    expect(await scheduleRow.getByTestId("schedule-send-at").textContent()).toBe(`${sendAt.date} ${sendAt.time}`);
    // and the dialog gives it back as typed
    await scheduleRow.getByTestId("schedule-edit").click();
    await scheduleDialog.waitFor();
    await expect.poll(() => input(page, "schedule-date").inputValue()).toBe(sendAt.date);
    expect(await input(page, "schedule-time").inputValue()).toBe(sendAt.time);
    await page.getByTestId("schedule-modal-cancel").click();
    await expect.poll(() => scheduleDialog.count()).toBe(0);

    // a campaign on the Simulator connection, scheduled for the company's now: it starts at once
    await page.getByTestId("menu-campaigns").click();
    await page.waitForURL(/\/campaigns$/);
    await page.getByTestId("campaigns-add").click();
    const campaignDialog = page.getByTestId("campaign-modal");
    await campaignDialog.waitFor();
    await input(page, "campaign-name").fill("Campaña horaria");
    await page.getByTestId("campaign-message1").fill("Hola {name}, novedades");
    await choose(page, "campaign-contact-list", "Lista Horaria");
    await choose(page, "campaign-connection", "Simulador");
    expect(await text(page, "campaign-scheduled-help")).toContain(`Hora de la empresa: ${COMPANY_ZONE} (UTC\u22122).`);
    const scheduledAt = companyNow(0);
    const campaignTyped = Date.now();
    await input(page, "campaign-scheduled-date").fill(scheduledAt.date.replace(/\D/g, ""));
    await input(page, "campaign-scheduled-time").fill(scheduledAt.time.replace(/\D/g, ""));
    await shot(page, "campaign-dialog");
    await page.getByTestId("campaign-modal-save").click();
    await expect.poll(() => campaignDialog.count()).toBe(0);
    const campaignRow = page.getByTestId("campaigns-row").filter({ hasText: "Campaña horaria" });
    await waitForLive(page);
    await expect.poll(() => campaignRow.getAttribute("data-status"), { timeout: 60_000, interval: 500 }).toBe("FINALIZADA");
    const campaignDone = Date.now();
    const scheduledLabel = `${scheduledAt.date} ${scheduledAt.time}`;
    expect(await campaignRow.getByTestId("campaign-scheduled-at").textContent()).toBe(scheduledLabel);
    // it ran in seconds: it finished in the minutes from its time to now, on the same clock
    const completedLabel = (await campaignRow.getByTestId("campaign-completed-at").textContent()) ?? "";
    expect(companyMinutes(campaignTyped - 60_000, campaignDone)).toContain(completedLabel);

    // its report reads the same
    const campaignId = await campaignRow.getAttribute("data-campaign-id");
    await page.goto(`${server.url}/campaign/${campaignId}/report`);
    await expect.poll(() => text(page, "campaign-report-status"), { timeout: 15_000 }).toBe("Finalizada");
    expect(await text(page, "campaign-report-scheduled")).toBe(scheduledLabel);
    expect(await text(page, "campaign-report-completed")).toBe(completedLabel);
    await shot(page, "campaign-report");

    // the schedule goes out on its time; the list still reads what was typed
    await page.goto(`${server.url}/schedules`);
    await scheduleRow.waitFor({ timeout: 15_000 });
    await waitForLive(page);
    await expect
      .poll(() => scheduleRow.getByTestId("schedule-status").first().textContent(), { timeout: 150_000, interval: 1000 })
      .toBe("Enviada");
    const sentBy = Date.now();
    expect(await scheduleRow.getByTestId("schedule-send-at").textContent()).toBe(`${sendAt.date} ${sendAt.time}`);
    await shot(page, "schedules-list");
    if (SHOTS) {
      await page.setViewportSize({ width: 390, height: 800 });
      await shot(page, "schedules-list-390");
      await page.setViewportSize({ width: 1366, height: 800 });
    }
    const scheduleId = await scheduleRow.getAttribute("data-schedule-id");
    const sent = await pageApi<{ ticketId: number | null; sendAt: string }>(page, `/schedules/${scheduleId}`);
    if (sent.ticketId === null) throw new Error("the sent schedule names no ticket");
    expect(companyMinutes(Date.parse(sent.sendAt), Date.parse(sent.sendAt))).toEqual([`${sendAt.date} ${sendAt.time}`]);
    // sent from its time on: the chat and the phone stamp it in the minutes since, never hours away
    const sentMinutes = companyMinutes(Date.parse(sent.sendAt), sentBy);
    const sentTimes = timesOf(sentMinutes);

    // the chat's bubble
    const ticket = await pageApi<{ uuid: string }>(page, `/tickets/${sent.ticketId}`);
    await page.goto(`${server.url}/tickets/${ticket.uuid}`);
    const bubble = page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Recordatorio de la cita" });
    await bubble.waitFor({ timeout: 15_000 });
    const bubbleTime = (await bubble.getByTestId("message-time").textContent()) ?? "";
    expect(sentTimes).toContain(bubbleTime);
    await shot(page, "chat-with-schedule");

    // the customer's phone on the Simulator page stamps it with the same hour
    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await input(page, "simulator-number").fill(CUSTOMER.number);
    const received = page.getByTestId("simulator-out").filter({ hasText: "Recordatorio de la cita" });
    await received.waitFor({ timeout: 15_000 });
    const phoneTime = (await received.getByTestId("simulator-time").textContent()) ?? "";
    // HH:mm for the company's today, with the date before it across midnight
    expect([...sentTimes, ...sentMinutes]).toContain(phoneTime);
    expect(phoneTime.slice(-5)).toBe(bubbleTime);
    await shot(page, "simulator");

    // the integration's delivery log: the same DD/MM/YYYY HH:mm, the company's
    await page.getByTestId("menu-queue-integration").click();
    await page.waitForURL(/\/queue-integration$/);
    const integrationRow = page.getByTestId("integrations-row").filter({ hasText: "Registro horario" });
    await integrationRow.getByTestId("integration-log").click();
    const log = page.getByTestId("delivery-log");
    await log.waitFor();
    const testSent = Date.now();
    await page.getByTestId("delivery-log-test").click();
    await log.locator('[data-testid="delivery-status"][data-status="delivered"]').waitFor({ timeout: 15_000 });
    const delivered = Date.now();
    const row = (await log.getByTestId("delivery-row").first().textContent()) ?? "";
    const logged = companyMinutes(testSent, delivered);
    const created = /Creado: (\d{2}\/\d{2}\/\d{4} \d{2}:\d{2})(?!:)/.exec(row);
    const attempt = /Último intento: (\d{2}\/\d{2}\/\d{4} \d{2}:\d{2})(?!:)/.exec(row);
    expect(logged).toContain(created?.[1]);
    expect(logged).toContain(attempt?.[1]);
    await shot(page, "delivery-log");
    await context.close();
    // no bound of its own: the schedule waits for its minute, and each step polls with its own
  }, 0);
});
