import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

// exceljs is the server's dependency (it reads the imports): the sheet is written with the same library
const ExcelJS = createRequire(new URL("../server/package.json", import.meta.url))("exceljs") as typeof import("exceljs");

const shots = process.env.E2E_SHOTS_DIR;
let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const LIST = "Clientes Feria 2026";
const bodyText = (page: Page) => page.locator("body").textContent();
const listRow = (page: Page, name: string) => page.getByTestId("contact-lists-row").filter({ hasText: name });
const itemRow = (page: Page, name: string) => page.getByTestId("contact-list-items-row").filter({ hasText: name });
const validityOf = (page: Page, name: string) =>
  itemRow(page, name).getByTestId("contact-list-item-validity").getAttribute("data-validity");

/** secondary §2: the campaign routes exist only while the browser holds cshow (any value). */
const withCampaignFlag = (context: BrowserContext) => context.addInitScript(() => localStorage.setItem("cshow", "1"));

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet("Contactos");
  for (const row of rows) worksheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Picks a sheet in the page's hidden file input; the import dialog that opens. */
async function chooseSheet(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.getByTestId("contact-list-items-file").setInputFiles({ name, mimeType, buffer });
  const dialog = page.getByTestId("import-dialog");
  await dialog.waitFor();
  return dialog;
}

