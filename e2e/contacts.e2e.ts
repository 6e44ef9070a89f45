import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Contact = { id: number; name: string; number: string; email: string; extraInfo: { name: string; value: string }[] };

const AGENT = { name: "Agente Contactos", email: "agente-contactos@e2e.test", password: "agente-123" };
const XSS_NAME = "<img src=x onerror=alert(1)>";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const rows = (page: Page, text: string) => page.getByTestId("contacts-row").filter({ hasText: text });

async function openContacts(page: Page) {
  await page.getByTestId("menu-contacts").click();
  await page.waitForURL(/\/contacts$/);
  await page.getByTestId("contacts-table").waitFor();
}

/** The shared helper always sends a JSON content type, which a DELETE without a body must not carry. */
/** Set-up through the API; a login ends the user's other sessions, so this runs before the browser logs in. */
async function adminToken(): Promise<string> {
  return apiLogin(server.url, ADMIN.email, ADMIN.password);
}

describe("contacts page", () => {
  it("admin adds, edits, searches, exports and deletes a contact", async () => {
    const token = await adminToken();
    await api(server.url, "POST", "/contacts", { name: "Otro Cliente", number: "5491112345678" }, token);
    await api(server.url, "POST", "/users", { ...AGENT, profile: "user" }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openContacts(page);
    await rows(page, "Otro Cliente").waitFor();

    // add, with one extra-info pair
    await page.getByTestId("contacts-add").click();
    await input(page, "contact-name").fill("Cliente Prueba");
    await input(page, "contact-number").fill("+52 1 55 1234 5678");
    await input(page, "contact-email").fill("Cliente@E2E.test");
    await page.getByTestId("contact-extra-add").click();
    await input(page, "contact-extra-name-0").fill("Empresa");
    await input(page, "contact-extra-value-0").fill("ACME S.A.");
    await page.getByTestId("contact-save").click();
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Contacto guardado con éxito.");
    await rows(page, "Cliente Prueba").waitFor();
    const row = rows(page, "Cliente Prueba");
    expect(await row.textContent()).toContain("+52 1 55 1234 5678");
    expect(await row.textContent()).toContain("cliente@e2e.test");
    const id = Number(await row.getAttribute("data-contact-id"));
    expect(id).toBeGreaterThan(0);

    // edit: the modal brings the saved values back, the new name reaches the table
    await row.getByTestId("contact-edit").click();
    await expect.poll(() => input(page, "contact-name").inputValue(), { timeout: 10_000 }).toBe("Cliente Prueba");
    expect(await input(page, "contact-number").inputValue()).toBe("5215512345678");
    expect(await input(page, "contact-extra-name-0").inputValue()).toBe("Empresa");
    expect(await input(page, "contact-extra-value-0").inputValue()).toBe("ACME S.A.");
    await input(page, "contact-name").fill("Cliente Editado");
    await page.getByTestId("contact-save").click();
    await rows(page, "Cliente Editado").waitFor();
    expect(await rows(page, "Cliente Prueba").count()).toBe(0);

    // a number already taken is refused with the catalogue's text; the dialog stays open
    await page.getByTestId("contacts-add").click();
    await input(page, "contact-name").fill("Duplicado");
    await input(page, "contact-number").fill("54 9 11 1234-5678");
    await page.getByTestId("contact-save").click();
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 10_000 })
      .toContain("Ya existe un contacto con este número.");
    expect(await page.getByTestId("contact-modal").count()).toBe(1);
    await page.getByTestId("contact-cancel").click();
    await expect.poll(() => page.getByTestId("contact-modal").count(), { timeout: 10_000 }).toBe(0);

    // search (debounced) by name, then by number digits
    await input(page, "contacts-search").fill("Editado");
    await expect.poll(() => page.getByTestId("contacts-row").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId("contacts-row").first().getAttribute("data-contact-id")).toBe(String(id));
    await input(page, "contacts-search").fill("549 11");
    await expect
      .poll(() => page.getByTestId("contacts-row").first().textContent(), { timeout: 10_000 })
      .toContain("Otro Cliente");
    expect(await page.getByTestId("contacts-row").count()).toBe(1);
    await input(page, "contacts-search").fill("");
    await expect.poll(() => page.getByTestId("contacts-row").count(), { timeout: 10_000 }).toBe(2);

    // CSV export, fetched with the token and saved as contactos.csv
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("contacts-export").click()]);
    expect(download.suggestedFilename()).toBe("contactos.csv");
    const csv = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
    const lines = csv.split(/\r?\n/);
    expect(lines[0]).toBe("name;number;email");
    expect(lines).toContain("Cliente Editado;5215512345678;cliente@e2e.test");

    // delete, through the confirm dialog
    await rows(page, "Cliente Editado").getByTestId("contact-delete").click();
    const dialog = page.getByTestId("confirm-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("¿Eliminar Cliente Editado?");
    expect(await dialog.textContent()).toContain("Se perderán todas las interacciones relacionadas.");
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => rows(page, "Cliente Editado").count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Contacto eliminado con éxito.");
    await context.close();
  });

  it("a plain user sees contacts without a delete button, and the list follows live changes", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, AGENT.email, AGENT.password);
    await openContacts(page);
    await rows(page, "Otro Cliente").waitFor();
    expect(await page.getByTestId("contact-edit").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("contact-delete").count()).toBe(0);
    await waitForLive(page);

    // another user's changes arrive over the socket
    const token = await adminToken();
    const live = await api<Contact>(server.url, "POST", "/contacts", { name: "Aparece En Vivo", number: "5511912345678" }, token);
    await rows(page, "Aparece En Vivo").waitFor({ timeout: 10_000 });
    await api(server.url, "PUT", `/contacts/${live.id}`, { name: "Cambia En Vivo", number: live.number }, token);
    await rows(page, "Cambia En Vivo").waitFor({ timeout: 10_000 });
    await api(server.url, "DELETE", `/contacts/${live.id}`, undefined, token);
    await expect.poll(() => rows(page, "Cambia En Vivo").count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it("shows a contact named with markup as text, with no script run", async () => {
    const token = await adminToken();
    await api(
      server.url,
      "POST",
      "/contacts",
      { name: XSS_NAME, extraInfo: [{ name: "<b onmouseover=alert(2)>x</b>", value: "<script>alert(3)</script>" }] },
      token,
    );

    const { context, page } = await newPage(browser);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await context.addInitScript(() => {
      (window as unknown as { __xss: number }).__xss = 0;
      window.alert = () => {
        (window as unknown as { __xss: number }).__xss++;
      };
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openContacts(page);
    const row = rows(page, XSS_NAME);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain(XSS_NAME);
    expect(await page.locator("[data-testid=contacts-table] img[onerror], [data-testid=contacts-table] img[src=x]").count()).toBe(
      0,
    );

    // the modal shows name and extra info as input values, the confirm dialog as its title text
    await row.getByTestId("contact-edit").click();
    await expect.poll(() => input(page, "contact-name").inputValue(), { timeout: 10_000 }).toBe(XSS_NAME);
    expect(await input(page, "contact-extra-value-0").inputValue()).toBe("<script>alert(3)</script>");
    await page.getByTestId("contact-cancel").click();
    await row.getByTestId("contact-delete").click();
    await expect.poll(() => page.getByTestId("confirm-dialog").textContent()).toContain(`¿Eliminar ${XSS_NAME}?`);
    expect(await page.locator("[data-testid=confirm-dialog] img").count()).toBe(0);
    await page.getByTestId("confirm-cancel").click();

    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it("admin imports the phone's address book through the confirm dialog", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openContacts(page);
    expect(await rows(page, "Lucía Fernández").count()).toBe(0);

    await page.getByTestId("contacts-import").click();
    const dialog = page.getByTestId("confirm-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("¿Importar los contactos del teléfono?");
    expect(await dialog.textContent()).toContain("Se agregarán los contactos de la agenda de la conexión predeterminada.");
    await page.getByTestId("confirm-ok").click();
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 10_000 })
      .toContain("Importación terminada. Nuevos: 3; ya existentes: 0.");
    await expect.poll(() => page.getByTestId("confirm-dialog").count(), { timeout: 10_000 }).toBe(0);
    // the simulator's book (server/src/channels/simulator/driver.ts), with its formatted numbers
    for (const name of ["Lucía Fernández", "Carlos Ramírez", "Sofía Martínez"]) {
      await rows(page, name).waitFor({ timeout: 10_000 });
      expect(await rows(page, name).count()).toBe(1);
    }
    expect(await rows(page, "Lucía Fernández").textContent()).toContain("+52 1 55 1111 0001");

    // a second import adds nothing: the numbers are already there
    await page.getByTestId("contacts-import").click();
    await page.getByTestId("confirm-dialog").waitFor();
    await page.getByTestId("confirm-ok").click();
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 10_000 })
      .toContain("Importación terminada. Nuevos: 0; ya existentes: 3.");
    expect(await rows(page, "Carlos Ramírez").count()).toBe(1);
    await context.close();
  });

  it("admin imports a CSV file and reads the summary: added, updated and each rejected row", async () => {
    const token = await adminToken();
    await api(server.url, "POST", "/contacts", { name: "Nombre Viejo", number: "5215533330002" }, token);
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openContacts(page);
    await rows(page, "Nombre Viejo").waitFor();

    const csv = [
      "name;number;email",
      "Importada Uno;5215533330001;uno@e2e.test",
      "Nombre Nuevo;5215533330002;nuevo@e2e.test",
      "Sin Número;12;",
    ].join("\r\n");
    await page
      .getByTestId("contacts-import-file-input")
      .setInputFiles({ name: "contactos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const confirm = page.getByTestId("confirm-dialog");
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain("contactos.csv");
    await page.getByTestId("confirm-ok").click();

    const summary = page.getByTestId("contacts-import-summary");
    await summary.waitFor({ timeout: 15_000 });
    expect(await summary.getByTestId("import-imported").textContent()).toBe("1");
    expect(await summary.getByTestId("import-updated").textContent()).toBe("1");
    expect(await summary.getByTestId("import-rejected").textContent()).toBe("1");
    const rejected = summary.getByTestId("import-rejected-row");
    expect(await rejected.getAttribute("data-row")).toBe("4");
    expect(await rejected.textContent()).toContain("12");
    await page.getByTestId("contacts-import-close").click();
    await rows(page, "Importada Uno").waitFor({ timeout: 10_000 });
    await rows(page, "Nombre Nuevo").waitFor({ timeout: 10_000 });
    expect(await rows(page, "Nombre Nuevo").textContent()).toContain("nuevo@e2e.test");
    expect(await rows(page, "Nombre Viejo").count()).toBe(0);
    await context.close();
  });

  it("shows the whole search placeholder at 1366×768", async () => {
    const { context, page } = await newPage(browser, 1366, 768);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openContacts(page);
    const search = page.getByTestId("contacts-search");
    expect(await search.getAttribute("placeholder")).toBe("Buscar por nombre o número");
    // the placeholder's drawn width against the room the input gives it
    const room = await search.evaluate((el) => {
      const input = el as HTMLInputElement;
      const style = getComputedStyle(input);
      const ctx = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
      ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = ctx.measureText(input.placeholder).width;
      const inner = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return { text, inner };
    });
    expect(room.inner).toBeGreaterThanOrEqual(room.text);
    await context.close();
  });

  it("admin starts a conversation from a contact's row and lands in its ticket", async () => {
    const token = await adminToken();
    await api(server.url, "POST", "/contacts", { name: "Cliente Conversa", number: "5215522223333" }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openContacts(page);
    await input(page, "contacts-search").fill("Conversa");
    await expect.poll(() => page.getByTestId("contacts-row").count(), { timeout: 10_000 }).toBe(1);

    await rows(page, "Cliente Conversa").getByTestId("contact-start-ticket").click();
    const modal = page.getByTestId("new-ticket-modal");
    await modal.waitFor();
    // the contact comes chosen; no search is needed
    await expect.poll(() => input(page, "new-ticket-contact").inputValue(), { timeout: 10_000 }).toBe("Cliente Conversa");
    await page.getByTestId("new-ticket-save").click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    const header = page.getByTestId("chat-header");
    await header.waitFor({ timeout: 15_000 });
    await expect.poll(() => header.textContent(), { timeout: 10_000 }).toContain("Cliente Conversa");
    await context.close();
  });
});
