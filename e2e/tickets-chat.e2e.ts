import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loginThroughUi, newPage } from "./support/browser.js";
import { tinyPng } from "./support/png.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type Connection = { id: number; provider?: string };
type InboundResult = { ticketId: number; messageId: number };
type Outbound = { id: number; body: string; mediaType: string; ack: number };

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const payloads = readFileSync(new URL("./fixtures/xss-payloads.txt", import.meta.url), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line.length > 0);

async function simulatorOf(token: string): Promise<number> {
  const list = await api<Connection[]>(server.url, "GET", "/whatsapp", undefined, token);
  const simulator = list.find((wa) => wa.provider === "simulator") ?? list[0];
  return simulator.id;
}

/** After the browser logged in, the API token of the set-up is gone (one session per user): ask through the page. */
function pageApi<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const token = JSON.parse(localStorage.getItem("token") ?? '""') as string;
    const res = await fetch(`/api/v1${p}`, { headers: { authorization: `Bearer ${token}` } });
    return res.json();
  }, path) as Promise<T>;
}

async function openTicket(page: Page, uuid: string) {
  await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
  await page.waitForURL(/\/tickets/);
  await page.goto(`${server.url}/tickets/${uuid}`);
  await page.getByTestId("chat-header").waitFor({ timeout: 15_000 });
}

const fromMe = (page: Page) => page.locator('[data-testid="message"][data-from-me="true"]');

