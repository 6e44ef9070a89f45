import type { InstantPaymentView, InvoiceView, Profile } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { BILLING_CONFIG, buildInvoice } from "../../test/billing-kit.js";
import { buildCompany, buildUser, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { pixCrcValid } from "../payments/pix-emv.js";

let t: TestApp;
/** The same database, on a server with no payment provider configured. */
let bare: TestApp;
beforeAll(async () => {
  t = await getTestApp(BILLING_CONFIG);
  bare = await getTestApp({}, t.database);
});
afterAll(async () => {
  await bare.close();
  await t.close();
});
const call = caller(() => t.app);

async function sessionIn(profile: Profile = "admin") {
  const c = await buildCompany(t.app);
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, u, s: await login(t.app, u) };
}
async function superSession() {
  const c = await buildCompany(t.app);
  const u = await buildUser(t.app, c.id, { profile: "admin", super: true });
  return { c, u, s: await login(t.app, u) };
}
const form = (invoiceId: number, over: Record<string, unknown> = {}) => ({
  invoiceId,
  firstName: "Ana",
  lastName: "Souza",
  address2: "Rua das Flores 10",
  city: "Recife",
  state: "PE",
  zipcode: "50000-000",
  country: "BR",
  useAddressForPaymentDetails: true,
  ...over,
});
/** The TLV fields of a payload's top level (what a bank app reads). */
function fields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < text.length; ) {
    const len = Number(text.slice(i + 2, i + 4));
    out[text.slice(i, i + 2)] = text.slice(i + 4, i + 4 + len);
    i += 4 + len;
  }
  return out;
}

const ROUTES: [InjectOptions["method"], string][] = [
  ["GET", "/invoices/all"],
  ["GET", "/invoices/1"],
  ["POST", "/subscription"],
];

