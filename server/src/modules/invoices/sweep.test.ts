import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, invoices, plans } from "../../db/schema/index.js";
import { SWEEPS } from "../../jobs/runner.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { buildCompany } from "../../test/factories.js";
import { createDueInvoices } from "./sweep-service.js";

/*
 * The sweep acts on every company of its database: this file has one of its own, so what it counts
 * is its own companies' invoices and no other file's sweep takes them.
 */
let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp({ invoiceDaysBefore: 10 });
});
afterAll(() => t.close());

const NOW = new Date("2031-03-01T12:00:00Z");
const sweep = (now = NOW, limit = 50) => createDueInvoices(t.app.charla, now, limit);
const invoicesOf = (companyId: number) =>
  t.app.charla.db.select().from(invoices).where(eq(invoices.companyId, companyId)).orderBy(invoices.dueDate);

describe("#invoice sweep", () => {
  it("is one of the sweeps every node runs", () => {
    expect(SWEEPS.map((s) => s.name)).toContain("invoices");
  });

  it("writes one open invoice per due date, days ahead, with the plan's exact value and name as its detail", async () => {
    const soon = await buildCompany(t.app, { dueDate: "2031-03-11", plan: { name: "Plan Oro 3031", value: "1234567.89" } });
    const edge = await buildCompany(t.app, { dueDate: "2031-03-12", plan: { value: "10.00" } });
    const expired = await buildCompany(t.app, { dueDate: "2031-02-01", plan: { value: "0.01" } });
    await sweep();
    expect(await invoicesOf(soon.id)).toMatchObject([
      { detail: "Plan Oro 3031", value: "1234567.89", dueDate: "2031-03-11", status: "open", txid: null, paidAt: null },
    ]);
    // 11 days ahead: not yet; it is once the day comes
    expect(await invoicesOf(edge.id)).toEqual([]);
    // an expired company can still pay: its invoice is written
    expect(await invoicesOf(expired.id)).toMatchObject([{ dueDate: "2031-02-01", value: "0.01" }]);

    await sweep();
    await sweep(new Date("2031-03-02T00:00:00Z"));
    expect(await invoicesOf(soon.id)).toHaveLength(1);
    expect(await invoicesOf(edge.id)).toMatchObject([{ dueDate: "2031-03-12", value: "10.00" }]);
    expect(await invoicesOf(expired.id)).toHaveLength(1);
  });

  it("writes the next invoice once the due date moves, and keeps the paid one", async () => {
    const c = await buildCompany(t.app, { dueDate: "2031-03-05", plan: { value: "50.00" } });
    await sweep();
    await t.app.charla.db.update(invoices).set({ status: "paid", paidAt: NOW }).where(eq(invoices.companyId, c.id));
    await t.app.charla.db.update(companies).set({ dueDate: "2031-04-05" }).where(eq(companies.id, c.id));
    await sweep();
    expect(await invoicesOf(c.id)).toHaveLength(1);
    await sweep(new Date("2031-03-27T00:00:00Z"));
    expect((await invoicesOf(c.id)).map((i) => [i.dueDate, i.status])).toEqual([
      ["2031-03-05", "paid"],
      ["2031-04-05", "open"],
    ]);
  });

  it("bills no free plan, no disabled company, no company without a due date and never the main company", async () => {
    const free = await buildCompany(t.app, { dueDate: "2031-03-03", plan: { value: "0" } });
    const disabled = await buildCompany(t.app, { dueDate: "2031-03-03", status: false, plan: { value: "10.00" } });
    const undated = await buildCompany(t.app, { dueDate: null, plan: { value: "10.00" } });
    const [main] = await t.app.charla.db.select().from(companies).where(eq(companies.id, 1));
    await t.app.charla.db.update(plans).set({ value: "99.00" }).where(eq(plans.id, main.planId));
    await t.app.charla.db.update(companies).set({ dueDate: "2031-03-03" }).where(eq(companies.id, 1));
    await sweep();
    for (const c of [free.id, disabled.id, undated.id, 1]) expect(await invoicesOf(c), `company ${c}`).toEqual([]);
  });

  it("any number of sweeps at once write each invoice once", async () => {
    const many = [];
    for (let i = 0; i < 12; i++) many.push(await buildCompany(t.app, { dueDate: "2031-03-09", plan: { value: "19.90" } }));
    // small batches, so the sweeps take turns over the same rows
    const at = new Date("2031-03-01T13:00:00Z");
    const counts = await Promise.all(Array.from({ length: 4 }, () => sweep(at, 5)));
    let rounds = 0;
    while ((await sweep(at, 5)) > 0 && rounds++ < 10);
    for (const c of many) expect(await invoicesOf(c.id)).toMatchObject([{ dueDate: "2031-03-09", value: "19.90" }]);
    const written = await t.app.charla.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.dueDate, "2031-03-09"), eq(invoices.value, "19.90")));
    expect(written).toHaveLength(12);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(12);
  });
});
