import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

type ContactsPage = { contacts: { id: number; name: string; number: string }[]; count: number };
type Whatsapp = { id: number; name: string; isDefault: boolean; provider?: string };

const AGENT = { name: "Agente Simulador", email: "agente-simulador@e2e.test", password: "agente-123" };
const CUSTOMER = { number: "+54 9 11 9876-5432", digits: "5491198765432", name: "Cliente Simulado" };
const BANNER = "Simulador de teléfono — los mensajes no salen a WhatsApp";

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const sent = (page: Page, text: string) => page.getByTestId("simulator-in").filter({ hasText: text });
const bodyText = (page: Page) => page.locator("body").textContent();

async function openSimulator(page: Page) {
  await page.getByTestId("menu-simulator").click();
  await page.waitForURL(/\/simulator$/);
  await page.getByTestId("simulator-thread").waitFor();
  // the seed's simulator connection is preselected
  await expect.poll(() => page.getByTestId("simulator-connection").textContent(), { timeout: 10_000 }).toContain("Simulador");
}

async function simulatorId(token: string): Promise<number> {
  const list = await api<Whatsapp[]>(server.url, "GET", "/whatsapp", undefined, token);
  const found = list.find((wa) => wa.provider === "simulator") ?? list.find((wa) => wa.name === "Simulador");
  if (!found) throw new Error(`no simulator connection in ${JSON.stringify(list)}`);
  return found.id;
}

