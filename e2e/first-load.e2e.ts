import type { Browser, Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Connection = { id: number; isDefault: boolean };
type Inbound = { ticketId: number | null };

// The customers' messages go through a second admin: a login ends the user's other sessions.
const HELPER = { name: "Admin Carga", email: "carga@e2e.test", password: "carga-123" };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function helperAndConnection(): Promise<{ helper: string; whatsappId: number }> {
  const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
  await api(server.url, "POST", "/users", { ...HELPER, profile: "admin" }, admin).catch(() => undefined);
  const helper = await apiLogin(server.url, HELPER.email, HELPER.password);
  const connections = await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, helper);
  return { helper, whatsappId: (connections.find((c) => c.isDefault) ?? connections[0]).id };
}

const pendingCount = async (page: Page) => Number((await page.getByTestId("tickets-count-pending").textContent())?.trim());
// the pending tab's own list (the bell's list of unread ones is another)
const isPendingList = (request: Request) => {
  const url = new URL(request.url());
  return (
    request.method() === "GET" &&
    url.pathname === "/api/v1/tickets" &&
    url.searchParams.get("status") === "pending" &&
    !url.searchParams.has("withUnreadMessages")
  );
};

describe("the inbox's first load", () => {
  it("a reload reads its lists once, after the socket joined, and still follows what happens next", async () => {
    const { helper, whatsappId } = await helperAndConnection();
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await waitForLive(page);

    let pendingReads = 0;
    page.on("request", (request) => {
      if (isPendingList(request)) pendingReads += 1;
    });
    await page.reload();
    await page.getByTestId("tickets-list").waitFor();
    await waitForLive(page);
    const before = await pendingCount(page);

    // an event sent after the join arrives after whatever the join set off (a second read included)
    await api<Inbound>(
      server.url,
      "POST",
      `/simulator/${whatsappId}/inbound`,
      {
        number: "5215500000901",
        name: "Cliente Recarga",
        body: "Hola tras recargar",
      },
      helper,
    );
    await expect.poll(() => pendingCount(page), { timeout: 15_000 }).toBe(before + 1);
    expect(pendingReads).toBe(1);
    await context.close();
  });

  it("a reload connects the socket with the stored token while the token refresh is still on its way", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await waitForLive(page);

    // the refresh is answered only once the socket has asked for its handshake (or after a while)
    let socketAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      socketAsked = resolve;
    });
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/socket.io/")) socketAsked();
    });
    let socketBeforeRefresh: boolean | null = null;
    await page.route("**/api/v1/auth/refresh_token", async (route) => {
      socketBeforeRefresh = await Promise.race([
        asked.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
      ]);
      await route.continue();
    });
    await page.reload();
    await page.getByTestId("tickets-list").waitFor();
    await waitForLive(page);
    expect(socketBeforeRefresh).toBe(true);
    await context.close();
  });

  it("a stored token the server no longer takes: the socket joins with the refreshed one and the lists stay live", async () => {
    const { helper, whatsappId } = await helperAndConnection();
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await waitForLive(page);
    // as after a change of the server's signing key: the access token is refused, the refresh cookie is good
    await page.evaluate(() => {
      const [header, payload] = JSON.parse(localStorage.getItem("token") ?? '""').split(".");
      localStorage.setItem("token", JSON.stringify(`${header}.${payload}.signed-with-another-key`));
    });
    // the refresh is answered once the socket's handshake with that token was refused (or after a while)
    let refusedSeen: () => void = () => undefined;
    const refused = new Promise<void>((resolve) => {
      refusedSeen = resolve;
    });
    page.on("response", async (response) => {
      if (!new URL(response.url()).pathname.startsWith("/socket.io/")) return;
      const body = await response.text().catch(() => "");
      if (body.includes("ERR_SESSION_EXPIRED")) refusedSeen();
    });
    await page.route("**/api/v1/auth/refresh_token", async (route) => {
      await Promise.race([refused, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await route.continue();
    });
    // the reloaded page's read, not a last one of the page being left (its body goes with that page)
    let reloaded = false;
    page.once("framenavigated", () => {
      reloaded = true;
    });
    const pendingRead = page.waitForResponse((response) => reloaded && isPendingList(response.request()) && response.ok());
    await page.reload();
    await page.getByTestId("tickets-list").waitFor();
    await waitForLive(page);
    // the count the pending list answered, once it shows (the tab says 0 until then)
    const before = ((await (await pendingRead).json()) as { count: number }).count;
    await expect.poll(() => pendingCount(page), { timeout: 15_000 }).toBe(before);
    await api<Inbound>(
      server.url,
      "POST",
      `/simulator/${whatsappId}/inbound`,
      { number: "5215500000903", name: "Cliente Token Viejo", body: "Hola con token viejo" },
      helper,
    );
    await expect.poll(() => pendingCount(page), { timeout: 15_000 }).toBe(before + 1);
    await context.close();
  });

  it("a list read before the socket joined is read again at the join: what happened in between shows", async () => {
    const { helper, whatsappId } = await helperAndConnection();
    const { context, page } = await newPage(browser);
    // the socket's handshake waits until the customer below has written
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/socket.io/**", async (route) => {
      await held;
      await route.continue();
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.getByTestId("tickets-list").waitFor();
    await expect.poll(() => pendingCount(page), { timeout: 15_000 }).not.toBeNaN();
    const before = await pendingCount(page);

    // no socket yet: this ticket's event reaches no one, only the read at the join can show it
    await api<Inbound>(
      server.url,
      "POST",
      `/simulator/${whatsappId}/inbound`,
      {
        number: "5215500000902",
        name: "Cliente Sin Socket",
        body: "Hola antes del socket",
      },
      helper,
    );
    release();
    await waitForLive(page);
    await expect.poll(() => pendingCount(page), { timeout: 15_000 }).toBe(before + 1);
    await context.close();
  });
});