describe("#invoices access", () => {
  it("requires a session", async () => {
    for (const [method, url] of ROUTES) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "POST" ? form(1) : undefined });
      expectError(res, 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("refuses every profile but admin (403 ERR_NO_PERMISSION) before reading anything", async () => {
    for (const profile of ["user", "subadmin", "supervisor"] as const) {
      const { c, s } = await sessionIn(profile);
      const own = await buildInvoice(t.app, c.id);
      for (const [method, url] of ROUTES) {
        const res = await call(s, method, url.replace("/1", `/${own.id}`), method === "POST" ? form(own.id) : undefined);
        expectError(res, 403, "ERR_NO_PERMISSION");
      }
      const [after] = await t.app.charla.db.select().from(invoices).where(eq(invoices.id, own.id));
      expect(after.txid).toBeNull();
    }
  });
});

describe("#invoices list", () => {
  it("shows a company's admin their own company's invoices only, latest due date first, values exact", async () => {
    const a = await sessionIn();
    const b = await sessionIn();
    const older = await buildInvoice(t.app, a.c.id, {
      dueDate: "2030-01-31",
      value: "1234.5",
      status: "paid",
      paidAt: new Date(),
    });
    const newer = await buildInvoice(t.app, a.c.id, { dueDate: "2030-02-28", value: "0.10" });
    await buildInvoice(t.app, b.c.id, { dueDate: "2030-03-31" });

    const res = await call(a.s, "GET", "/invoices/all");
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-has-more"]).toBe("false");
    const list = res.json() as InvoiceView[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((i) => i.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toEqual({
      id: newer.id,
      companyId: a.c.id,
      companyName: a.c.name,
      detail: newer.detail,
      value: "0.10",
      dueDate: "2030-02-28",
      status: "open",
      paidAt: null,
      createdAt: expect.any(String),
    });
    expect(list[1]).toMatchObject({ value: "1234.50", status: "paid", paidAt: expect.any(String) });

    const paged = await call(a.s, "GET", "/invoices/all?paged=1");
    expect(paged.json()).toEqual({ invoices: list, hasMore: false });
  });

  it("pages 20 at a time with hasMore, and searches the detail", async () => {
    const a = await sessionIn();
    for (let i = 1; i <= 25; i++)
      await buildInvoice(t.app, a.c.id, {
        dueDate: `2032-01-${String(i).padStart(2, "0")}`,
        detail: i === 7 ? "Plan Oro" : "Plan Base",
      });
    const first = await call(a.s, "GET", "/invoices/all?pageNumber=1");
    expect(first.headers["x-has-more"]).toBe("true");
    expect(first.json()).toHaveLength(20);
    expect(first.json()[0].dueDate).toBe("2032-01-25");
    const second = await call(a.s, "GET", "/invoices/all?pageNumber=2&paged=1");
    expect(second.headers["x-has-more"]).toBe("false");
    expect(second.json().hasMore).toBe(false);
    expect(second.json().invoices.map((i: InvoiceView) => i.dueDate)).toEqual([
      "2032-01-05",
      "2032-01-04",
      "2032-01-03",
      "2032-01-02",
      "2032-01-01",
    ]);
    const found = await call(a.s, "GET", "/invoices/all?searchParam=oro");
    expect(found.json().map((i: InvoiceView) => i.dueDate)).toEqual(["2032-01-07"]);
  });

  it("shows a super user every company's invoices with the company's name", async () => {
    const sup = await superSession();
    const a = await sessionIn();
    const inv = await buildInvoice(t.app, a.c.id);
    const res = await call(sup.s, "GET", `/invoices/all?searchParam=${encodeURIComponent(a.c.name)}`);
    expect(res.json()).toEqual([expect.objectContaining({ id: inv.id, companyId: a.c.id, companyName: a.c.name })]);
    const one = await call(sup.s, "GET", `/invoices/${inv.id}`);
    expect(one.json()).toMatchObject({ id: inv.id, companyName: a.c.name, value: "199.90" });
  });

  it("GET /invoices/{id}: the company's own; another company's is not found", async () => {
    const a = await sessionIn();
    const b = await sessionIn();
    const mine = await buildInvoice(t.app, a.c.id);
    const theirs = await buildInvoice(t.app, b.c.id, { detail: "Secreto de B" });
    expect((await call(a.s, "GET", `/invoices/${mine.id}`)).json()).toMatchObject({ id: mine.id, companyId: a.c.id });
    const res = await call(a.s, "GET", `/invoices/${theirs.id}`);
    expectError(res, 404, "ERR_INVOICE_NOT_FOUND");
    expect(res.body).not.toContain("Secreto de B");
    expectError(await call(a.s, "GET", "/invoices/2147483647"), 404, "ERR_INVOICE_NOT_FOUND");
  });
});

describe("#checkout POST /subscription", () => {
  it("charges the invoice's own value, whatever price, plan, users or connections the client sends", async () => {
    const a = await sessionIn();
    const inv = await buildInvoice(t.app, a.c.id, { value: "199.90" });
    const res = await call(
      a.s,
      "POST",
      "/subscription",
      form(inv.id, { price: 1, plan: { id: 1, value: "0.01", price: 0.01 }, users: 999, connections: 999, cardNumber: "4111" }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as InstantPaymentView;
    expect(view.invoiceId).toBe(inv.id);
    expect(view.valor).toEqual({ original: "199.90" });
    expect(view.txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
    const f = fields(view.qrcode.qrcode);
    expect(f).toMatchObject({ "53": "986", "54": "199.90", "58": "BR", "59": "Charla Servicos", "60": "Sao Paulo" });
    expect(f["62"]).toBe(`05${String(view.txid.length).padStart(2, "0")}${view.txid}`);
    expect(pixCrcValid(view.qrcode.qrcode)).toBe(true);
    const [stored] = await t.app.charla.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(stored).toMatchObject({ txid: view.txid, value: "199.90", status: "open" });
  });

  it("reuses the invoice's charge: a second checkout, or several at once, show the same txid", async () => {
    const a = await sessionIn();
    const inv = await buildInvoice(t.app, a.c.id, { value: "49.00" });
    const all = await Promise.all(Array.from({ length: 5 }, () => call(a.s, "POST", "/subscription", form(inv.id))));
    const txids = new Set(all.map((r) => (r.json() as InstantPaymentView).txid));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(txids.size).toBe(1);
    const again = (await call(a.s, "POST", "/subscription", form(inv.id, { price: "999.99" }))).json() as InstantPaymentView;
    expect(again.txid).toBe([...txids][0]);
    expect(again.valor.original).toBe("49.00");
  });

  it("another company's invoice is not found and stays as it was; a super user may charge any", async () => {
    const a = await sessionIn();
    const b = await sessionIn();
    const theirs = await buildInvoice(t.app, b.c.id);
    expectError(await call(a.s, "POST", "/subscription", form(theirs.id)), 404, "ERR_INVOICE_NOT_FOUND");
    const [after] = await t.app.charla.db.select().from(invoices).where(eq(invoices.id, theirs.id));
    expect(after.txid).toBeNull();
    const sup = await superSession();
    const res = await call(sup.s, "POST", "/subscription", form(theirs.id));
    expect(res.statusCode).toBe(200);
    expect(res.json().valor.original).toBe("199.90");
  });

  it("a paid invoice is 409 ERR_INVOICE_PAID", async () => {
    const a = await sessionIn();
    const paid = await buildInvoice(t.app, a.c.id, { status: "paid", paidAt: new Date() });
    expectError(await call(a.s, "POST", "/subscription", form(paid.id)), 409, "ERR_INVOICE_PAID");
  });

  it("refuses the billing step without its required fields, with the checkout's messages", async () => {
    const a = await sessionIn();
    const inv = await buildInvoice(t.app, a.c.id);
    const res = await call(a.s, "POST", "/subscription", form(inv.id, { firstName: " ", address2: "", country: "MX" }));
    expectError(res, 400, "ERR_VALIDATION");
    const issues = res.json().issues as { path: string; message: string }[];
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "body.firstName", message: "validation.checkoutFullName" },
        { path: "body.address2", message: "validation.checkoutAddress" },
        { path: "body.country", message: "validation.checkoutCountry" },
      ]),
    );
  });

  it("without a configured provider: 503 ERR_PAYMENTS_NOT_CONFIGURED, nothing written", async () => {
    const a = await sessionIn();
    const inv = await buildInvoice(t.app, a.c.id);
    const s = await login(bare.app, a.c.admin);
    const res = await bare.app.inject({
      method: "POST",
      url: "/api/v1/subscription",
      payload: form(inv.id),
      headers: { authorization: `Bearer ${s.token}` },
    });
    expectError(res, 503, "ERR_PAYMENTS_NOT_CONFIGURED");
    expect(res.json().message).toMatch(/pagos no están configurados/);
    const [after] = await t.app.charla.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(after.txid).toBeNull();
  });
});
