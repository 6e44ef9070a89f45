import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const PLAN = "Plan Pro E2E";
const COMPANY = "Ferretería E2E";
const SAVE_FAILED =
  "No se pudo realizar la operación. Comprueba si ya existe una empresa con el mismo nombre o si los campos se han rellenado correctamente.";

/** DD/MM/YYYY of the UTC day `days` from now. */
function shownDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10).split("-").reverse().join("/");
}

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? "").replace(/\s/g, " ");

async function openTab(page: Page, key: string, form: string) {
  await page.getByTestId("menu-settings").click();
  await page.waitForURL(/\/settings$/);
  await page.getByTestId(`settings-tab-${key}`).click();
  await page.getByTestId(form).waitFor();
}

async function pick(page: Page, select: string, option: string) {
  await page.getByTestId(select).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describe("companies and plans administration", () => {
  it("a super admin creates a plan and a company, sees them listed, swaps into the company and back, then deletes it", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);

    // Planes: the spec's defaults, a price typed with a comma, shown in MXN with pt-BR formatting
    await openTab(page, "plans", "plan-form");
    expect(await input(page, "plan-useCampaigns").isChecked()).toBe(true);
    expect(await input(page, "plan-useKanban").isChecked()).toBe(true);
    expect(await input(page, "plan-useOpenAi").isChecked()).toBe(false);
    expect(await input(page, "plan-useIntegrations").isChecked()).toBe(false);
    await input(page, "plan-name").fill(PLAN);
    await input(page, "plan-users").fill("5");
    await input(page, "plan-connections").fill("2");
    await input(page, "plan-queues").fill("4");
    await input(page, "plan-value-input").fill("199,90");
    await input(page, "plan-useOpenAi").check();
    await page.getByTestId("plan-save").click();
    const planRow = page.getByTestId("plan-row").filter({ hasText: PLAN });
    await planRow.waitFor();
    expect(((await planRow.getByTestId("plan-value").textContent()) ?? "").replace(/\s/g, " ")).toBe("MX$ 199,90");
    expect(await planRow.locator('[data-testid="plan-flag-useOpenAi"][data-enabled="true"]').count()).toBe(1);
    expect(await planRow.locator('[data-testid="plan-flag-useIntegrations"][data-enabled="false"]').count()).toBe(1);

    // Empresas: the company with its admin, due in 3 days: an orange row (in any zone's calendar, 2 to 4 days)
    await page.getByTestId("settings-tab-companies").click();
    await page.getByTestId("company-form").waitFor();
    await input(page, "company-name").fill(COMPANY);
    await input(page, "company-email").fill("duena@ferreteria.test");
    await input(page, "company-password").fill("ferreteria-123");
    await pick(page, "company-plan", PLAN);
    await input(page, "company-due-date").fill(shownDate(3));
    await input(page, "company-billingName").fill("Ferretería del Centro SA");
    await input(page, "company-addressCity").fill("Guadalajara");
    await page.getByTestId("company-save").click();
    const row = page.getByTestId("company-row").filter({ hasText: COMPANY });
    await row.waitFor();
    expect(await row.getAttribute("data-tone")).toBe("orange");
    expect(await row.textContent()).toContain(PLAN);

    // the same name again is refused in the spec's words
    await input(page, "company-name").fill(COMPANY);
    await input(page, "company-email").fill("otra@ferreteria.test");
    await input(page, "company-password").fill("ferreteria-123");
    await pick(page, "company-plan", PLAN);
    await page.getByTestId("company-save").click();
    await page.locator(".Toastify__toast").filter({ hasText: SAVE_FAILED }).waitFor();
    await page.getByTestId("company-clear").click();

    // +Vencimiento moves the form's due date by the recurrence (TRIMESTRAL: 3 months); saved, the tint goes
    await row.getByTestId("company-edit").click();
    expect(await input(page, "company-billingName").inputValue()).toBe("Ferretería del Centro SA");
    const due = await input(page, "company-due-date").inputValue();
    await pick(page, "company-recurrence", "Trimestral");
    await page.getByTestId("company-add-due").click();
    const [d, m, y] = due.split("/").map(Number);
    const months = y * 12 + (m - 1) + 3;
    const last = new Date(Date.UTC(Math.floor(months / 12), (months % 12) + 1, 0)).getUTCDate();
    const expected = new Date(Date.UTC(Math.floor(months / 12), months % 12, Math.min(d, last))).toISOString().slice(0, 10);
    expect(await input(page, "company-due-date").inputValue()).toBe(expected.split("-").reverse().join("/"));
    await page.getByTestId("company-save").click();
    await expect.poll(() => row.getAttribute("data-tone")).toBe("none");

    // the super admin's own company offers no delete and no swap
    const own = page.getByTestId("company-row").filter({ hasText: "Empresa 1" });
    expect(await own.getByTestId("company-delete").count()).toBe(0);
    await own.getByTestId("company-current").waitFor();

    // swap: the page reloads into the new company, its id kept locally
    const companyId = await row.getAttribute("data-company-id");
    await row.getByTestId("company-swap").click();
    await expect.poll(() => text(page, "greeting"), { timeout: 20_000 }).toContain(COMPANY);
    expect(await page.evaluate(() => localStorage.getItem("companyId"))).toBe(companyId);

    // and back to Empresa 1, from the new company's own settings
    await openTab(page, "companies", "company-form");
    await page.getByTestId("company-row").filter({ hasText: "Empresa 1" }).getByTestId("company-swap").click();
    await expect.poll(() => text(page, "greeting"), { timeout: 20_000 }).toContain("Empresa 1");
    expect(await page.evaluate(() => localStorage.getItem("companyId"))).toBe("1");

    // delete, asked first
    await openTab(page, "companies", "company-form");
    const back = page.getByTestId("company-row").filter({ hasText: COMPANY });
    await back.getByTestId("company-delete").click();
    await page.getByTestId("confirm-dialog").waitFor();
    await page.getByTestId("confirm-ok").click();
    await back.waitFor({ state: "detached" });
    await context.close();
  });
});