describe("tickets chat", () => {
  it("accepts, answers with text and a picture, sees the acks, adds a note and resolves", async () => {
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const wa = await simulatorOf(token);
    const number = "5215511112222";
    const inbound = await api<InboundResult>(
      server.url,
      "POST",
      `/simulator/${wa}/inbound`,
      { number, name: "Cliente Chat", body: "Hola, necesito *ayuda* con mi pedido" },
      token,
    );
    const ticket = await api<{ id: number; uuid: string; status: string }>(
      server.url,
      "GET",
      `/tickets/${inbound.ticketId}`,
      undefined,
      token,
    );
    expect(ticket.status).toBe("pending");

    const { context, page } = await newPage(browser);
    await openTicket(page, ticket.uuid);
    const incoming = page.locator('[data-testid="message"][data-from-me="false"]');
    await incoming.first().waitFor();
    expect(await incoming.first().locator("strong").textContent()).toBe("ayuda");
    expect(await page.getByTestId("composer-input").count()).toBe(0);

    // accept: the ticket stays open on screen and the composer appears
    await page.getByTestId("chat-accept").click();
    await expect.poll(() => page.getByTestId("chat").getAttribute("data-status"), { timeout: 10_000 }).toBe("open");
    expect(page.url()).toContain(`/tickets/${ticket.uuid}`);
    await page.getByTestId("composer-input").waitFor();

    // a text (Enter sends), then a picture; the contact's phone is told the agent is typing, then not
    const typing = page.waitForRequest(
      (r) => r.url().endsWith(`/messages/${ticket.id}/typing`) && r.postDataJSON()?.typing === true,
    );
    await page.getByTestId("composer-input").fill("Con gusto le ayudo");
    expect((await typing).method()).toBe("POST");
    const stopped = page.waitForRequest(
      (r) => r.url().endsWith(`/messages/${ticket.id}/typing`) && r.postDataJSON()?.typing === false,
    );
    await page.getByTestId("composer-input").press("Enter");
    await stopped;
    await fromMe(page).filter({ hasText: "Con gusto le ayudo" }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("composer-input").inputValue()).toBe("");

    await page.getByTestId("composer-attach").setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: tinyPng() });
    await page.getByTestId("composer-file").waitFor();
    await page.getByTestId("composer-send").click();
    await fromMe(page).locator('[data-testid="message-image"]').waitFor({ timeout: 15_000 });

    // both reached the customer's phone, and its delivery receipts come back live: two grey ticks (3)
    const outbound = await pageApi<Outbound[]>(page, `/simulator/${wa}/outbound?number=${number}`);
    expect(outbound.some((m) => m.mediaType === "chat" && m.body.includes("Con gusto le ayudo"))).toBe(true);
    expect(outbound.some((m) => m.mediaType === "image")).toBe(true);
    await expect
      .poll(async () => (await fromMe(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-ack")))).join(","), {
        timeout: 10_000,
      })
      .toBe("3,3");

    // a location and a contact card from the clip's menu, shown as a pin and a card on both sides
    await page.getByTestId("composer-attach-menu").click();
    await page.getByTestId("composer-attach-location").click();
    await page.getByTestId("composer-location-dialog").waitFor();
    await page.getByTestId("composer-location-lat").fill("-23,5505");
    await page.getByTestId("composer-location-lng").fill("-46.6333");
    await page.getByTestId("composer-location-description").fill("Sucursal Paulista");
    await page.getByTestId("composer-location-send").click();
    await fromMe(page)
      .locator('[data-testid="location-description"]', { hasText: "Sucursal Paulista" })
      .waitFor({ timeout: 10_000 });
    await page.getByTestId("composer-attach-menu").click();
    await page.getByTestId("composer-attach-contact").click();
    await page.getByTestId("composer-contact-send").click();
    // an empty card is refused in the dialog, with its reason beside the field
    await page.getByTestId("composer-contact-dialog").getByText("Requerido").first().waitFor();
    await page.getByTestId("composer-contact-name").fill("Ana López");
    await page.getByTestId("composer-contact-number").fill("+55 11 99990000");
    await page.getByTestId("composer-contact-send").click();
    await fromMe(page).locator('[data-testid="vcard"]', { hasText: "Ana López" }).waitFor({ timeout: 10_000 });
    const shared = await pageApi<Outbound[]>(page, `/simulator/${wa}/outbound?number=${number}`);
    expect(shared.find((m) => m.mediaType === "locationMessage")?.body).toBe(
      "|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|Sucursal Paulista",
    );
    expect(shared.find((m) => m.mediaType === "vcard")?.body).toContain("waid=551199990000");

    // a note on the contact drawer
    await page.getByTestId("contact-drawer-open").click();
    await page.getByTestId("contact-drawer").waitFor();
    await page.getByTestId("note-input").fill("Cliente frecuente");
    await page.getByTestId("note-save").click();
    await page.getByTestId("note-item").filter({ hasText: "Cliente frecuente" }).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Nota agregada exitosamente!");
    await page.keyboard.press("Escape");
    await page.getByTestId("contact-drawer").waitFor({ state: "detached", timeout: 5_000 });

    // resolve: back to the list
    await page.getByTestId("chat-resolve").click();
    await page.waitForURL(/\/tickets$/, { timeout: 10_000 });
    const closed = await pageApi<{ status: string }>(page, `/tickets/${inbound.ticketId}`);
    expect(closed.status).toBe("closed");
    await context.close();
  });

  it("shows customers' markup as text, with no script run", async () => {
    expect(payloads.length).toBeGreaterThan(30);
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const wa = await simulatorOf(token);
    let ticketId = 0;
    for (const body of payloads) {
      const result = await api<InboundResult>(
        server.url,
        "POST",
        `/simulator/${wa}/inbound`,
        { number: "5215533334444", body },
        token,
      );
      ticketId = result.ticketId;
    }
    const ticket = await api<{ uuid: string }>(server.url, "GET", `/tickets/${ticketId}`, undefined, token);

    const { context, page } = await newPage(browser);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await context.addInitScript(() => {
      const w = window as unknown as { __xss: number };
      w.__xss = 0;
      window.alert = () => {
        w.__xss++;
      };
      window.prompt = window.alert as typeof window.prompt;
    });
    await openTicket(page, ticket.uuid);
    const bubbles = page.getByTestId("message");
    await bubbles.first().waitFor();

    // older pages load as the list is scrolled to the top
    const list = page.getByTestId("chat-messages");
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => {
            el.scrollTop = 0;
          });
          return bubbles.count();
        },
        { timeout: 20_000, interval: 300 },
      )
      .toBe(payloads.length);

    // every payload is there as text (formatting markers consumed, the rest literal)
    const texts = await page.getByTestId("message-text").allTextContents();
    const plain = (s: string) =>
      s
        .replace(/[*_~`]/g, "")
        .replace(/\s+/g, " ")
        .trim();
    for (const payload of payloads) {
      expect(texts.some((text) => plain(text).includes(plain(payload)))).toBe(true);
    }
    expect(texts.some((text) => text.includes("<script>alert(1)//INJECTX"))).toBe(true);
    expect(texts.some((text) => text.includes("<img src=x onerror=prompt(1)>//INJECTX"))).toBe(true);

    // nothing became markup of its own, and the only links are web addresses in a new tab
    const inside = (selector: string) =>
      selector
        .split(",")
        .map((s) => `[data-testid=chat-messages] ${s.trim()}`)
        .join(", ");
    const injected = inside(
      "script, iframe, svg[onload], img[onerror], img[onload], img[src=x], video source, audio source, input, select, textarea, keygen, form, marquee, h1, [onload], [onerror], [onmouseover], [onfocus], [onclick]",
    );
    expect(await page.locator(injected).count()).toBe(0);
    const hrefs = await page
      .locator(inside("a"))
      .evaluateAll((links) =>
        links.map((a) => ({ href: a.getAttribute("href"), target: a.getAttribute("target"), rel: a.getAttribute("rel") })),
      );
    expect(hrefs.length).toBeGreaterThan(0);
    for (const link of hrefs) {
      expect(link.href).toMatch(/^https:\/\//);
      expect(link.target).toBe("_blank");
      expect(link.rel).toBe("noopener noreferrer");
    }

    await bubbles.first().hover();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
