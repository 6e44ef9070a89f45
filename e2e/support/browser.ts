import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's chromium, headless, with the flags this machine kind needs (no sandbox as root, no network chatter). */
export async function launch(): Promise<Browser> {
  if (!existsSync(executablePath)) throw new Error(`chromium not found at ${executablePath} (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function newPage(browser: Browser, width = 1280, height = 800): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, locale: "es-MX" });
  const page = await context.newPage();
  return { context, page };
}

/** The input carrying a test id itself, or the input inside the element that does. */
export const input = (page: Page, testId: string) =>
  page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

export async function loginThroughUi(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/login`);
  await input(page, "login-email").fill(email);
  await input(page, "login-password").fill(password);
  await page.getByTestId("login-submit").click();
}

/**
 * Waits until the page's socket is connected (`<html data-socket="connected">`): the server has put it
 * in its company, user and session rooms by then, so live events from here on reach the page.
 */
export async function waitForLive(page: Page, timeout = 15_000): Promise<void> {
  await page.locator('html[data-socket="connected"]').waitFor({ state: "attached", timeout });
}
