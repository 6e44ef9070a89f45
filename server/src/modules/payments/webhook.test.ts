import { Writable } from "node:stream";
import { addRecurrence } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { companies, invoices, paymentReceipts } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import {
  BILLING_CONFIG,
  WEBHOOK_SECRET,
  buildInvoice,
  confirm,
  confirmationBody,
  postWebhook,
  signed,
} from "../../test/billing-kit.js";
import { buildCompany, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

let t: TestApp;
/** The same database and configuration, with a logger whose lines the test reads. */
let app: FastifyInstance;
beforeAll(async () => {
  t = await getTestApp(BILLING_CONFIG);
  app = await buildApp({ ...t.config, logLevel: "info" }, { database: t.database, seed: false, logStream });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});
const call = caller(() => app);

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A company due on `dueDate`, its open invoice for that date, checked out (so it has its txid). */
async function billed(opts: { dueDate?: string; recurrence?: string; value?: string } = {}) {
  const dueDate = opts.dueDate ?? "2031-05-31";
  const c = await buildCompany(app, { dueDate, recurrence: opts.recurrence ?? "MENSAL" });
  const inv = await buildInvoice(app, c.id, { dueDate, value: opts.value ?? "199.90" });
  const s = await login(app, c.admin);
  const res = await call(s, "POST", "/subscription", {
    invoiceId: inv.id,
    firstName: "Ana",
    address2: "Rua 1",
    city: "Recife",
    zipcode: "50000",
    country: "BR",
  });
  expect(res.statusCode, res.body).toBe(200);
  return { c, inv, txid: res.json().txid as string };
}
const invoiceOf = async (id: number) => (await app.charla.db.select().from(invoices).where(eq(invoices.id, id)))[0];
const dueOf = async (id: number) =>
  (await app.charla.db.select({ d: companies.dueDate }).from(companies).where(eq(companies.id, id)))[0].d;
const receiptsOf = (txid: string) => app.charla.db.select().from(paymentReceipts).where(eq(paymentReceipts.txid, txid));

describe("#webhook a signed confirmation", () => {
  it("marks the invoice paid, moves the due date by one recurrence and keeps a receipt", async () => {
    const { c, inv, txid } = await billed();
    const paidAt = "2031-05-20T13:45:00.000Z";
    const res = await confirm(app, { txid, amount: "199.90", paidAt }, { id: "evt-paid-1" + txid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: "paid" });
    expect(await invoiceOf(inv.id)).toMatchObject({ status: "paid", paidAt: new Date(paidAt) });
    expect(await dueOf(c.id)).toBe("2031-06-30");
    expect(await receiptsOf(txid)).toMatchObject([
      {
        eventId: `evt-paid-1${txid}`,
        outcome: "paid",
        invoiceId: inv.id,
        companyId: c.id,
        body: { data: { txid, amount: "199.90" } },
      },
    ]);
    // the paid invoice is listed so, and cannot be charged again
    const s = await login(app, c.admin);
    expect((await call(s, "GET", `/invoices/${inv.id}`)).json()).toMatchObject({ status: "paid", paidAt });
    const again = await call(s, "POST", "/subscription", {
      invoiceId: inv.id,
      firstName: "Ana",
      address2: "Rua 1",
      city: "Recife",
      zipcode: "50000",
      country: "BR",
    });
    expectError(again, 409, "ERR_INVOICE_PAID");
  });

  it("moves the due date by each recurrence, month ends included, from the invoice's due date", async () => {
    const cases: [string, string, string][] = [
      ["MENSAL", "2031-01-31", "2031-02-28"],
      ["MENSAL", "2032-01-31", "2032-02-29"],
      ["BIMESTRAL", "2031-12-31", "2032-02-29"],
      ["TRIMESTRAL", "2031-11-30", "2032-02-29"],
      ["SEMESTRAL", "2031-08-31", "2032-02-29"],
      ["ANUAL", "2032-02-29", "2033-02-28"],
      ["ANUAL", "2031-07-15", "2032-07-15"],
    ];
    for (const [recurrence, dueDate, expected] of cases) {
      const { c, txid } = await billed({ dueDate, recurrence });
      expect((await confirm(app, { txid, amount: "199.90" })).json().outcome).toBe("paid");
      expect(await dueOf(c.id), `${recurrence} ${dueDate}`).toBe(expected);
      expect(expected).toBe(addRecurrence(dueDate, recurrence as "MENSAL"));
    }
  });

  it("never moves a due date back: a company already due later keeps its date", async () => {
    const { c, txid } = await billed({ dueDate: "2031-03-31" });
    await app.charla.db.update(companies).set({ dueDate: "2031-12-31" }).where(eq(companies.id, c.id));
    expect((await confirm(app, { txid, amount: "199.90" })).json().outcome).toBe("paid");
    expect(await dueOf(c.id)).toBe("2031-12-31");
  });

  it("takes more than the value as paid, a JSON number as the decimal it spells, and a short amount as not paid", async () => {
    const over = await billed({ value: "199.90" });
    expect((await confirm(app, { txid: over.txid, amount: "200.00" })).json().outcome).toBe("paid");
    const number = await billed({ value: "199.90" });
    expect((await confirm(app, { txid: number.txid, amount: 199.9 })).json().outcome).toBe("paid");

    const short = await billed({ value: "199.90", dueDate: "2031-04-30" });
    lines.length = 0;
    const res = await confirm(app, { txid: short.txid, amount: "199.89" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: "amount-mismatch" });
    expect(await invoiceOf(short.inv.id)).toMatchObject({ status: "open", paidAt: null });
    expect(await dueOf(short.c.id)).toBe("2031-04-30");
    expect(await receiptsOf(short.txid)).toMatchObject([{ outcome: "amount-mismatch", invoiceId: short.inv.id }]);
    expect(logged()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 40,
          outcome: "amount-mismatch",
          txid: short.txid,
          msg: expect.stringMatching(/nothing paid/),
        }),
      ]),
    );
  });

  it("acknowledges an unknown txid (200, so the provider stops), records it and logs a warning", async () => {
    lines.length = 0;
    const res = await confirm(app, { txid: "NOSUCHTXID123", amount: "10.00" }, { id: "evt-unknown-txid" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: "unknown-txid" });
    expect(await receiptsOf("NOSUCHTXID123")).toMatchObject([
      { eventId: "evt-unknown-txid", outcome: "unknown-txid", invoiceId: null },
    ]);
    expect(logged().some((l) => l.level === 40 && l.outcome === "unknown-txid")).toBe(true);
  });

  it("a replayed event id answers duplicate and changes nothing", async () => {
    const { c, inv, txid } = await billed({ dueDate: "2031-09-30" });
    const body = confirmationBody({ txid, amount: "199.90" });
    const headers = signed(body, { id: `evt-replay-${txid}` });
    expect((await postWebhook(app, body, headers)).json()).toEqual({ received: true, outcome: "paid" });
    for (let i = 0; i < 3; i++) {
      const res = await postWebhook(app, body, headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true, duplicate: true });
    }
    // a 30th stays a 30th
    expect(await dueOf(c.id)).toBe("2031-10-30");
    expect((await invoiceOf(inv.id)).status).toBe("paid");
    expect(await receiptsOf(txid)).toHaveLength(1);
  });

  it("a second, different confirmation of a paid invoice is recorded and changes nothing", async () => {
    const { c, txid } = await billed({ dueDate: "2031-10-31" });
    expect((await confirm(app, { txid, amount: "199.90" })).json().outcome).toBe("paid");
    const second = await confirm(app, { txid, amount: "199.90" });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ received: true, outcome: "already-paid" });
    expect(await dueOf(c.id)).toBe("2031-11-30");
    expect((await receiptsOf(txid)).map((r) => r.outcome).sort()).toEqual(["already-paid", "paid"]);
  });

  it("the same confirmation many times at once, under one id and under several: paid once, moved once", async () => {
    const { c, inv, txid } = await billed({ dueDate: "2031-06-30" });
    const body = confirmationBody({ txid, amount: "199.90" });
    const same = signed(body, { id: `evt-burst-${txid}` });
    const sends = [
      ...Array.from({ length: 6 }, () => postWebhook(app, body, same)),
      ...Array.from({ length: 3 }, (_, i) => confirm(app, { txid, amount: "199.90" }, { id: `evt-burst-${i}-${txid}` })),
    ];
    const answers = await Promise.all(sends);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(9).fill(200));
    expect(answers.filter((r) => r.json().outcome === "paid")).toHaveLength(1);
    expect(await dueOf(c.id)).toBe("2031-07-30");
    expect((await invoiceOf(inv.id)).status).toBe("paid");
    const receipts = await receiptsOf(txid);
    expect(receipts).toHaveLength(4);
    expect(receipts.filter((r) => r.outcome === "paid")).toHaveLength(1);
  });

  it("lets an expired company in again", async () => {
    const yesterday = isoDay(-1);
    const c = await buildCompany(app, { dueDate: yesterday, recurrence: "MENSAL" });
    const inv = await buildInvoice(app, c.id, { dueDate: yesterday, value: "99.00", txid: `EXP${c.id}X1` });
    const refused = await app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: c.admin.email, password: "secret-123" },
    });
    expectError(refused, 401, "ERR_SUBSCRIPTION_EXPIRED");
    expect((await confirm(app, { txid: inv.txid as string, amount: "99.00" })).json().outcome).toBe("paid");
    expect(await dueOf(c.id)).toBe(addRecurrence(yesterday, "MENSAL"));
    const s = await login(app, c.admin);
    expect((await call(s, "GET", "/invoices/all")).json()).toMatchObject([{ id: inv.id, status: "paid" }]);
  });

  it("ignores other event types and refuses a signed confirmation without txid or amount", async () => {
    const other = JSON.stringify({ type: "payment.created", data: { txid: "X" } });
    expect((await postWebhook(app, other, signed(other))).json()).toEqual({ received: true, ignored: true });
    for (const data of [{ amount: "1.00" }, { txid: "ABC" }, { txid: "a-b", amount: "1.00" }, { txid: "ABC", amount: "1,00" }]) {
      const body = JSON.stringify({ type: "payment.confirmed", data });
      expectError(await postWebhook(app, body, signed(body)), 400, "ERR_VALIDATION");
    }
    for (const body of ["{bad", "[]", '"x"', ""]) {
      const res = await postWebhook(app, body, signed(body));
      expect(res.statusCode, body).toBe(400);
    }
  });
});

