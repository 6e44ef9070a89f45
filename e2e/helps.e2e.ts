import type { Browser, BrowserContext, Page } from "playwright-core";
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

const VIDEO = "dQw4w9WgXcQ";

/**
 * YouTube is out of reach here, as behind a strict network policy: every request to its thumbnail and
 * player origins is refused, so the page must show its placeholder and keep its layout.
 */
async function blockYoutube(context: BrowserContext) {
  const blocked: string[] = [];
  for (const origin of ["https://i.ytimg.com/**", "https://www.youtube-nocookie.com/**"]) {
    await context.route(origin, (route) => {
      blocked.push(route.request().url());
      return route.abort("blockedbyclient");
    });
  }
  return blocked;
}

const title = (page: Page) => page.locator("h1").first().textContent();

describe("help videos", () => {
  it("the Ayuda tab creates a video; /helps shows it as a card whose player opens and Escape closes", async () => {
    const { context, page } = await newPage(browser);
    const blocked = await blockYoutube(context);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);

    // the seeded admin is a super user: Settings has the Ayuda tab
    await page.getByTestId("menu-settings").click();
    await page.waitForURL(/\/settings$/);
    await page.getByTestId("settings-tab-helps").click();
    await page.getByTestId("help-form").waitFor();
    await page.getByTestId("helps-empty").waitFor();

    // a code that is no YouTube id is refused beside its field, before anything is sent
    await input(page, "help-title").fill("Primeros pasos");
    await input(page, "help-video").fill("no-es-un-video");
    await page.getByTestId("help-save").click();
    await page.getByTestId("help-form").getByText("Valor inválido").waitFor();

    // a pasted link is kept as its id
    await input(page, "help-video").fill(`https://www.youtube.com/watch?v=${VIDEO}&t=10s`);
    await page.locator('textarea[data-testid="help-description"]').fill("Cómo atender tu primera conversación");
    await page.getByTestId("help-save").click();
    const row = page.getByTestId("help-row").filter({ hasText: "Primeros pasos" });
    await row.waitFor();
    expect(await row.textContent()).toContain(VIDEO);
    expect(await input(page, "help-title").inputValue()).toBe("");

    // Edit fills the form and puts the cursor in its title
    await row.getByTestId("help-edit").click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("help-title");
    expect(await input(page, "help-video").inputValue()).toBe(VIDEO);
    await page.keyboard.press("End");
    await page.keyboard.type(" en Charla");
    await page.getByTestId("help-save").click();
    await page.getByTestId("help-row").filter({ hasText: "Primeros pasos en Charla" }).waitFor();
    expect(await page.getByTestId("help-row").count()).toBe(1);

    // every user's menu has the page; its title carries the count
    await page.getByTestId("menu-helps").click();
    await page.waitForURL(/\/helps$/);
    await expect.poll(() => title(page)).toBe("Ayuda (1)");
    const card = page.getByTestId("help-card");
    expect(await card.count()).toBe(1);
    expect(await card.textContent()).toContain("Primeros pasos en Charla");
    expect(await card.textContent()).toContain("Cómo atender tu primera conversación");
    // the thumbnail could not load: a placeholder of the same 16:9 size stands in
    await card.getByTestId("help-thumbnail-placeholder").waitFor();
    const box = await card.getByTestId("help-thumbnail-placeholder").boundingBox();
    expect(box && Math.round((box.width / box.height) * 9)).toBe(16);
    expect(blocked.some((url) => url.startsWith(`https://i.ytimg.com/vi/${VIDEO}/`))).toBe(true);

    await card.click();
    const dialog = page.getByTestId("help-video-dialog");
    await dialog.waitFor();
    expect(await dialog.getByTestId("help-player").getAttribute("src")).toMatch(
      new RegExp(`^https://www\\.youtube-nocookie\\.com/embed/${VIDEO}\\?`),
    );
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await context.close();
  });
});

describe("to-do list", () => {
  it("Edit puts the cursor in the field with the task's text; delete asks first", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-todolist").click();
    await page.waitForURL(/\/todolist$/);
    const field = input(page, "todo-input");
    for (const task of ["Llamar al proveedor", "Revisar campañas"]) {
      await field.fill(task);
      await page.getByTestId("todo-submit").click();
    }
    const items = page.getByTestId("todo-item");
    await expect.poll(() => items.count()).toBe(2);

    await items.nth(0).getByTestId("todo-edit").click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("todo-input");
    expect(await field.inputValue()).toBe("Llamar al proveedor");
    await page.keyboard.type(" hoy");
    await page.getByTestId("todo-submit").click();
    await items.filter({ hasText: "Llamar al proveedor hoy" }).waitFor();

    // cancelled: nothing is deleted
    await items.nth(1).getByTestId("todo-delete").click();
    const confirm = page.getByTestId("confirm-dialog");
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain("Revisar campañas");
    await page.getByTestId("confirm-cancel").click();
    await confirm.waitFor({ state: "hidden" });
    expect(await items.count()).toBe(2);

    await items.nth(1).getByTestId("todo-delete").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain("Llamar al proveedor hoy");
    await context.close();
  });
});
