import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { companyNow } from "./support/clock.js";
import { tinyPng } from "./support/png.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Item = { id: number; isWhatsappValid: boolean | null };
type Campaign = { status: string };

let server: RunningServer;
let browser: Browser;

// the timed-work runner starts and sends campaigns; each second instead of every 5 s keeps the test short
withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { JOBS_INTERVAL_MS: "1000" },
);

const bodyText = (page: Page) => page.locator("body").textContent();
const campaignRow = (page: Page, name: string) => page.getByTestId("campaigns-row").filter({ hasText: name });
const rowStatus = (page: Page, name: string) => campaignRow(page, name).getAttribute("data-status");

/** secondary §2: the campaign routes exist only while the browser holds cshow (any value). */
const withCampaignFlag = (context: BrowserContext) => context.addInitScript(() => localStorage.setItem("cshow", "1"));

/**
 * A contact list of `numbers` (Empresa 1's plan has useCampaigns), made through the API, once its
 * simulator connection has said each number has WhatsApp.
 */
async function listWithNumbers(token: string, name: string, numbers: string[]): Promise<number> {
  const list = await api<{ id: number }>(server.url, "POST", "/contact-lists", { name }, token);
  for (const [i, number] of numbers.entries()) {
    const item = { name: `Cliente ${i + 1}`, number, email: "", contactListId: list.id };
    await api(server.url, "POST", "/contact-list-items", item, token);
  }
  await expect
    .poll(
      async () => {
        const page = await api<{ contacts: Item[] }>(
          server.url,
          "GET",
          `/contact-list-items?contactListId=${list.id}`,
          undefined,
          token,
        );
        return page.contacts.filter((c) => c.isWhatsappValid === true).length;
      },
      { timeout: 20_000 },
    )
    .toBe(numbers.length);
  return list.id;
}