describe("#webhook authentication", () => {
  it("refuses forged, tampered, unsigned, stale and future calls with 401 ERR_WEBHOOK_SIGNATURE, logged without the secret", async () => {
    const { c, inv, txid } = await billed({ dueDate: "2031-08-31" });
    const body = confirmationBody({ txid, amount: "199.90" });
    const otherSecret = `whsec_${Buffer.from("not-the-operator-secret-at-all!!").toString("base64")}`;
    const good = signed(body);
    const attempts: [string, string | Buffer, Record<string, string>][] = [
      ["forged (another secret)", body, signed(body, { secret: otherSecret })],
      ["tampered body", body.replace("199.90", "199.91"), good],
      ["tampered id", body, { ...good, "webhook-id": `${good["webhook-id"]}x` }],
      ["unsigned", body, { "content-type": "application/json" }],
      ["signature only", body, { "webhook-signature": good["webhook-signature"], "content-type": "application/json" }],
      ["not v1", body, { ...good, "webhook-signature": good["webhook-signature"].replace("v1,", "v2,") }],
      ["stale (6 minutes)", body, signed(body, { at: new Date(Date.now() - 6 * 60_000) })],
      ["future (6 minutes)", body, signed(body, { at: new Date(Date.now() + 6 * 60_000) })],
      ["not a timestamp", body, { ...good, "webhook-timestamp": "yesterday" }],
      ["not UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), good],
    ];
    lines.length = 0;
    for (const [name, payload, headers] of attempts) {
      const res = await postWebhook(app, payload, headers);
      expect(res.statusCode, name).toBe(401);
      expect(res.json().error, name).toBe("ERR_WEBHOOK_SIGNATURE");
    }
    expect((await invoiceOf(inv.id)).status).toBe("open");
    expect(await dueOf(c.id)).toBe("2031-08-31");
    expect(await receiptsOf(txid)).toHaveLength(0);
    const refusals = logged().filter((l) => l.msg === "payment webhook refused: no valid signature");
    expect(refusals).toHaveLength(attempts.length);
    expect(refusals.every((l) => l.level === 40)).toBe(true);
    expect(refusals.map((l) => l.reason)).toEqual(
      expect.arrayContaining(["Message timestamp too old", "Missing required headers"]),
    );
    const secretPart = WEBHOOK_SECRET.slice("whsec_".length);
    expect(lines.join("\n")).not.toContain(secretPart);
    expect(lines.join("\n")).not.toContain(WEBHOOK_SECRET);

    // the genuine call, within 5 minutes, still goes through
    expect((await postWebhook(app, body, good)).json().outcome).toBe("paid");
  });

  it("bounds the body (413) and answers 503 when no secret is configured", async () => {
    const big = JSON.stringify({ type: "payment.confirmed", data: { txid: "A", amount: "1.00" }, pad: "x".repeat(70 * 1024) });
    expectError(await postWebhook(app, big, signed(big)), 413, "ERR_PAYLOAD_TOO_LARGE");
    const asText = confirmationBody({ txid: "ABC", amount: "1.00" });
    expectError(
      await postWebhook(app, asText, { ...signed(asText), "content-type": "text/plain" }),
      415,
      "ERR_UNSUPPORTED_MEDIA_TYPE",
    );
    const withCharset = await postWebhook(app, asText, { ...signed(asText), "content-type": "application/json; charset=utf-8" });
    expect(withCharset.json()).toEqual({ received: true, outcome: "unknown-txid" });

    const bare = await getTestApp({}, t.database);
    try {
      const body = confirmationBody({ txid: "ABC", amount: "1.00" });
      expectError(await postWebhook(bare.app, body, signed(body)), 503, "ERR_WEBHOOK_NOT_CONFIGURED");
    } finally {
      await bare.close();
    }
    const malformed = await getTestApp({ paymentWebhookSecret: "whsec_***" }, t.database);
    try {
      const body = confirmationBody({ txid: "ABC", amount: "1.00" });
      expectError(await postWebhook(malformed.app, body, signed(body)), 503, "ERR_WEBHOOK_NOT_CONFIGURED");
    } finally {
      await malformed.close();
    }
  });

  it("is rate-limited per address like every API route", async () => {
    const limited = await getTestApp({ ...BILLING_CONFIG, apiMaxPerIp: 3 }, t.database);
    try {
      const body = confirmationBody({ txid: "ABC", amount: "1.00" });
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await postWebhook(limited.app, body, { "content-type": "application/json" })).statusCode);
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
