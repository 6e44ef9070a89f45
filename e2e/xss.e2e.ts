import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

// Every script-injection payload of the shared corpus (copied to fixtures/ so the suite runs anywhere)
// short enough for a name (2–50 characters) becomes a user name and a company name; the shell must
// show them as text and no dialog may open.
const payloads = readFileSync(new URL("./fixtures/xss-payloads.txt", import.meta.url), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l.length >= 2 && l.length <= 50);

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe("script injection in names", () => {
  it("shows user and company names carrying payloads as text, with no script run", async () => {
    expect(payloads.length).toBeGreaterThan(20);
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const plan = (await api<{ id: number; name: string }[]>(server.url, "GET", "/plans/list"))[0];
    await api(server.url, "PUT", `/plans/${plan.id}`, { name: plan.name, users: 200 }, token);
    await api(server.url, "PUT", "/companies/1", { name: payloads[1] }, token);
    for (const [i, name] of payloads.entries()) {
      await api(server.url, "POST", "/users", { name, email: `xss${i}@e2e.test`, password: "xss-pass", profile: "user" }, token);
    }

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
      window.prompt = window.alert as typeof window.prompt;
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await expect.poll(() => page.getByTestId("greeting").textContent(), { timeout: 15_000 }).toContain(payloads[1]);
    await page.getByTestId("menu-users").click();
    await page.getByTestId("users-row").first().waitFor();
    const firstPage = await page.getByTestId("users-table").textContent();
    const shown = payloads.filter((p) => firstPage?.includes(p));
    expect(shown.length).toBeGreaterThan(10);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    expect(dialogs).toEqual([]);
    // no payload turned into markup of its own
    expect(await page.locator("[data-testid=users-table] svg[onload], [data-testid=users-table] img[onerror]").count()).toBe(0);

    const agent = await newPage(browser);
    await loginThroughUi(agent.page, server.url, "xss3@e2e.test", "xss-pass");
    await expect.poll(() => agent.page.getByTestId("greeting").textContent(), { timeout: 15_000 }).toContain(payloads[3]);
    await context.close();
    await agent.context.close();
  });
});