async function choose(page: Page, selectTestId: string, option: string) {
  await page.getByTestId(selectTestId).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** "Programar para" on the company's clock (issue 40), typed as a user types it: digits only (the fields put the slashes and colon). */
async function scheduleIn(page: Page, minutes = 0) {
  const when = companyNow(minutes);
  await input(page, "campaign-scheduled-date").fill(when.date.replace(/\D/g, ""));
  await input(page, "campaign-scheduled-time").fill(when.time.replace(/\D/g, ""));
  return when;
}

async function saveIntervalsAtZero(page: Page) {
  await page.getByTestId("menu-campaigns-config").click();
  await page.waitForURL(/\/campaigns-config$/);
  for (const name of ["messageInterval", "longerIntervalAfter", "greaterInterval"]) {
    await page.getByTestId(`campaign-settings-${name}`).click();
    await page.getByTestId(`campaign-settings-${name}-0`).click();
  }
  expect(await page.getByTestId("campaign-settings-longerIntervalAfter").textContent()).toBe("No definido");
  // a custom variable, and the same key again is not added (secondary §5)
  await input(page, "campaign-variable-key").fill("empresa");
  await input(page, "campaign-variable-value").fill("Charla");
  await page.getByTestId("campaign-variable-add").click();
  await input(page, "campaign-variable-key").fill("empresa");
  await input(page, "campaign-variable-value").fill("Otra");
  await page.getByTestId("campaign-variable-add").click();
  await page.getByText("Esta clave ya existe").waitFor();
  expect(await page.getByTestId("campaign-variable-row").count()).toBe(1);
  await page.getByTestId("campaign-settings-save").click();
  await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Configuraciones guardadas");
  // the API's name for the page leads to it too, and a fresh load shows what was saved
  await page.goto(`${server.url}/campaign-settings`);
  await page.waitForURL(/\/campaigns-config$/);
  await expect
    .poll(() => page.getByTestId("campaign-settings-longerIntervalAfter").textContent(), { timeout: 10_000 })
    .toBe("No definido");
  expect(await page.getByTestId("campaign-variable-row").count()).toBe(1);
}

describe("campaigns", () => {
  it("an admin sets the intervals, sends a campaign to a list and watches its report reach 100 %", async () => {
    // set-up first: a login ends the user's other sessions
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await listWithNumbers(token, "Clientes Campaña", ["5491155510001", "5491155510002", "5491155510003"]);

    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await saveIntervalsAtZero(page);

    await page.getByTestId("menu-campaigns").click();
    await page.waitForURL(/\/campaigns$/);
    await page.getByTestId("campaigns-empty").waitFor();
    await page.getByTestId("campaigns-add").click();
    const dialog = page.getByTestId("campaign-modal");
    await dialog.waitFor();

    // the name is checked as the API checks it
    await input(page, "campaign-name").fill("A");
    await page.getByTestId("campaign-modal-save").click();
    await dialog.getByText("Muy Corto!").waitFor();

    await input(page, "campaign-name").fill("Bienvenida");
    // the {name} chip goes where the caret is
    await page.getByTestId("campaign-message1").fill("Hola ");
    await dialog.locator('[data-testid="campaign-variable"][data-key="name"]').click();
    expect(await page.getByTestId("campaign-message1").inputValue()).toBe("Hola {name}");
    expect(await dialog.locator('[data-testid="campaign-variable"][data-key="empresa"]').count()).toBe(1);
    await choose(page, "campaign-contact-list", "Clientes Campaña");
    await choose(page, "campaign-connection", "Simulador");
    // no time yet: a draft
    await page.getByTestId("campaign-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Campaña guardada con éxito.");
    await campaignRow(page, "Bienvenida").waitFor();
    expect(await campaignRow(page, "Bienvenida").textContent()).toContain("Clientes Campaña");
    expect(await campaignRow(page, "Bienvenida").getByTestId("campaign-status").textContent()).toBe("Inactiva");

    // its report, in a second tab, before it starts; every time it reads the counts is noted
    const reportPage = await context.newPage();
    const reportReads: number[] = [];
    reportPage.on("request", (request) => {
      if (/\/api\/v1\/campaigns\/\d+\/report$/.test(new URL(request.url()).pathname)) reportReads.push(Date.now());
    });
    await reportPage.goto(
      `${server.url}/campaign/${await campaignRow(page, "Bienvenida").getAttribute("data-campaign-id")}/report`,
    );
    await expect.poll(() => reportPage.getByRole("heading", { level: 1 }).textContent()).toBe("Informe: Bienvenida");
    expect(await reportPage.getByTestId("campaign-report-progress").getAttribute("data-value")).toBe("0");
    expect(await reportPage.getByTestId("campaign-report-status").textContent()).toBe("Inactiva");

    // the moment the header turns Finalizada, as the page sees it (the counts may follow up to a second later)
    await reportPage.evaluate(() => {
      const marks = window as unknown as { finishedAt?: number };
      const observer = new MutationObserver(() => {
        const status = document.querySelector('[data-testid="campaign-report-status"]');
        if (status?.textContent === "Finalizada" && marks.finishedAt === undefined) marks.finishedAt = Date.now();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    // scheduled for now in the first tab: the timed-work runner starts and sends it
    await campaignRow(page, "Bienvenida").getByTestId("campaign-edit").click();
    await input(page, "campaign-scheduled-date").waitFor();
    // issue 26: DD/MM/AAAA as everywhere in the web, not the browser's mm/dd/yyyy
    expect(await input(page, "campaign-scheduled-date").getAttribute("placeholder")).toBe("DD/MM/AAAA");
    const when = await scheduleIn(page);
    expect(await input(page, "campaign-scheduled-date").inputValue()).toBe(when.date);
    expect(await input(page, "campaign-scheduled-time").inputValue()).toBe(when.time);
    await page.getByTestId("campaign-modal-save").click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);

    // the report follows it live, without a reload
    await expect
      .poll(() => reportPage.getByTestId("campaign-report-progress").getAttribute("data-value"), { timeout: 30_000 })
      .toBe("100");
    await expect
      .poll(() => reportPage.getByTestId("campaign-report-status").textContent(), { timeout: 10_000 })
      .toBe("Finalizada");
    const finishedAt = await reportPage.evaluate(() => (window as unknown as { finishedAt?: number }).finishedAt);
    if (finishedAt === undefined) throw new Error("the report never showed Finalizada");
    expect(await reportPage.getByTestId("campaign-report-percent").textContent()).toBe("100 %");
    expect(await reportPage.getByTestId("campaign-report-delivered-value").textContent()).toBe("3");
    expect(await reportPage.getByTestId("campaign-report-validContacts-value").textContent()).toBe("3");
    expect(await reportPage.getByTestId("campaign-report-failed-value").textContent()).toBe("0");
    expect(await reportPage.getByTestId("campaign-report-connection").textContent()).toBe("Simulador");
    expect(await reportPage.getByTestId("campaign-report-completed").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

    // secondary §4: 5 s after FINALIZADA arrived the report reads its counts once more (nothing
    // else makes it read then: the campaign announces nothing after it finishes)
    await expect.poll(() => reportReads.some((at) => at >= finishedAt + 4_000), { timeout: 10_000 }).toBe(true);
    const lateReads = reportReads.filter((at) => at >= finishedAt + 4_000);
    expect(lateReads.length).toBe(1);
    expect(lateReads[0]).toBeLessThan(finishedAt + 6_500);
    await reportPage.close();

    // the list in the first tab followed it live too (the save's answer may arrive after the campaign's
    // start and end: api/live-order.ts), and a finished campaign only shows itself
    await expect.poll(() => rowStatus(page, "Bienvenida"), { timeout: 10_000 }).toBe("FINALIZADA");
    await campaignRow(page, "Bienvenida").getByTestId("campaign-edit").click();
    await page.getByTestId("campaign-mode-note").waitFor();
    expect(await page.getByTestId("campaign-mode-note").getAttribute("data-mode")).toBe("readOnly");
    expect(await input(page, "campaign-name").isDisabled()).toBe(true);
    expect(await page.getByTestId("campaign-message1").isDisabled()).toBe(true);
    expect(await page.getByTestId("campaign-message1").inputValue()).toBe("Hola {name}");
    expect(await page.getByTestId("campaign-modal-save").count()).toBe(0);
    await page.getByTestId("campaign-modal-cancel").click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it("a scheduled campaign is cancelled from the list, keeps only its texts open, and is restarted until it finishes", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const listId = await listWithNumbers(token, "Clientes Pausa", ["5491155520001", "5491155520002"]);
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const values = { name: "Oferta de invierno", message1: "Oferta para {name}", contactListId: listId, scheduledAt: inTwoHours };
    const created = await api<Campaign>(server.url, "POST", "/campaigns", values, token);
    expect(created.status).toBe("PROGRAMADA");

    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-campaigns").click();
    await page.waitForURL(/\/campaigns$/);
    const row = campaignRow(page, "Oferta de invierno");
    await row.waitFor();
    expect(await row.getByTestId("campaign-status").textContent()).toBe("Programada");
    expect(await row.getByTestId("campaign-restart").count()).toBe(0);

    // cancelling is asked first
    await row.getByTestId("campaign-cancel").click();
    await page.getByTestId("confirm-dialog").waitFor();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => rowStatus(page, "Oferta de invierno"), { timeout: 10_000 }).toBe("CANCELADA");
    expect(await row.getByTestId("campaign-status").textContent()).toBe("Cancelada");
    expect(await row.getByTestId("campaign-cancel").count()).toBe(0);

    // cancelled: its texts may still change, nothing else
    await row.getByTestId("campaign-edit").click();
    await page.getByTestId("campaign-mode-note").waitFor();
    expect(await page.getByTestId("campaign-mode-note").getAttribute("data-mode")).toBe("messages");
    expect(await input(page, "campaign-name").isDisabled()).toBe(true);
    await page.getByTestId("campaign-message1").fill("Última oferta para {name}");
    await page.getByTestId("campaign-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Campaña guardada con éxito.");
    await expect.poll(() => page.getByTestId("campaign-modal").count(), { timeout: 10_000 }).toBe(0);

    // restarted: it starts now and sends to both numbers
    await row.getByTestId("campaign-restart").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Campaña reanudada.");
    await expect.poll(() => rowStatus(page, "Oferta de invierno"), { timeout: 30_000 }).toBe("FINALIZADA");
    await row.getByTestId("campaign-edit").click();
    await page.getByTestId("campaign-mode-note").waitFor();
    expect(await page.getByTestId("campaign-message1").inputValue()).toBe("Última oferta para {name}");
    await page.getByTestId("campaign-modal-cancel").click();
    await expect.poll(() => page.getByTestId("campaign-modal").count(), { timeout: 10_000 }).toBe(0);
    await row.getByTestId("campaign-report").click();
    await page.waitForURL(/\/campaign\/\d+\/report$/);
    await expect.poll(() => page.getByTestId("campaign-report-delivered-value").textContent(), { timeout: 10_000 }).toBe("2");
    // issue 26: no connection of its own, so the default one, named
    expect(await page.getByTestId("campaign-report-connection").textContent()).toBe("Simulador (predeterminada)");
    await page.getByTestId("campaign-report-back").click();
    await page.waitForURL(/\/campaigns$/);
    expect(await row.textContent()).toContain("Simulador (predeterminada)");

    // issue 26: the customer's phone (the simulator) shows what the campaign sent it
    await page.getByTestId("menu-simulator").click();
    await page.waitForURL(/\/simulator$/);
    await input(page, "simulator-number").fill("5491155520001");
    const received = page.getByTestId("simulator-out").filter({ hasText: "Última oferta para" });
    await received.waitFor({ timeout: 15_000 });
    await page.getByTestId("menu-campaigns").click();
    await page.waitForURL(/\/campaigns$/);

    // a finished campaign can be deleted, after asking
    await row.getByTestId("campaign-delete").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Campaña eliminada con éxito.");
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it("a new campaign scheduled within the hour keeps the file attached in its dialog", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await listWithNumbers(token, "Clientes Folleto", ["5491155530001"]);

    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-campaigns").click();
    await page.waitForURL(/\/campaigns$/);
    await page.getByTestId("campaigns-add").click();
    await input(page, "campaign-name").fill("Folleto de verano");
    await page.getByTestId("campaign-message1").fill("Mira nuestro folleto, {name}");
    await choose(page, "campaign-contact-list", "Clientes Folleto");
    // within the hour: once saved the campaign no longer takes a file, so the dialog attaches it first
    const when = await scheduleIn(page, 30);
    await page.getByTestId("campaign-file").setInputFiles({ name: "folleto.png", mimeType: "image/png", buffer: tinyPng() });
    expect(await page.getByTestId("campaign-media-name").textContent()).toBe("folleto.png");
    await page.getByTestId("campaign-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Campaña guardada con éxito.");
    const row = campaignRow(page, "Folleto de verano");
    await expect.poll(() => rowStatus(page, "Folleto de verano"), { timeout: 10_000 }).toBe("PROGRAMADA");
    // attached on a draft and then scheduled: still one campaign
    expect(await row.count()).toBe(1);

    await row.getByTestId("campaign-edit").click();
    await page.getByTestId("campaign-mode-note").waitFor();
    expect(await page.getByTestId("campaign-mode-note").getAttribute("data-mode")).toBe("readOnly");
    expect(await page.getByTestId("campaign-media-name").textContent()).toBe("folleto.png");
    expect(await page.getByTestId("campaign-media-remove").count()).toBe(0);
    // the saved instant comes back in the same DD/MM/AAAA and HH:mm fields
    expect(await input(page, "campaign-scheduled-date").inputValue()).toBe(when.date);
    expect(await input(page, "campaign-scheduled-time").inputValue()).toBe(when.time);
    await context.close();
  });
});
