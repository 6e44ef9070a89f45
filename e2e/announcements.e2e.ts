import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { tinyPng } from "./support/png.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const shots = process.env.E2E_SHOTS_DIR;
const bodyText = (page: Page) => page.locator("body").textContent();
const bellCount = (page: Page) => page.getByTestId("bell-announcements").getAttribute("data-count");
const READER = { email: "lectora@e2e.test", password: "lectora-123" };

/** After the browser logged in, the set-up's API token is gone (one session per user): ask through the page. */
function pageApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const token = JSON.parse(localStorage.getItem("token") ?? '""') as string;
    const res = await fetch(`/api/v1${p}`, { headers: { authorization: `Bearer ${token}` } });
    return res.json();
  }, path) as Promise<T>;
}

describe("announcements", () => {
  it("a super admin's announcement appears live in another company's bell and is marked read from the reader", async () => {
    // another company, whose admin is no super user
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const plan = await api<{ id: number }>(server.url, "POST", "/plans", { name: "Lectores" }, admin);
    const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await api(server.url, "POST", "/companies", { name: "Lectores SA", ...READER, planId: plan.id, dueDate }, admin);

    const reader = await newPage(browser, 1366, 800);
    await loginThroughUi(reader.page, server.url, READER.email, READER.password);
    await reader.page.getByTestId("bell-announcements").waitFor({ timeout: 15_000 });
    // secondary §6, §8: not theirs to manage: told, then sent to / after a second
    expect(await reader.page.getByTestId("menu-announcements").count()).toBe(0);
    await reader.page.goto(`${server.url}/announcements`);
    await expect
      .poll(() => bodyText(reader.page), { timeout: 10_000 })
      .toContain("¡Esta empresa no tiene permiso para acceder a esta página! Te estamos redirigiendo.");
    await expect.poll(() => new URL(reader.page.url()).pathname, { timeout: 5_000 }).toBe("/");
    expect(await reader.page.getByTestId("announcements-table").count()).toBe(0);
    await waitForLive(reader.page);
    expect(await bellCount(reader.page)).toBe("0");

    // the super admin writes one through the dialog, with an image
    const writer = await newPage(browser, 1366, 800);
    await loginThroughUi(writer.page, server.url, ADMIN.email, ADMIN.password);
    await writer.page.getByTestId("menu-announcements").click();
    await writer.page.waitForURL(/\/announcements$/);
    await writer.page.getByTestId("announcements-table").waitFor();
    await writer.page.getByTestId("announcements-add").click();
    await writer.page.getByTestId("announcement-modal").waitFor();
    // secondary §5: title and text are required, said beside the fields before anything is sent
    await writer.page.getByTestId("announcement-modal-save").click();
    await writer.page.getByTestId("announcement-modal").getByText("Requerido").first().waitFor();
    await input(writer.page, "announcement-title").fill("Mantenimiento programado");
    await writer.page.getByTestId("announcement-text").fill("El domingo a las 02:00 la plataforma estará en mantenimiento.");
    await writer.page.getByTestId("announcement-priority").click();
    await writer.page.getByTestId("announcement-priority-1").click();
    await writer.page.getByTestId("announcement-priority-1").waitFor({ state: "detached" });
    await writer.page
      .getByTestId("announcement-file")
      .setInputFiles({ name: "aviso.png", mimeType: "image/png", buffer: tinyPng() });
    expect(await writer.page.getByTestId("announcement-media-name").textContent()).toBe("aviso.png");
    if (shots) await writer.page.screenshot({ path: `${shots}/announcement-dialog-1366.png` });
    await writer.page.getByTestId("announcement-modal-save").click();
    await writer.page.getByTestId("announcement-modal").waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => bodyText(writer.page), { timeout: 10_000 }).toContain("Informativo guardado con éxito.");
    const row = writer.page.getByTestId("announcements-row").filter({ hasText: "Mantenimiento programado" });
    await row.waitFor();
    expect(await row.textContent()).toContain("Alta");
    if (shots) await writer.page.screenshot({ path: `${shots}/announcements-1366.png` });

    // live in the other company's bell, unread
    await expect.poll(() => bellCount(reader.page), { timeout: 10_000 }).toBe("1");
    await reader.page.getByTestId("bell-announcements").click();
    const item = reader.page.getByTestId("bell-announcement").filter({ hasText: "Mantenimiento programado" });
    await item.waitFor();
    expect(await item.getAttribute("data-read")).toBe("false");
    if (shots) await reader.page.waitForTimeout(400);
    if (shots) await reader.page.screenshot({ path: `${shots}/announcements-bell-1366.png` });
    await item.click();
    const dialog = reader.page.getByTestId("announcement-reader");
    await dialog.waitFor();
    expect(await reader.page.getByTestId("announcement-reader-title").textContent()).toBe("Mantenimiento programado");
    expect(await reader.page.getByTestId("announcement-reader-text").textContent()).toContain("estará en mantenimiento");
    expect(await dialog.textContent()).toContain("Alta");
    await reader.page.getByTestId("announcement-reader-image").waitFor({ timeout: 10_000 });
    // the dialog's fade-in ends before the picture is taken
    if (shots) await reader.page.waitForTimeout(400);
    if (shots) await reader.page.screenshot({ path: `${shots}/announcement-reader-1366.png` });
    await reader.page.getByTestId("announcement-reader-close").click();
    await dialog.waitFor({ state: "detached" });

    // read: the count drops, here and on the server
    await expect.poll(() => bellCount(reader.page), { timeout: 10_000 }).toBe("0");
    const mine = await pageApi<{ unread: number; records: { title: string; read: boolean }[] }>(
      reader.page,
      "/announcements/for-me",
    );
    expect(mine.unread).toBe(0);
    expect(mine.records).toMatchObject([{ title: "Mantenimiento programado", read: true }]);

    // 390 px: the list and the bell still fit
    await writer.page.setViewportSize({ width: 390, height: 844 });
    await reader.page.setViewportSize({ width: 390, height: 844 });
    await row.waitFor();
    const overflow = await writer.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    if (shots) await writer.page.screenshot({ path: `${shots}/announcements-390.png` });
    await reader.page.getByTestId("bell-announcements").click();
    await reader.page.getByTestId("bell-announcement").first().waitFor();
    if (shots) await reader.page.waitForTimeout(400);
    if (shots) await reader.page.screenshot({ path: `${shots}/announcements-bell-390.png` });
    await reader.page.getByTestId("bell-announcement").first().click();
    await dialog.waitFor();
    if (shots) await reader.page.waitForTimeout(400);
    if (shots) await reader.page.screenshot({ path: `${shots}/announcement-reader-390.png` });
    await reader.page.getByTestId("announcement-reader-close").click();
    await dialog.waitFor({ state: "detached" });

    // made inactive by the super admin: it leaves the other company's bell live
    await row.getByTestId("announcement-edit").click();
    await writer.page.getByTestId("announcement-modal").waitFor();
    await input(writer.page, "announcement-status").uncheck();
    if (shots) await writer.page.screenshot({ path: `${shots}/announcement-dialog-390.png` });
    await writer.page.getByTestId("announcement-modal-save").click();
    await writer.page.getByTestId("announcement-modal").waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain("Inactivo");
    await reader.page.getByTestId("bell-announcements").click();
    await reader.page.getByTestId("bell-announcements-empty").waitFor({ timeout: 10_000 });
    await reader.page.keyboard.press("Escape");
    await reader.context.close();
    await writer.context.close();
  });
});
