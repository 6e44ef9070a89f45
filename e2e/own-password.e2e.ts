import type { Browser } from "playwright-core";
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

describe("own password", () => {
  it("the profile modal asks for the current password before changing one's own, and says when it is wrong", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(
      server.url,
      "POST",
      "/users",
      { name: "Agente Clave", email: "clave@e2e.test", password: "clave-vieja", profile: "user" },
      admin,
    );

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, "clave@e2e.test", "clave-vieja");
    await page.getByTestId("greeting").waitFor({ timeout: 15_000 });
    await page.getByTestId("user-menu-button").click();
    await page.getByTestId("menu-profile").click();
    await input(page, "user-name").waitFor();

    // no new password, no question
    expect(await input(page, "user-current-password").count()).toBe(0);
    await input(page, "user-password").fill("clave-nueva");
    await input(page, "user-current-password").waitFor();
    expect(await page.getByTestId("user-modal").textContent()).toContain("Contraseña actual");

    // saving without it marks the field (checked in the browser, nothing is sent)
    await page.getByTestId("user-save").click();
    await expect.poll(() => page.getByTestId("user-modal").textContent()).toContain("Requerido");

    // a wrong one: the API refuses and the field says why
    await input(page, "user-current-password").fill("no-es-esta");
    await page.getByTestId("user-save").click();
    await expect.poll(() => page.getByTestId("user-modal").textContent()).toContain("La contraseña actual no es correcta.");
    await expect(apiLogin(server.url, "clave@e2e.test", "clave-nueva")).rejects.toThrow(/401/);

    await input(page, "user-current-password").fill("clave-vieja");
    await page.getByTestId("user-save").click();
    await expect.poll(() => page.getByTestId("user-modal").count(), { timeout: 10_000 }).toBe(0);
    expect(await apiLogin(server.url, "clave@e2e.test", "clave-nueva")).toBeTruthy();
    await context.close();
  });
});
