import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

const AGENT = { name: "Agente Etiquetas", email: "agente-tags@e2e.test", password: "agente-123" };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const row = (page: Page, name: string) => page.getByTestId("tags-row").filter({ hasText: name });
const bodyText = (page: Page) => page.locator("body").textContent();

describe("tags page", () => {
  it("admin adds a Kanban tag through the modal's checks, finds it, and an agent sees it change live", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "POST", "/users", { ...AGENT, profile: "user" }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-tags").click();
    await page.getByTestId("tags-table").waitFor();

    await page.getByTestId("tags-add").click();
    await page.getByTestId("tag-modal-save").click();
    await page.getByTestId("tag-modal").getByText("Obligatorio").first().waitFor();
    await input(page, "tag-name").fill("VI");
    await page.getByTestId("tag-modal-save").click();
    await page.getByTestId("tag-modal").getByText("Mensaje muy corto").first().waitFor();
    await input(page, "tag-name").fill("Cliente VIP");
    await page.getByTestId("tag-color-palette").nth(5).click();
    await page.getByTestId("tag-kanban").check();
    await page.getByTestId("tag-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Etiqueta guardada con éxito.");
    await row(page, "Cliente VIP").waitFor();
    expect(await row(page, "Cliente VIP").textContent()).toContain("Carril en el Kanban");

    // an agent: no Kanban toggle, and the admin's rename arrives live
    const agent = await newPage(browser);
    await loginThroughUi(agent.page, server.url, AGENT.email, AGENT.password);
    await agent.page.getByTestId("menu-tags").click();
    await row(agent.page, "Cliente VIP").waitFor();
    await row(agent.page, "Cliente VIP").getByTestId("tag-edit").click();
    await input(agent.page, "tag-name").waitFor();
    expect(await agent.page.getByTestId("tag-kanban").count()).toBe(0);
    await agent.page.getByTestId("tag-modal-cancel").click();

    await row(page, "Cliente VIP").getByTestId("tag-edit").click();
    await input(page, "tag-name").fill("Cliente Oro");
    await page.getByTestId("tag-modal-save").click();
    await row(agent.page, "Cliente Oro").waitFor({ timeout: 10_000 });

    // search, then delete after the confirmation
    await page.getByTestId("tags-search").fill("oro");
    await expect.poll(() => page.getByTestId("tags-row").count(), { timeout: 10_000 }).toBe(1);
    await row(page, "Cliente Oro").getByTestId("tag-delete").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => row(agent.page, "Cliente Oro").count(), { timeout: 10_000 }).toBe(0);
    await agent.context.close();
    await context.close();
  });
});
