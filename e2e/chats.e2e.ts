import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

/*
 * Issue 28, internal chat: two users of one company chatting from two browsers, the unread counts and
 * the top bar's bell following live, a colleague outside the chat seeing none of it.
 */

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const shots = process.env.E2E_SHOTS_DIR;
const ANA = { name: "Ana Turnos", email: "ana.chat@e2e.test", password: "ana-chat-123" };
const BETO = { name: "Beto Guardia", email: "beto.chat@e2e.test", password: "beto-chat-123" };
const CARO = { name: "Caro Fuera", email: "caro.chat@e2e.test", password: "caro-chat-123" };

const bellCount = (page: Page) => page.getByTestId("bell-internal-chat").getAttribute("data-count");
/** The message box: a textarea that grows with the text. */
const composer = (page: Page) => page.locator('textarea[data-testid="chat-input"]');
const messages = (page: Page) => page.getByTestId("chat-message").allTextContents();

async function signIn(person: { email: string; password: string }, width?: number, height?: number): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  await loginThroughUi(page, server.url, person.email, person.password);
  await page.getByTestId("bell-internal-chat").waitFor({ timeout: 15_000 });
  await waitForLive(page);
  return page;
}

describe("internal chat", () => {
  it("two users chat live: unread counts, the bell and the open chat follow; an outsider sees nothing", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    for (const person of [ANA, BETO, CARO]) await api(server.url, "POST", "/users", { ...person, profile: "user" }, admin);

    const ana = await signIn(ANA, 1366, 768);
    const beto = await signIn(BETO, 390, 844);
    const caro = await signIn(CARO);
    expect(await bellCount(beto)).toBe("0");

    // Ana opens the page from the menu and creates the chat; the dialog's two alerts come first
    await ana.getByTestId("menu-chats").click();
    await ana.waitForURL(/\/chats$/);
    await ana.getByTestId("chat-new").click();
    await ana.getByTestId("chat-dialog").waitFor();
    await ana.getByTestId("chat-dialog-save").click();
    await expect
      .poll(() => ana.getByTestId("chat-dialog-alert").textContent())
      .toBe("Por favor complete el título de la conversación.");
    await input(ana, "chat-dialog-title").fill("Guardia del sábado");
    await ana.getByTestId("chat-dialog-save").click();
    await expect.poll(() => ana.getByTestId("chat-dialog-alert").textContent()).toBe("Por favor seleccione al menos un usuario.");
    await input(ana, "chat-dialog-users").fill("Beto");
    await ana.getByRole("option", { name: BETO.name }).click();
    await ana.getByTestId("chat-dialog-save").click();
    await ana.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    const uuid = new URL(ana.url()).pathname.split("/").pop() ?? "";
    expect(await ana.getByTestId("chat-title").textContent()).toBe("Guardia del sábado");
    expect(await ana.getByTestId("chat-edit").count()).toBe(1);

    // never blank: spaces leave the button off and Enter sends nothing
    await composer(ana).fill("   ");
    expect(await ana.getByTestId("chat-send").isDisabled()).toBe(true);
    await composer(ana).press("Enter");
    // sent by Enter, then by the button
    await composer(ana).fill("¿Quién cubre el sábado?");
    await composer(ana).press("Enter");
    await expect.poll(() => messages(ana)).toEqual([expect.stringContaining("¿Quién cubre el sábado?")]);
    await composer(ana).fill("Necesito respuesta hoy");
    await ana.getByTestId("chat-send").click();
    await expect.poll(() => messages(ana)).toHaveLength(2);

    // Beto, on another page, sees the bell count both, and the chat in its list
    await expect.poll(() => bellCount(beto)).toBe("2");
    await beto.getByTestId("bell-internal-chat").click();
    await beto.getByTestId("bell-chat").filter({ hasText: "Guardia del sábado" }).click();
    await beto.waitForURL(new RegExp(`/chats/${uuid}$`));
    // 390 px: the tabs, on the messages; opening the chat read it: the bell is back to 0
    await beto.getByTestId("chat-tab-messages").waitFor();
    await expect
      .poll(() => messages(beto))
      .toEqual([expect.stringContaining("¿Quién cubre el sábado?"), expect.stringContaining("Necesito respuesta hoy")]);
    await expect.poll(() => bellCount(beto)).toBe("0");
    // not the owner: no edit or delete
    expect(await beto.getByTestId("chat-edit").count()).toBe(0);
    expect(await beto.getByTestId("chat-delete").count()).toBe(0);
    // the bell's badge scales out for a moment after reaching 0
    if (shots) await beto.waitForTimeout(500);
    if (shots) await beto.screenshot({ path: `${shots}/chats-390.png` });

    // Ana leaves the chat for the list view of another page; Beto answers: her bell and list count it live
    await ana.goto(`${server.url}/chats`);
    await ana.getByTestId("chat-list").waitFor();
    await waitForLive(ana);
    await composer(beto).fill("Yo cubro");
    await beto.getByTestId("chat-send").click();
    const anaItem = ana.locator(`[data-testid="chat-list-item"][data-chat="${uuid}"]`);
    await expect.poll(() => anaItem.getAttribute("data-unreads")).toBe("1");
    await expect.poll(() => bellCount(ana)).toBe("1");
    expect(await anaItem.textContent()).toContain("Yo cubro");
    await anaItem.click();
    await expect.poll(() => messages(ana)).toHaveLength(3);
    await expect.poll(() => bellCount(ana)).toBe("0");
    // while it is open, a new message shows at once and is read at once
    await composer(beto).fill("Confirmado");
    await composer(beto).press("Enter");
    await expect.poll(() => messages(ana)).toHaveLength(4);
    await expect.poll(() => anaItem.getAttribute("data-unreads")).toBe("0");
    await expect.poll(() => bellCount(ana)).toBe("0");
    if (shots) await ana.waitForTimeout(500);
    if (shots) await ana.screenshot({ path: `${shots}/chats-1366.png` });

    // Caro, of the same company but not in the chat: nothing in her bell or list, and its address is not found
    expect(await bellCount(caro)).toBe("0");
    await caro.goto(`${server.url}/chats/${uuid}`);
    await expect.poll(() => caro.getByTestId("chat-pick").textContent()).toBe("Conversación no encontrada");
    expect(await caro.getByTestId("chat-list-item").count()).toBe(0);
    expect(await caro.locator("body").textContent()).not.toContain("Yo cubro");
  });

  it("older messages load on scrolling up, and the owner's rename reaches the other participant live", async () => {
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const owner = { name: "Dora Pasado", email: "dora.chat@e2e.test", password: "dora-chat-123" };
    const guest = { name: "Eli Lector", email: "eli.chat@e2e.test", password: "eli-chat-123" };
    for (const person of [owner, guest]) await api(server.url, "POST", "/users", { ...person, profile: "user" }, admin);
    const users = await api<{ id: number; email: string }[]>(server.url, "GET", "/users/list", undefined, admin);
    const guestId = users.find((u) => u.email === guest.email)?.id;
    // the history is written before Dora signs in (a login ends her other sessions)
    const token = await apiLogin(server.url, owner.email, owner.password);
    const chat = await api<{ id: number; uuid: string }>(
      server.url,
      "POST",
      "/chats",
      { title: "Historial", users: [guestId] },
      token,
    );
    for (let i = 1; i <= 30; i++) await api(server.url, "POST", `/chats/${chat.id}/messages`, { message: `mensaje ${i}` }, token);

    const dora = await signIn(owner, 1366, 768);
    const eli = await signIn(guest);
    await eli.goto(`${server.url}/chats/${chat.uuid}`);
    await dora.goto(`${server.url}/chats/${chat.uuid}`);
    await waitForLive(eli);
    // the newest page first, at the bottom; the top is far enough that nothing more loads yet
    await expect.poll(() => messages(dora)).toHaveLength(20);
    expect((await messages(dora))[19]).toContain("mensaje 30");
    await dora.waitForTimeout(1000);
    expect(await messages(dora)).toHaveLength(20);
    await dora.getByTestId("chat-message").first().scrollIntoViewIfNeeded();
    await expect.poll(() => messages(dora)).toHaveLength(30);
    expect((await messages(dora))[0]).toContain("mensaje 1");

    // the owner renames it; Eli's open chat and list follow without a reload
    await dora.getByTestId("chat-edit").click();
    await input(dora, "chat-dialog-title").fill("Historial completo");
    await dora.getByTestId("chat-dialog-save").click();
    await expect.poll(() => eli.getByTestId("chat-title").textContent()).toBe("Historial completo");
    await expect.poll(() => eli.getByTestId("chat-list-item").first().textContent()).toContain("Historial completo");

    // deleted by its owner, after a confirmation: gone from Eli's screen at once
    await dora.getByTestId("chat-delete").click();
    await dora.getByTestId("confirm-ok").click();
    await dora.waitForURL(/\/chats$/);
    await expect.poll(() => eli.getByTestId("chat-pick").textContent()).toBe("Conversación no encontrada");
    expect(await eli.getByTestId("chat-list-item").count()).toBe(0);
  });
});
