import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { input, loginThroughUi, newPage, waitForLive } from "./support/browser.js";
import { ADMIN, type RunningServer, api, apiLogin } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;

withServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  {
    PIX_KEY: "pagos@charla.example",
    PIX_MERCHANT_NAME: "Charla Servicos",
    PIX_MERCHANT_CITY: "Sao Paulo",
    PAYMENT_WEBHOOK_SECRET: SECRET,
    INVOICE_DAYS_BEFORE: "10",
    // the invoice sweep's first round comes after this: the companies below exist by then (and if a
    // slow start misses it, the sweep's next round a minute later writes them; the poll waits for it)
    JOBS_INTERVAL_MS: "15000",
  },
);

const shots = process.env.E2E_SHOTS_DIR;

/** With E2E_SHOTS_DIR: the page as it is, at 1366 px and at 390 px (then back), once animations settle. */
async function snap(page: Page, name: string) {
  if (!shots) return;
  // spinners run for ever: only transitions that end are waited for
  const settled = () =>
    page.evaluate(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
    );
  await expect.poll(settled, { timeout: 5_000 }).toBe(true);
  const size = page.viewportSize();
  await page.screenshot({ path: `${shots}/${name}-1366.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(settled, { timeout: 5_000 }).toBe(true);
  await page.screenshot({ path: `${shots}/${name}-390.png` });
  if (size) await page.setViewportSize(size);
}
const OWNER = { email: "duena@floreria.example", password: "floreria-2026" };
const COLLEAGUE = { email: "beto@floreria.example", password: "beto-2026" };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const ddmmyyyy = (date: string) => date.split("-").reverse().join("/");

/** One month later, a day the month lacks becoming its last (MENSAL, the default recurrence). */
function plusMonth(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10);
}

type Invoice = { id: number; companyId: number; companyName: string; value: string; dueDate: string; status: string };

async function invoicesOf(token: string): Promise<Invoice[]> {
  return (await api<{ invoices: Invoice[] }>(server.url, "GET", "/invoices/all?paged=1", undefined, token)).invoices;
}

/** What the payment provider does: a Standard Webhooks–signed confirmation (HMAC-SHA256, base64). */
async function confirmPayment(txid: string, amount: string): Promise<Response> {
  const body = JSON.stringify({ type: "payment.confirmed", data: { txid, amount } });
  const id = `msg_${randomUUID()}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(SECRET.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return fetch(`${server.url}/api/v1/subscription/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": timestamp,
      "webhook-signature": `v1,${signature}`,
    },
    body,
  });
}

const rowOf = (page: Page, invoiceId: number) => page.locator(`[data-testid="invoices-row"][data-invoice-id="${invoiceId}"]`);
const stepOf = (page: Page) => page.getByTestId("checkout-stepper").getAttribute("data-step");
const bodyText = (page: Page) => page.locator("body").textContent();

describe("invoices and checkout", () => {
  it("a company's admin pays an open invoice: Personalizar → Revisar → Dados → PAGAR → QR for the invoice's amount; the signed confirmation renews the licence and sends them to /", async () => {
    // a company due in 3 days on a priced plan, and one already 2 days past due: the sweep bills both
    const admin = await apiLogin(server.url, ADMIN.email, ADMIN.password);
    const plan = await api<{ id: number }>(server.url, "POST", "/plans", { name: "Plan Flores", value: "199.90" }, admin);
    const dueDate = day(3);
    const florist = await api<{ id: number }>(
      server.url,
      "POST",
      "/companies",
      { name: "Florería Lupita", ...OWNER, planId: plan.id, dueDate },
      admin,
    );
    await api(
      server.url,
      "POST",
      "/companies",
      { name: "Taller Atrasado", email: "taller@atrasado.example", password: "taller-2026", planId: plan.id, dueDate: day(-2) },
      admin,
    );
    let invoices: Invoice[] = [];
    await expect
      .poll(
        async () => {
          invoices = await invoicesOf(admin);
          return invoices.filter((i) => i.companyName === "Florería Lupita" || i.companyName === "Taller Atrasado").length;
        },
        { timeout: 100_000, interval: 1000 },
      )
      .toBe(2);
    const open = invoices.find((i) => i.companyId === florist.id) as Invoice;
    const overdue = invoices.find((i) => i.companyName === "Taller Atrasado") as Invoice;
    expect(open).toMatchObject({ value: "199.90", dueDate, status: "open" });

    // the super admin's Facturas: every company's, the company named, the overdue one tinted
    const sup = await newPage(browser, 1366, 800);
    await loginThroughUi(sup.page, server.url, ADMIN.email, ADMIN.password);
    await sup.page.getByTestId("menu-financeiro").click();
    await sup.page.waitForURL(/\/financeiro$/);
    await rowOf(sup.page, open.id).waitFor();
    expect(await rowOf(sup.page, open.id).getAttribute("data-status")).toBe("open");
    expect(await rowOf(sup.page, open.id).textContent()).toContain("Florería Lupita");
    expect(await rowOf(sup.page, open.id).getByTestId("invoice-value").textContent()).toMatch(/^MX\$\s199,90$/);
    expect(await rowOf(sup.page, open.id).getByTestId("invoice-due").textContent()).toBe(ddmmyyyy(dueDate));
    expect(await rowOf(sup.page, open.id).getByTestId("invoice-status").first().textContent()).toBe("Abierto");
    const late = rowOf(sup.page, overdue.id);
    expect(await late.getAttribute("data-status")).toBe("overdue");
    expect(await late.getByTestId("invoice-status").first().textContent()).toBe("Vencido");
    const tint = (page: Page, id: number) => rowOf(page, id).evaluate((row) => getComputedStyle(row).backgroundColor);
    expect(await tint(sup.page, overdue.id)).not.toBe("rgba(0, 0, 0, 0)");
    expect(await tint(sup.page, open.id)).toBe("rgba(0, 0, 0, 0)");
    await snap(sup.page, "financeiro-super");
    await sup.context.close();

    // a colleague of the company (subadmin): Facturas is not theirs (told, sent to /), the renewal is
    const owner = await apiLogin(server.url, OWNER.email, OWNER.password);
    await api(server.url, "POST", "/users", { ...COLLEAGUE, name: "Beto Ruiz", profile: "subadmin" }, owner);
    const colleague = await newPage(browser, 1366, 800);
    await loginThroughUi(colleague.page, server.url, COLLEAGUE.email, COLLEAGUE.password);
    await colleague.page.getByTestId("greeting").waitFor({ timeout: 20_000 });
    await colleague.page.goto(`${server.url}/financeiro`);
    await expect.poll(() => new URL(colleague.page.url()).pathname, { timeout: 15_000 }).toBe("/");
    expect(await colleague.page.getByTestId("invoices-table").count()).toBe(0);
    await colleague.page.goto(`${server.url}/tickets`);
    await waitForLive(colleague.page);

    // the company's admin: no menu entry, but the page opens on their own company's invoice only
    const { context, page } = await newPage(browser, 1366, 800);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await loginThroughUi(page, server.url, OWNER.email, OWNER.password);
    await page.getByTestId("greeting").waitFor({ timeout: 20_000 });
    await waitForLive(page);
    expect(await page.getByTestId("menu-financeiro").count()).toBe(0);
    await page.goto(`${server.url}/financeiro`);
    await rowOf(page, open.id).waitFor({ timeout: 20_000 });
    await waitForLive(page);
    expect(await page.getByTestId("invoices-row").count()).toBe(1);

    // PAGAR: the checkout opens on its plan step with the invoice's detail and value
    await rowOf(page, open.id).getByTestId("invoice-pay").click();
    const dialog = page.getByTestId("checkout-dialog");
    await dialog.waitFor();
    expect(await stepOf(page)).toBe("plan");
    expect(await dialog.getByTestId("checkout-detail").textContent()).toBe("Plan Flores");
    expect(await dialog.getByTestId("checkout-value").textContent()).toMatch(/^MX\$\s199,90$/);
    await snap(page, "checkout-plan");

    // straight to the review and PAGAR: the billing data is missing, so Dados opens with each message
    await page.getByTestId("checkout-next").click();
    expect(await stepOf(page)).toBe("review");
    await page.getByTestId("checkout-pay").click();
    await expect.poll(() => stepOf(page)).toBe("billing");
    for (const message of [
      "El nombre completo es obligatorio",
      "La dirección es obligatoria.",
      "la ciudad es obligatoria",
      "Se requiere código postal",
      "Se requiere país",
    ])
      await dialog.getByText(message, { exact: true }).waitFor();
    expect(await page.getByTestId("checkout-back").isDisabled()).toBe(true);

    await input(page, "checkout-firstName").fill("Lupita Hernández");
    await input(page, "checkout-address2").fill("Av. Juárez 123");
    await input(page, "checkout-city").fill("Guadalajara");
    await input(page, "checkout-zipcode").fill("44100");
    await page.getByTestId("checkout-country").click();
    // secondary §5: the two countries
    expect(await page.locator('[data-testid^="checkout-country-"]').count()).toBe(2);
    await page.getByTestId("checkout-country-BR").click();
    await page.getByTestId("checkout-country-BR").waitFor({ state: "detached" });
    await snap(page, "checkout-billing");
    await page.getByTestId("checkout-next").click();
    expect(await stepOf(page)).toBe("plan");
    await page.getByTestId("checkout-next").click();
    expect(await stepOf(page)).toBe("review");
    expect(await dialog.getByTestId("checkout-review").textContent()).toContain("Lupita Hernández");
    expect(await dialog.getByTestId("checkout-total").textContent()).toMatch(/^MX\$\s199,90$/);
    await snap(page, "checkout-review");

    const answered = page.waitForResponse(
      (res) => res.url().endsWith("/api/v1/subscription") && res.request().method() === "POST",
    );
    await page.getByTestId("checkout-pay").click();
    const charge = (await (await answered).json()) as { txid: string; valor: { original: string } };
    expect(charge.valor.original).toBe("199.90");

    // the instant-payment view: the toast, the QR, the payload naming the invoice's amount (EMV field 54)
    await dialog.getByTestId("payment-view").waitFor();
    await expect.poll(() => bodyText(page)).toContain("pendiente de pago");
    await dialog.getByTestId("payment-qr").waitFor();
    const shown = await page.locator('textarea[data-testid="payment-payload"]').inputValue();
    expect(shown).toMatch(/^000201/);
    expect(shown).toContain("5406199.90");
    expect(shown).toContain(charge.txid);
    expect(await dialog.getByTestId("payment-amount").textContent()).toMatch(/^MX\$\s199,90$/);
    // copied: said on the button for a second, then the button is back
    await page.getByTestId("payment-copy").click();
    await expect.poll(() => page.getByTestId("payment-copy").getAttribute("data-copied"), { timeout: 2_000 }).toBe("true");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await expect.poll(() => page.getByTestId("payment-copy").getAttribute("data-copied"), { timeout: 5_000 }).toBe("false");
    await snap(page, "checkout-qr");

    // the provider confirms: the licence is renewed one month from the invoice's due date, said, then /
    const response = await confirmPayment(charge.txid, "199.90");
    expect(response.status).toBe(200);
    const renewedUntil = ddmmyyyy(plusMonth(dueDate));
    await expect.poll(() => bodyText(page), { timeout: 15_000 }).toContain(`Tu licencia fue renovada hasta el ${renewedUntil}`);
    const toastAt = Date.now();
    await page.waitForURL((url) => url.pathname === "/", { timeout: 15_000 });
    // secondary §9: 4 s after the confirmation (measured from the toast, so a little under)
    expect(Date.now() - toastAt).toBeGreaterThan(2_500);
    // every signed-in user of the company hears it, wherever they are
    await expect
      .poll(() => bodyText(colleague.page), { timeout: 15_000 })
      .toContain(`Tu licencia fue renovada hasta el ${renewedUntil}`);
    await colleague.page.waitForURL((url) => url.pathname === "/", { timeout: 15_000 });
    await colleague.context.close();

    // the invoice is paid now: Pago, and PAGO does nothing
    await page.goto(`${server.url}/financeiro`);
    const paid = rowOf(page, open.id);
    await expect.poll(() => paid.getAttribute("data-status"), { timeout: 15_000 }).toBe("paid");
    expect(await paid.getByTestId("invoice-status").first().textContent()).toBe("Pago");
    expect(await paid.getByTestId("invoice-pay").count()).toBe(0);
    await snap(page, "financeiro-paid");
    await paid.getByTestId("invoice-paid").click({ force: true });
    expect(await page.getByTestId("checkout-dialog").count()).toBe(0);
    await context.close();
  }, 240_000);
});
