import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const LIST = "Catálogos de verano";
const bodyText = (page: Page) => page.locator("body").textContent();
const listRow = (page: Page) => page.getByTestId("file-lists-row").filter({ hasText: LIST });

describe("file lists", () => {
  it("an admin makes a list with a message and two files, then drops one; the files are served to the company", async () => {
    const { page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-files").click();
    await page.waitForURL(/\/files$/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Listas de archivos");

    await page.getByTestId("file-lists-add").click();
    await input(page, "file-list-name").fill("ab");
    await page.getByTestId("file-list-modal-save").click();
    await page.getByTestId("file-list-modal").getByText("nombre muy corto").waitFor();
    await input(page, "file-list-name").fill(LIST);
    await page.locator(`textarea[data-testid="file-list-message"]`).fill("Estos son nuestros catálogos");
    for (const [i, name] of ["Catálogo", "Precios"].entries()) {
      await page.getByTestId("file-option-add").click();
      await input(page, `file-option-name-${i}`).fill(name);
      await page.getByTestId(`file-option-input-${i}`).setInputFiles({
        name: `${name.toLowerCase()}.pdf`,
        mimeType: "application/pdf",
        buffer: Buffer.from(`%PDF-1.4 ${name}`),
      });
    }
    await page.getByTestId("file-list-modal").getByText("precios.pdf").waitFor();
    await page.getByTestId("file-list-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Lista de archivos guardada con éxito.");
    await expect.poll(() => listRow(page).getByTestId("file-list-count").textContent()).toBe("2");

    // edit: the second file goes, the first keeps its file
    await listRow(page).getByTestId("file-list-edit").click();
    await page.getByTestId("file-list-modal").getByText("catálogo.pdf").waitFor();
    await page.getByTestId("file-option-remove-1").click();
    await page.getByTestId("file-list-modal-save").click();
    await expect.poll(() => listRow(page).getByTestId("file-list-count").textContent(), { timeout: 10_000 }).toBe("1");

    // what the server holds (read last: a login elsewhere ends the browser's session): the kept file
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const found = await api<{ files: { id: number; options: { name: string; path: string; url: string }[] }[] }>(
      server.url,
      "GET",
      `/files?searchParam=${encodeURIComponent(LIST)}`,
      undefined,
      token,
    );
    const [list] = found.files;
    expect(list.options.map((o) => [o.name, o.path])).toEqual([["Catálogo", "catálogo.pdf"]]);
    const file = await fetch(`${server.url}${list.options[0].url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await file.text()).toBe("%PDF-1.4 Catálogo");
  });
});