describe("simulator page", () => {
  it("admin plays a customer: text, file, location and card reach Charla; agents' answers come back with ticks", async () => {
    // set-up first: a login ends the user's other sessions
    const token = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    await api(server.url, "POST", "/users", { ...AGENT, profile: "user" }, token);

    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openSimulator(page);
    expect(await page.getByTestId("simulator-banner").textContent()).toContain(BANNER);

    // a text as the customer
    await input(page, "simulator-number").fill(CUSTOMER.number);
    await input(page, "simulator-name").fill(CUSTOMER.name);
    await page.getByTestId("simulator-body").fill("Hola, quiero información <b>ya</b>");
    await page.getByTestId("simulator-send").click();
    const text = sent(page, "Hola, quiero información <b>ya</b>");
    await text.waitFor({ timeout: 10_000 });
    await expect.poll(() => text.getAttribute("data-status"), { timeout: 10_000 }).toBe("sent");
    expect(await page.locator("[data-testid=simulator-thread] b").count()).toBe(0);
    expect(await page.getByTestId("simulator-body").inputValue()).toBe("");

    // the message went through the inbound path: the contact exists with its name (asked with the
    // browser's own token, since a new login would end its session)
    const browserToken = await page.evaluate(() => JSON.parse(localStorage.getItem("token") ?? "null") as string);
    await expect
      .poll(
        async () => {
          const found = await api<ContactsPage>(
            server.url,
            "GET",
            `/contacts?searchParam=${encodeURIComponent(CUSTOMER.name)}`,
            undefined,
            browserToken,
          );
          return found.contacts.map((c) => `${c.name}|${c.number}`);
        },
        { timeout: 10_000 },
      )
      .toContain(`${CUSTOMER.name}|${CUSTOMER.digits}`);

    // a document, with a caption
    await page.getByTestId("simulator-attach").setInputFiles({
      name: "pedido.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("2 cajas de galletas"),
    });
    await page.getByTestId("simulator-attachment").waitFor();
    await page.getByTestId("simulator-body").fill("Mi pedido");
    await page.getByTestId("simulator-send").click();
    const file = sent(page, "pedido.txt");
    await file.waitFor({ timeout: 10_000 });
    await expect.poll(() => file.getAttribute("data-status"), { timeout: 10_000 }).toBe("sent");
    expect(await file.textContent()).toContain("Mi pedido");

    // a file over 8 MB is refused before it is read
    await page.getByTestId("simulator-attach").setInputFiles({
      name: "grande.bin",
      mimeType: "application/octet-stream",
      buffer: Buffer.alloc(8 * 1024 * 1024 + 1),
    });
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain("El archivo supera el límite de 8 MB.");
    expect(await page.getByTestId("simulator-attachment").count()).toBe(0);

    // a location
    await page.getByTestId("simulator-location-open").click();
    await input(page, "simulator-location-lat").fill("-34.6037");
    await input(page, "simulator-location-lng").fill("-58.3816");
    await input(page, "simulator-location-description").fill("Obelisco");
    await page.getByTestId("simulator-location-send").click();
    const place = sent(page, "Obelisco");
    await place.waitFor({ timeout: 10_000 });
    await expect.poll(() => place.getAttribute("data-status"), { timeout: 10_000 }).toBe("sent");
    expect(await place.locator("a").getAttribute("href")).toContain("-34.6037%2C-58.3816");

    // a contact card
    await page.getByTestId("simulator-vcard-open").click();
    await input(page, "simulator-vcard-name").fill("Tía Rosa");
    await input(page, "simulator-vcard-number").fill("5491155550000");
    await page.getByTestId("simulator-vcard-send").click();
    const card = sent(page, "Tía Rosa");
    await card.waitFor({ timeout: 10_000 });
    await expect.poll(() => card.getAttribute("data-status"), { timeout: 10_000 }).toBe("sent");
    expect(await page.getByTestId("simulator-in").count()).toBe(4);

    // after a reload the customer is among the recent ones and the conversation is still there
    await page.reload();
    await page.getByTestId("simulator-thread").waitFor();
    expect(await page.getByTestId("simulator-in").count()).toBe(0);
    await input(page, "simulator-number").click();
    await page.getByTestId("simulator-recent").filter({ hasText: CUSTOMER.name }).click();
    expect(await input(page, "simulator-name").inputValue()).toBe(CUSTOMER.name);
    await expect.poll(() => page.getByTestId("simulator-in").count(), { timeout: 10_000 }).toBe(4);
    expect(await page.getByTestId("simulator-out").count()).toBe(0);

    // an agent answers (through the inbox API): the answer shows on the left and its ticks move up
    const tickets = await api<{ tickets: { id: number }[] }>(
      server.url,
      "GET",
      `/tickets?searchParam=${CUSTOMER.digits}`,
      undefined,
      browserToken,
    );
    const ticketId = tickets.tickets[0].id;
    await api(server.url, "PUT", `/tickets/${ticketId}`, { status: "open" }, browserToken);
    await api(server.url, "POST", `/messages/${ticketId}`, { body: "¡Hola! <i>¿En qué te ayudo?</i>" }, browserToken);
    const answer = page.getByTestId("simulator-out").filter({ hasText: "¡Hola! <i>¿En qué te ayudo?</i>" });
    await answer.waitFor({ timeout: 10_000 });
    // the phone page shows the answer, so it reads it: two blue ticks (4, docs/acks.md)
    await expect.poll(() => answer.getAttribute("data-ack"), { timeout: 10_000 }).toBe("4");
    expect(await page.locator("[data-testid=simulator-thread] i").count()).toBe(0);

    // media answers are fetched with the token: an image inline, a document as a named link
    const files = new FormData();
    files.append("medias", new Blob([new Uint8Array(await page.screenshot())], { type: "image/png" }), "foto.png");
    const upload = await fetch(`${server.url}/api/v1/messages/${ticketId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${browserToken}` },
      body: files,
    });
    expect(upload.status).toBe(201);
    const image = page.getByTestId("simulator-out-image");
    await image.waitFor({ timeout: 10_000 });
    expect(await image.getAttribute("src")).toMatch(/^blob:/);
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await context.close();
  }, 120_000); // many steps, and the 8 MB file crosses into the browser

  it("remembers the customer of each connection when the admin leaves the page and comes back (issue 26)", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await openSimulator(page);
    await input(page, "simulator-number").fill("+54 9 11 5555-0101");
    await input(page, "simulator-name").fill("Cliente Recordado");
    await page.getByTestId("simulator-body").fill("Hola otra vez");
    await page.getByTestId("simulator-send").click();
    await sent(page, "Hola otra vez").waitFor({ timeout: 10_000 });

    await page.getByTestId("menu-tickets").click();
    await page.waitForURL(/\/tickets/);
    await openSimulator(page);
    await expect.poll(() => input(page, "simulator-number").inputValue(), { timeout: 10_000 }).toBe("+54 9 11 5555-0101");
    expect(await input(page, "simulator-name").inputValue()).toBe("Cliente Recordado");
    // and the conversation with it is shown again
    await sent(page, "Hola otra vez").waitFor({ timeout: 10_000 });
    // a new tab of the same browser too
    const again = await context.newPage();
    await again.goto(`${server.url}/simulator`);
    await again.getByTestId("simulator-thread").waitFor();
    await expect.poll(() => input(again, "simulator-number").inputValue(), { timeout: 10_000 }).toBe("+54 9 11 5555-0101");
    await context.close();
  });

  it("a user-profile agent has no simulator menu item and the API refuses them", async () => {
    const { context, page } = await newPage(browser);
    await loginThroughUi(page, server.url, AGENT.email, AGENT.password);
    await page.getByTestId("menu-contacts").waitFor();
    expect(await page.getByTestId("menu-simulator").count()).toBe(0);
    // typing the address leads back home
    await page.goto(`${server.url}/simulator`);
    await page.getByTestId("menu-contacts").waitFor();
    expect(await page.getByTestId("simulator-thread").count()).toBe(0);
    await context.close();

    const adminToken = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const id = await simulatorId(adminToken);
    const agentToken = await apiLogin(server.url, AGENT.email, AGENT.password);
    const res = await fetch(`${server.url}/api/v1/simulator/${id}/inbound`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${agentToken}` },
      body: JSON.stringify({ number: "5491100001111", body: "hola" }),
    });
    expect(res.status).toBe(403);
    const outbound = await fetch(`${server.url}/api/v1/simulator/${id}/outbound?number=5491100001111`, {
      headers: { authorization: `Bearer ${agentToken}` },
    });
    expect(outbound.status).toBe(403);
  });
});
