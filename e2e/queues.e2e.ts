import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { setUpTwoLevelBot } from "./support/chatbot.js";
import { setUpSimulator } from "./support/simulator.js";
import { withServerAndBrowser } from "./support/suite.js";

type Queue = { id: number; name: string; color: string; schedules: { weekdayEn: string; startTime: string; endTime: string }[] };
type Option = { id: number; title: string; option: string; childrenCount: number };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const bodyText = (page: Page) => page.locator("body").textContent();
const row = (page: Page, name: string) => page.getByTestId("queues-row").filter({ hasText: name });

async function setSetting(token: string, key: string, value: string) {
  await api(server.url, "PUT", `/settings/${key}`, { value }, token);
}

describe("areas page", () => {
  it("admin creates an area with a two-level option tree, edits and deletes options, and the hours tab follows scheduleType", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await setSetting(token, "scheduleType", "queue");
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-queues").click();
    await page.waitForURL(/\/queues$/);
    await page.getByTestId("queues-table").waitFor();

    // a new area: name, a preset colour, a greeting, and its chatbot options before its first save
    await page.getByTestId("queues-add").click();
    const modal = page.getByTestId("queue-modal");
    await modal.waitFor();
    await input(page, "queue-name").fill("V");
    await page.getByTestId("queue-color-palette").nth(3).click();
    expect(await input(page, "queue-color").inputValue()).toBe("#008B02");
    await page.getByTestId("queue-option-add").click();
    const titles = page.locator('input[data-testid="queue-option-title"]');
    await titles.first().waitFor();
    // an option just started is not an error yet, and the dialog has one Cancel / Save pair: its own
    expect(await titles.first().getAttribute("aria-invalid")).toBe("false");
    expect(await modal.textContent()).not.toContain("Requerido");
    expect(await modal.getByRole("button", { name: /^(cancelar|guardar|agregar)$/i }).count()).toBe(2);
    await page.getByTestId("queue-modal-save").click();
    // the contract's check, beside the field, before anything is sent
    await modal.getByText("¡Demasiado corto!").first().waitFor();
    await input(page, "queue-name").fill("Ventas");
    await page.getByTestId("queue-greetingMessage").fill("¡Hola {{firstName}}! Bienvenido a Ventas.");
    // submitted with the option's title still empty: now it says so, and nothing is saved
    await page.getByTestId("queue-modal-save").click();
    await expect.poll(() => titles.first().getAttribute("aria-invalid")).toBe("true");
    expect(await modal.textContent()).toContain("Requerido");
    const before = await api<Queue[]>(server.url, "GET", "/queue", undefined, await pageToken(page));
    expect(before.map((q) => q.name)).not.toContain("Ventas");
    await titles.first().fill("Precios");
    await page.locator('textarea[data-testid="queue-option-message"]').first().fill("Elija una línea:");
    await page.getByTestId("queue-option-add").click();
    await titles.nth(1).fill("Envíos");
    await page.getByTestId("queue-modal-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Área guardada con éxito.");
    await expect.poll(() => modal.count(), { timeout: 10_000 }).toBe(0);
    await row(page, "Ventas").waitFor();

    // editing the saved area: a sub-option under Precios and a new title for Envíos, saved by the same Save
    await row(page, "Ventas").getByTestId("queue-edit").click();
    await page.getByTestId("queue-option-name").filter({ hasText: "Envíos" }).waitFor();
    const precios = page.getByTestId("queue-option").filter({ hasText: "Precios" }).first();
    await precios.getByTestId("queue-option-add-child").first().click();
    await titles.first().fill("Mayoristas");
    const envios = page.getByTestId("queue-option").filter({ hasText: "Envíos" }).first();
    await envios.getByTestId("queue-option-edit").click();
    await titles.nth(1).fill("Envíos y entregas");
    await page.getByTestId("queue-modal-save").click();
    await expect.poll(() => modal.count(), { timeout: 10_000 }).toBe(0);

    const queue = (await api<Queue[]>(server.url, "GET", "/queue", undefined, await pageToken(page))).find(
      (q) => q.name === "Ventas",
    );
    expect(queue?.color).toBe("#008B02");
    const roots = await api<Option[]>(
      server.url,
      "GET",
      `/queue-options?queueId=${queue?.id}&parentId=-1`,
      undefined,
      await pageToken(page),
    );
    expect(roots.map((o) => [o.option, o.title, o.childrenCount])).toEqual([
      ["1", "Precios", 1],
      ["2", "Envíos y entregas", 0],
    ]);

    // the tree built here, walked by a customer from the Simulator page (one area: routed at once)
    const setUpToken = await pageToken(page);
    await setSetting(setUpToken, "scheduleType", "disabled");
    if (!queue) throw new Error("no area");
    await setUpSimulator(server.url, setUpToken, { queueIds: [queue.id] });
    await page.getByTestId("menu-simulator").click();
    await page.getByTestId("simulator-thread").waitFor();
    await input(page, "simulator-number").fill("5215566667777");
    const say = async (text: string) => {
      await page.getByTestId("simulator-body").fill(text);
      await page.getByTestId("simulator-send").click();
    };
    const botSaid = (text: string) =>
      expect
        .poll(async () => (await page.getByTestId("simulator-out").allTextContents()).join("\n"), { timeout: 15_000 })
        .toContain(text);
    await say("Hola");
    await botSaid("Bienvenido a Ventas.");
    await botSaid("[ 2 ] - Envíos y entregas");
    await say("1");
    await botSaid("Elija una línea:");
    await botSaid("[ 1 ] - Mayoristas");
    // back to the area's modal, with scheduleType = queue again for its hours tab
    await setSetting(setUpToken, "scheduleType", "queue");
    await page.getByTestId("menu-queues").click();
    await row(page, "Ventas").getByTestId("queue-edit").click();
    await page.getByTestId("queue-option-name").filter({ hasText: "Precios" }).waitFor();

    // deleting the first renumbers the rest
    await precios.getByTestId("queue-option-delete").first().click();
    await page.getByTestId("confirm-ok").click();
    await expect
      .poll(async () => (await page.getByTestId("queue-option-label").allTextContents()).join(" "), { timeout: 10_000 })
      .toBe("[1]");

    // the hours tab (scheduleType = queue): Monday closes earlier
    await page.getByTestId("queue-tab-hours").click();
    await input(page, "queue-schedules-monday-end").fill("1630");
    expect(await input(page, "queue-schedules-monday-end").inputValue()).toBe("16:30");
    await page.getByTestId("queue-modal-save").click();
    await expect.poll(async () => page.getByTestId("queue-modal").count(), { timeout: 10_000 }).toBe(0);
    const saved = (await api<Queue[]>(server.url, "GET", "/queue", undefined, await pageToken(page))).find(
      (q) => q.name === "Ventas",
    );
    expect(saved?.schedules.find((s) => s.weekdayEn === "monday")).toMatchObject({ startTime: "08:00", endTime: "16:30" });

    // without scheduleType = queue there is no hours tab
    await setSetting(await pageToken(page), "scheduleType", "company");
    await row(page, "Ventas").getByTestId("queue-edit").click();
    await page.getByTestId("queue-modal").waitFor();
    await input(page, "queue-name").waitFor();
    expect(await page.getByTestId("queue-tab-hours").count()).toBe(0);
    await page.getByTestId("queue-modal-cancel").click();

    // …and the company's hours are in Settings instead
    await page.getByTestId("menu-settings").click();
    await page.getByTestId("settings-tab-schedules").click();
    await input(page, "company-schedules-week-saturday-end").fill("1300");
    await page.getByTestId("company-schedules-save").click();
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("Horarios actualizados exitosamente.");

    // the area is deleted after its confirmation
    await page.getByTestId("menu-queues").click();
    await row(page, "Ventas").getByTestId("queue-delete").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => row(page, "Ventas").count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });
  it("a new area's colour is one no other area uses, even when the areas arrive after the dialog opened; taken ones are marked", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "POST", "/queue", { name: "Ocupa el rojo", color: "#B80000" }, token);
    await api(server.url, "POST", "/queue", { name: "Ocupa el naranja", color: "#DB3E00" }, token);
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("greeting").waitFor();
    // the areas are held back until the dialog is open (a slow network, or a click before they came)
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname === "/api/v1/queue",
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`${server.url}/queues`);
    await page.getByTestId("queues-add").click();
    await page.getByTestId("queue-modal").waitFor();
    release();
    await row(page, "Ocupa el naranja").waitFor({ timeout: 15_000 });
    await expect.poll(() => input(page, "queue-color").inputValue()).toBe("#FCCB00");
    const taken = page.locator('[data-testid="queue-color-palette"][data-taken="true"]');
    expect(await taken.count()).toBe(2);
    expect(await taken.first().getAttribute("aria-label")).toBe("#B80000 (ya en uso)");
    // a colour the user picks stays theirs
    await page.getByTestId("queue-color-palette").nth(5).click();
    expect(await input(page, "queue-color").inputValue()).toBe("#1273DE");
    await page.getByTestId("queue-modal-cancel").click();
    await context.close();
  });

  it("a customer walks a two-level option tree from the Simulator page: list, wrong answer, option, back, leaf", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await setSetting(token, "scheduleType", "disabled");
    await setUpTwoLevelBot(server.url, token, {
      welcome: "¡Bienvenido! Elija un área:",
      ventas: "Ventas Bot",
      soporte: "Soporte Bot",
      ventasGreeting: "Ventas, ¿qué busca?",
      precios: "Nuestras líneas:",
      leaf: "Le escribe un asesor mayorista.",
    });

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByTestId("menu-simulator").click();
    await page.getByTestId("simulator-thread").waitFor();
    await input(page, "simulator-number").fill("5215577778888");
    const say = async (text: string) => {
      await page.getByTestId("simulator-body").fill(text);
      await page.getByTestId("simulator-send").click();
    };
    const botSaid = (text: string) =>
      expect
        .poll(async () => (await page.getByTestId("simulator-out").allTextContents()).join("\n"), { timeout: 15_000 })
        .toContain(text);

    await say("Hola");
    await botSaid("¡Bienvenido! Elija un área:");
    await botSaid("[ 1 ] - Ventas Bot");
    await say("7");
    await expect
      .poll(
        async () => (await page.getByTestId("simulator-out").allTextContents()).filter((t) => t.includes("Elija un área")).length,
        { timeout: 15_000 },
      )
      .toBe(2);
    await say("1");
    await botSaid("Ventas, ¿qué busca?");
    await botSaid("[ 1 ] - Precios");
    await say("1");
    await botSaid("Nuestras líneas:");
    await botSaid("[ 1 ] - Mayoristas");
    await say("0");
    await expect
      .poll(
        async () =>
          (await page.getByTestId("simulator-out").allTextContents()).filter((t) => t.includes("[ 1 ] - Precios")).length,
        { timeout: 15_000 },
      )
      .toBe(2);
    await say("1");
    await say("1");
    await botSaid("Le escribe un asesor mayorista.");
    await context.close();
  });
});

/** After the browser logged in, the set-up's API token is gone (one session per user): use the page's. */
async function pageToken(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem("token") ?? '""') as string);
}