describe("contact lists", () => {
  it("an admin creates a list, imports a sheet, reads what was refused and why, and sees the numbers and the count", async () => {
    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    // Empresa 1: its plan has useCampaigns, and its simulator connection checks the numbers
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-contact-lists").click();
    await page.waitForURL(/\/contact-lists$/);
    await page.getByTestId("contact-lists-table").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Listas de contactos");

    // the example sheet, in the interface's language, fetched with the bearer and saved
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("contact-lists-example").click()]);
    expect(download.suggestedFilename()).toBe("ejemplo-lista-de-contactos.xlsx");
    expect(
      readFileSync(await download.path())
        .subarray(0, 2)
        .toString("latin1"),
    ).toBe("PK");

    // a list: its name is checked as the API checks it
    await page.getByTestId("contact-lists-add").click();
    await page.getByTestId("contact-list-modal-save").click();
    await page.getByTestId("contact-list-modal").getByText("Requerido").first().waitFor();
    await input(page, "contact-list-name").fill(LIST);
    await page.getByTestId("contact-list-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Lista de contactos guardada con éxito.");
    await listRow(page, LIST).waitFor();
    expect(await listRow(page, LIST).getByTestId("contact-list-count").textContent()).toBe("0");

    await listRow(page, LIST).getByTestId("contact-list-contacts").click();
    await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(`Contactos de ${LIST}`);
    await page.getByTestId("contact-list-items-empty").waitFor();

    const file = await sheet([
      ["Nombre", "Número", "Email"],
      ["Lucía Fernández", "+54 9 11 3333-4444", "lucia@example.com"],
      ["Carlos Ramírez", 5215511110002, ""],
      // the simulator answers that numbers ending in 0000 have no WhatsApp
      ["Sin WhatsApp", "5511911110000", ""],
      ["Corto", "12345", ""],
      ["Mal correo", "5511911112222", "no-es-correo"],
      ["Repetida", "0054 9 11 3333 4444", ""],
    ]);
    // the answer is held back a moment, so the progress can be seen
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/v1/contact-lists/*/upload", async (route) => {
      await held;
      await route.continue();
    });
    const dialog = await chooseSheet(
      page,
      "feria.xlsx",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      file,
    );
    expect(await dialog.getAttribute("data-step")).toBe("confirm");
    expect(await page.getByTestId("import-confirm-text").textContent()).toBe(
      `Se importarán los contactos de «feria.xlsx» a la lista «${LIST}».`,
    );
    await page.getByTestId("import-start").click();
    await page.getByTestId("import-progress").waitFor();
    expect(["upload", "write"]).toContain(await dialog.getAttribute("data-step"));
    release();

    await expect.poll(() => dialog.getAttribute("data-step"), { timeout: 15_000 }).toBe("summary");
    expect(await page.getByTestId("import-imported").textContent()).toBe("3");
    expect(await page.getByTestId("import-updated").textContent()).toBe("0");
    expect(await page.getByTestId("import-rejected").textContent()).toBe("3");
    const rejected = page.getByTestId("import-rejected-row");
    expect(
      await rejected.evaluateAll((rows) => rows.map((r) => [r.getAttribute("data-row"), r.getAttribute("data-reason")])),
    ).toEqual([
      ["5", "number"],
      ["6", "email"],
      ["7", "duplicate"],
    ]);
    expect(await rejected.nth(0).textContent()).toContain("Número inválido (incluye el código de país)");
    expect(await rejected.nth(0).textContent()).toContain("12345");
    expect(await rejected.nth(1).textContent()).toContain("Email inválido");
    expect(await rejected.nth(1).textContent()).toContain("no-es-correo");
    expect(await rejected.nth(2).textContent()).toContain("Número repetido en la hoja");
    await page.getByTestId("import-close").click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);

    // the imported numbers, then WhatsApp's answer for each arrives live
    await expect.poll(() => page.getByTestId("contact-list-items-row").count(), { timeout: 10_000 }).toBe(3);
    expect(await itemRow(page, "Lucía Fernández").textContent()).toContain("lucia@example.com");
    expect(await page.getByTestId("contact-list-items-table").textContent()).not.toContain("Mal correo");
    await expect.poll(() => validityOf(page, "Lucía Fernández"), { timeout: 20_000 }).toBe("valid");
    await expect.poll(() => validityOf(page, "Sin WhatsApp"), { timeout: 20_000 }).toBe("invalid");

    // one by hand: a number of no country is refused beside its field
    await page.getByTestId("contact-list-items-add").click();
    await input(page, "contact-list-item-name").fill("Pedro Gómez");
    await input(page, "contact-list-item-number").fill("99912345678");
    await page.getByTestId("contact-list-item-modal-save").click();
    await page.getByTestId("contact-list-item-modal").getByText("Número inválido: incluye el código de país").waitFor();
    await input(page, "contact-list-item-number").fill("5215512345678");
    await page.getByTestId("contact-list-item-modal-save").click();
    await itemRow(page, "Pedro Gómez").waitFor({ timeout: 10_000 });

    await page.getByTestId("contact-list-items-search").fill("gómez");
    await expect.poll(() => page.getByTestId("contact-list-items-row").count(), { timeout: 10_000 }).toBe(1);
    await itemRow(page, "Pedro Gómez").getByTestId("contact-list-item-delete").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Contacto eliminado con éxito.");

    // back on the lists: the list counts its three numbers
    await page.getByTestId("contact-list-items-back").click();
    await page.waitForURL(/\/contact-lists$/);
    await expect.poll(() => listRow(page, LIST).getByTestId("contact-list-count").textContent(), { timeout: 10_000 }).toBe("3");
    await context.close();
  });

  it("an old binary .xls, as LibreOffice saves it, imports through the page like an .xlsx", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const list = await api<{ id: number }>(server.url, "POST", "/contact-lists", { name: "Agenda antigua" }, token);
    const file = readFileSync(new URL("../server/src/lib/xls/fixtures/cells-libreoffice.xls", import.meta.url));

    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    await page.goto(`${server.url}/contact-lists/${list.id}/contacts`);
    await page.getByTestId("contact-list-items-table").waitFor({ timeout: 15_000 });
    // the picker offers .xls
    expect(await page.getByTestId("contact-list-items-file").getAttribute("accept")).toContain(".xls,");

    const dialog = await chooseSheet(page, "agenda.xls", "application/vnd.ms-excel", file);
    await page.getByTestId("import-start").click();
    await expect.poll(() => dialog.getAttribute("data-step"), { timeout: 15_000 }).toBe("summary");
    if (shots) await page.screenshot({ path: `${shots}/contact-list-import-xls.png` });
    expect(await page.getByTestId("import-imported").textContent()).toBe("4");
    expect(await page.getByTestId("import-rejected").textContent()).toBe("3");
    await page.getByTestId("import-close").click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId("contact-list-items-row").count(), { timeout: 10_000 }).toBe(4);
    expect(await itemRow(page, "Fórmula").textContent()).toContain("ana@example.com");
    if (shots) await page.screenshot({ path: `${shots}/contact-list-items-xls.png` });
    expect(await itemRow(page, "中文 Ωμέγα").textContent()).toContain("+54 9 11 0000 0001");
    await context.close();
  });

  it("a CSV with a field longer than a cell is refused with its row in the toast, and nothing is imported", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const list = await api<{ id: number }>(server.url, "POST", "/contact-lists", { name: "Campo largo" }, token);
    const csv = Buffer.from(`nombre,numero\nAna,5491133334444\n${"a".repeat(40_000)},5491133335555\n`);

    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    await page.goto(`${server.url}/contact-lists/${list.id}/contacts`);
    await page.getByTestId("contact-list-items-table").waitFor({ timeout: 15_000 });
    const dialog = await chooseSheet(page, "largo.csv", "text/csv", csv);
    await page.getByTestId("import-start").click();
    const toast = page.locator(".Toastify__toast").filter({ hasText: "La fila 3 tiene un campo de más de 32.767 caracteres" });
    await toast.waitFor({ timeout: 15_000 });
    if (shots) await page.screenshot({ path: `${shots}/contact-list-import-field-too-long.png` });
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByTestId("contact-list-items-row").count()).toBe(0);
    await context.close();
  });

  it("without the cshow flag the routes are not there; set, they are", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("menu-contact-lists").count()).toBe(0);

    // without the flag the campaign pages do not exist: the app's not-found screen, as for any unknown path
    await page.goto(`${server.url}/contact-lists`);
    await page.getByTestId("not-found").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("contact-lists-table").count()).toBe(0);

    await page.evaluate(() => localStorage.setItem("cshow", ""));
    await page.goto(`${server.url}/contact-lists`);
    await page.getByTestId("contact-lists-table").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("menu-contact-lists").count()).toBe(1);
    await context.close();
  });

  it("a plan without campaigns has no menu entry and no lists, even with the flag", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const plan = await api<{ id: number }>(server.url, "POST", "/plans", { name: "Sin Campañas", useCampaigns: false }, admin);
    const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const owner = { email: "sin-campanas@e2e.test", password: "sin-campanas-123" };
    await api(server.url, "POST", "/companies", { name: "Sin Campañas SA", ...owner, planId: plan.id, dueDate }, admin);

    const { context, page } = await newPage(browser);
    await withCampaignFlag(context);
    await loginThroughUi(page, server.url, owner.email, owner.password);
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("menu-contact-lists").count()).toBe(0);

    await page.goto(`${server.url}/contact-lists`);
    await page.getByTestId("menu-tags").waitFor({ timeout: 15_000 });
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).not.toBe("/contact-lists");
    expect(await page.getByTestId("contact-lists-table").count()).toBe(0);
    // the API refuses what the menu hides
    const token = await apiLogin(server.url, owner.email, owner.password);
    await expect(api(server.url, "GET", "/contact-lists", undefined, token)).rejects.toThrow(/403/);
    await context.close();
  });
});
