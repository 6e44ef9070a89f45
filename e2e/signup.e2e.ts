import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const shots = process.env.E2E_SHOTS_DIR;

/** With E2E_SHOTS_DIR: the page as it is, at 1366 px and at 390 px (then back). */
async function snap(page: Page, name: string) {
  if (!shots) return;
  // a label's colour fades in after a field's state changes: shot once such transitions end
  const settled = () => page.evaluate(() => document.getAnimations().every((a) => a.playState !== "running"));
  await expect.poll(settled, { timeout: 5_000 }).toBe(true);
  const size = page.viewportSize();
  await page.screenshot({ path: `${shots}/${name}-1366.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/${name}-390.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

describe("sign-up", () => {
  it("closed by default (no link, no form); opened by the operator, a visitor signs a company up from the login page and lands signed in", async () => {
    const closed = await newPage(browser, 1366, 800);
    await closed.page.goto(`${server.url}/signup`);
    await closed.page.getByTestId("signup-closed").waitFor();
    expect(await closed.page.getByTestId("signup-closed").textContent()).toContain(
      "El registro de nuevas empresas está cerrado.",
    );
    expect(await closed.page.getByTestId("signup-form").count()).toBe(0);
    await snap(closed.page, "signup-closed");
    // back to the login page: the answer that sign-up is closed is known, so no link is offered
    await closed.page.getByTestId("signup-login-link").click();
    await closed.page.waitForURL(/\/login$/);
    await closed.page.getByTestId("login-submit").waitFor();
    expect(await closed.page.getByTestId("login-signup-link").count()).toBe(0);
    await closed.context.close();

    // the operator (the main company's super admin) opens sign-up and offers a plan
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "PUT", "/settings/userCreation", { value: "enabled" }, token);
    const plan = await api<{ id: number }>(
      server.url,
      "POST",
      "/plans",
      { name: "Plan Inicial E2E", users: 4, connections: 2, queues: 3, value: "149.90" },
      token,
    );

    const { context, page } = await newPage(browser, 1366, 800);
    await page.goto(`${server.url}/login`);
    await page.getByTestId("login-signup-link").waitFor();
    await snap(page, "login-with-signup");
    await page.getByTestId("login-signup-link").click();
    await page.waitForURL(/\/signup$/);
    await page.getByTestId("signup-form").waitFor();

    // the plan is offered with its price in MXN (pt-BR digits) and its limits
    await page.getByTestId("signup-plan").click();
    const option = page.getByTestId(`signup-plan-${plan.id}`);
    await option.waitFor();
    const offered = (await option.textContent()) ?? "";
    expect(offered).toContain("Plan Inicial E2E");
    expect(offered).toMatch(/MX\$\s149,90/);
    expect(offered).toContain("4 usuarios · 2 conexiones · 3 áreas");
    await option.click();
    await option.waitFor({ state: "hidden" });

    // the form's own checks first: the contract's messages beside the fields
    await page.getByTestId("signup-submit").click();
    await page.getByTestId("signup-form").getByText("Requerido").first().waitFor();

    await input(page, "signup-company").fill("Panadería del Sol");
    await input(page, "signup-name").fill("Lucía Romero");
    await input(page, "signup-email").fill("lucia@panaderia.example");
    await input(page, "signup-phone").fill("+52 55 1234 5678");
    await input(page, "signup-password").fill("pan-caliente-2026");
    await snap(page, "signup-form");
    await page.getByTestId("signup-submit").click();

    // signed in: the app greets the new admin and the new company
    await page.waitForURL((url) => !url.pathname.startsWith("/signup"), { timeout: 20_000 });
    const greeting = page.getByTestId("greeting");
    await greeting.waitFor({ timeout: 20_000 });
    expect(await greeting.textContent()).toContain("Lucía Romero");
    expect(await greeting.textContent()).toContain("Panadería del Sol");
    // the session survives a reload (the refresh cookie came with the sign-up's answer)
    await page.reload();
    await page.getByTestId("greeting").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("greeting").textContent()).toContain("Panadería del Sol");
    await context.close();

    // the same company name again is refused in the catalogue's words, beside the field and in a toast
    const again = await newPage(browser);
    await again.page.goto(`${server.url}/signup`);
    await again.page.getByTestId("signup-form").waitFor();
    await input(again.page, "signup-company").fill("Panadería del Sol");
    await input(again.page, "signup-name").fill("Otra Persona");
    await input(again.page, "signup-email").fill("otra@panaderia.example");
    await input(again.page, "signup-password").fill("otra-clave-2026");
    await again.page.getByTestId("signup-submit").click();
    await again.page.getByTestId("signup-form").getByText("Ya existe una empresa con este nombre.").waitFor();
    expect(new URL(again.page.url()).pathname).toBe("/signup");
    await again.context.close();
  });
});
