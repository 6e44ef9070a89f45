import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { tinyPng } from "./support/png.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const OWNER = { email: "duena@panaderia.test", password: "panaderia-123" };

async function openBranding(page: Page) {
  await page.getByTestId("menu-settings").click();
  await page.waitForURL(/\/settings$/);
  await page.getByTestId("settings-tab-branding").click();
  await page.getByTestId("branding-form").waitFor();
}

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

describe("company branding", () => {
  it("a company admin uploads a PNG logo and sets a colour: kept after reload, and the login page shows the logo", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const [plan] = await api<{ id: number }[]>(server.url, "GET", "/plans/all", undefined, token);
    await api(server.url, "POST", "/companies", { name: "Panadería Sol", planId: plan.id, ...OWNER }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, OWNER.email, OWNER.password);
    await page.getByTestId("greeting").filter({ hasText: "Panadería Sol" }).waitFor();
    await openBranding(page);
    expect(await page.getByTestId("branding-logo-preview").getAttribute("data-custom")).toBe("false");

    // a file named .png that is no PNG is refused by its bytes, before anything is sent
    await page.getByTestId("branding-logo-input").setInputFiles({
      name: "logo.png",
      mimeType: "image/png",
      buffer: Buffer.from("GIF89a not a png at all"),
    });
    await page.getByTestId("branding-logo-error").filter({ hasText: "El logotipo debe ser una imagen PNG." }).waitFor();

    const png = tinyPng();
    await page.getByTestId("branding-logo-input").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
    await expect.poll(() => page.getByTestId("branding-logo-preview").getAttribute("data-custom")).toBe("true");
    expect(await page.getByTestId("branding-logo-error").count()).toBe(0);
    await input(page, "branding-primary-color").fill("#1565c0");
    await input(page, "branding-page-title").fill("Panadería Sol");

    // saved: the look is kept locally and the page reloads (core §4)
    const reloaded = page.waitForEvent("load");
    await page.getByTestId("branding-save").click();
    await reloaded;
    await page.getByTestId("greeting").waitFor();
    expect(await stored(page, "primaryColor")).toBe("#1565c0");
    expect(await stored(page, "pageTitle")).toBe("Panadería Sol");
    const logo = await stored(page, "companyLogo");
    expect(logo).toBe(`data:image/png;base64,${png.toString("base64")}`);
    await expect.poll(() => page.title()).toContain("Panadería Sol");

    // after the reload the tab shows what was saved, read back from the API
    await openBranding(page);
    await expect.poll(() => page.getByTestId("branding-logo-preview").getAttribute("data-custom")).toBe("true");
    expect(await input(page, "branding-primary-color").inputValue()).toBe("#1565c0");

    // the login page of this browser is the company's: its logo and colour
    await page.getByTestId("user-menu-button").click();
    await page.getByTestId("logout").click();
    await page.waitForURL(/\/login$/);
    expect(await page.getByTestId("login-logo").getAttribute("src")).toBe(logo);
    const background = await page.getByTestId("login-submit").evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe("rgb(21, 101, 192)");
    await context.close();
  });
});
