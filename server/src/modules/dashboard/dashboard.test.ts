import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tickets, ticketTracking, userRatings } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import {
  type BuiltCompany,
  type Session,
  buildCompany,
  buildContact,
  buildTicket,
  buildUser,
  login,
} from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

type Episode = {
  userId?: number | null;
  queuedAt?: string | Date | null;
  startedAt?: string | Date | null;
  finishedAt?: string | Date | null;
};

const when = (v: string | Date | null | undefined) => (v === undefined || v === null ? null : v instanceof Date ? v : at(v));

/** A ticket with one hand-built episode (the factory's own "queued now" row has no start, so counts nothing here). */
async function episode(
  companyId: number,
  e: Episode,
  ticket: { contactId?: number; createdAt?: string; status?: string; isGroup?: boolean } = {},
) {
  const contactId = ticket.contactId ?? (await buildContact(t.app, companyId, { isGroup: ticket.isGroup ?? false })).id;
  const row = await buildTicket(t.app, companyId, {
    contactId,
    status: ticket.status ?? "closed",
    isGroup: ticket.isGroup ?? false,
    ...(ticket.createdAt ? { createdAt: at(ticket.createdAt) } : {}),
  });
  await t.app.charla.db.insert(ticketTracking).values({
    companyId,
    ticketId: row.id,
    userId: e.userId ?? null,
    queuedAt: when(e.queuedAt),
    startedAt: when(e.startedAt),
    finishedAt: when(e.finishedAt),
  });
  return row;
}

async function rate(companyId: number, ticketId: number, userId: number, value: number, createdAt: string) {
  await t.app.charla.db.insert(userRatings).values({ companyId, ticketId, userId, rate: value, createdAt: at(createdAt) });
}

/**
 * Company A, zone America/Sao_Paulo (UTC-3, no DST since 2019). Period 2025-03-10..2025-03-11 is
 * [2025-03-10T03:00Z, 2025-03-12T03:00Z). Every number the tests expect is worked out beside its row.
 */
type World = { a: BuiltCompany; s: Session; agent1: number; agent2: number; b: BuiltCompany; bAgent: number };
let w: World;

async function buildWorld(): Promise<World> {
  const a = await buildCompany(t.app, { timeZone: "America/Sao_Paulo" });
  const agent1 = (await buildUser(t.app, a.id, { name: "Ana", online: true })).id;
  const agent2 = (await buildUser(t.app, a.id, { name: "Beto" })).id;
  const c1 = (await buildContact(t.app, a.id)).id;
  const c2 = (await buildContact(t.app, a.id)).id;
  // e1: wait 10, support 30; T1 is c1's first ticket (local 03-10 09:00): a lead
  const t1 = await episode(
    a.id,
    { userId: agent1, queuedAt: "2025-03-10T12:00:00Z", startedAt: "2025-03-10T12:10:00Z", finishedAt: "2025-03-10T12:40:00Z" },
    { contactId: c1, createdAt: "2025-03-10T12:00:00Z" },
  );
  // e2: wait 20, support 60
  await episode(
    a.id,
    { userId: agent1, queuedAt: "2025-03-11T13:00:00Z", startedAt: "2025-03-11T13:20:00Z", finishedAt: "2025-03-11T14:20:00Z" },
    { contactId: c1, createdAt: "2025-03-11T13:00:00Z" },
  );
  // e3: finishes exactly at the period's start: counted (support 30); started before it: no wait counted.
  // Its ticket began at local 03-09 23:00: its contact is no lead.
  await episode(
    a.id,
    { userId: agent2, queuedAt: "2025-03-10T02:00:00Z", startedAt: "2025-03-10T02:30:00Z", finishedAt: "2025-03-10T03:00:00Z" },
    { createdAt: "2025-03-10T02:00:00Z" },
  );
  // e4: finishes exactly at the period's end (local 03-12 00:00): not counted; started inside: wait 60.
  // Its ticket began at local 03-11 22:00: a lead.
  await episode(
    a.id,
    { userId: agent2, queuedAt: "2025-03-12T01:00:00Z", startedAt: "2025-03-12T02:00:00Z", finishedAt: "2025-03-12T03:00:00Z" },
    { createdAt: "2025-03-12T01:00:00Z" },
  );
  // e5: finishes one second before the start (local 03-09 23:59:59): nothing of it counts
  await episode(
    a.id,
    { userId: agent1, queuedAt: "2025-03-10T01:00:00Z", startedAt: "2025-03-10T02:00:00Z", finishedAt: "2025-03-10T02:59:59Z" },
    { contactId: c2, createdAt: "2025-03-01T12:00:00Z" },
  );
  // e6: still open; started inside: wait 5. c2's first ticket is older: no lead.
  await episode(
    a.id,
    { userId: agent1, queuedAt: "2025-03-11T10:00:00Z", startedAt: "2025-03-11T10:05:00Z" },
    { contactId: c2, createdAt: "2025-03-11T10:00:00Z", status: "open" },
  );
  // a pending ticket of today, and a group chat inside the period: no leads
  await episode(a.id, {}, { status: "pending" });
  await episode(a.id, {}, { isGroup: true, createdAt: "2025-03-10T15:00:00Z" });
  // ratings: Ana 3 and 2 inside (2.5), 1 the day before (out); Beto none
  await rate(a.id, t1.id, agent1, 3, "2025-03-10T12:45:00Z");
  await rate(a.id, t1.id, agent1, 2, "2025-03-11T15:00:00Z");
  await rate(a.id, t1.id, agent1, 1, "2025-03-10T02:00:00Z");

  // company B, same instants, same zone: none of it may show in A
  const b = await buildCompany(t.app, { timeZone: "America/Sao_Paulo" });
  const bAgent = (await buildUser(t.app, b.id, { online: true })).id;
  const bt = await episode(
    b.id,
    { userId: bAgent, queuedAt: "2025-03-10T12:00:00Z", startedAt: "2025-03-10T14:00:00Z", finishedAt: "2025-03-10T20:00:00Z" },
    { createdAt: "2025-03-10T12:00:00Z" },
  );
  await rate(b.id, bt.id, bAgent, 1, "2025-03-10T21:00:00Z");
  await episode(b.id, {}, { status: "pending" });
  await episode(b.id, { startedAt: "2025-03-10T12:00:00Z" }, { status: "open" });

  return { a, s: await login(t.app, a.admin), agent1, agent2, b, bAgent };
}

beforeAll(async () => {
  w = await buildWorld();
});

const PERIOD = "date_from=2025-03-10&date_to=2025-03-11";

describe("#dashboard", () => {
  it("should require authentication", async () => {
    for (const url of [
      "/api/v1/dashboard?days=7",
      "/api/v1/dashboard/tickets-per-hour",
      "/api/v1/dashboard/closed-tickets?days=7",
    ]) {
      expectError(await t.app.inject({ method: "GET", url }), 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("refuses a user profile (403) and lets a subadmin in", async () => {
    const agent = await buildUser(t.app, w.a.id, { profile: "user" });
    const s = await login(t.app, agent);
    for (const url of ["/dashboard?days=7", "/dashboard/tickets-per-hour", "/dashboard/closed-tickets?days=7"]) {
      expectError(await call(s, "GET", url), 403, "ERR_NO_PERMISSION");
    }
    const sub = await login(t.app, await buildUser(t.app, w.a.id, { profile: "subadmin" }));
    expect((await call(sub, "GET", `/dashboard?${PERIOD}`)).statusCode).toBe(200);
  });

  it("answers 400 Parametrize o filtro without days, date_from or date_to", async () => {
    for (const url of ["/dashboard", "/dashboard/closed-tickets", "/dashboard/closed-tickets?pageNumber=2"]) {
      const res = await call(w.s, "GET", url);
      expectError(res, 400, "ERR_DASHBOARD_FILTER");
      expect(res.json().message).toBe("Parametrize o filtro");
    }
  });

  it("validates the filter: periods 3/7/15/30/60/90, real dates, from ≤ to", async () => {
    for (const qs of [
      "days=5",
      "days=abc",
      "date_from=2025-02-30",
      "date_from=10/03/2025",
      "date_from=2025-03-12&date_to=2025-03-10",
    ]) {
      expectError(await call(w.s, "GET", `/dashboard?${qs}`), 400, "ERR_VALIDATION");
    }
    expectError(await call(w.s, "GET", "/dashboard/tickets-per-hour?date=2025-13-01"), 400, "ERR_VALIDATION");
  });

  it("bounds the dates: the last day whose next day PostgreSQL still reads, 400 past it", async () => {
    for (const url of [
      "/dashboard?date_to=9999-12-31",
      "/dashboard?date_from=9999-12-31",
      "/dashboard?date_from=2025-01-01&date_to=9999-12-31",
      "/dashboard/closed-tickets?date_to=9999-12-31",
      "/dashboard/tickets-per-hour?date=9999-12-31",
      "/dashboard?date_from=0001-01-01",
      "/dashboard/tickets-per-hour?date=9999-12-31T12:00:00.000Z",
    ]) {
      expectError(await call(w.s, "GET", url), 400, "ERR_VALIDATION");
    }
    const far = await call(w.s, "GET", "/dashboard?date_from=2025-03-10&date_to=9999-12-30");
    expect(far.statusCode).toBe(200);
    expect(far.json().counters.supportFinished).toBe(4);
    expect((await call(w.s, "GET", "/dashboard/tickets-per-hour?date=9999-12-30")).statusCode).toBe(200);
  });

  it("reads a full ISO timestamp as the company-zone day it falls on", async () => {
    // 2025-03-11T01:30Z is 03-10 22:30 in São Paulo: the 10th
    const hours = (await call(w.s, "GET", "/dashboard/tickets-per-hour?date=2025-03-11T01:30:00.000Z")).json();
    expect(hours.date).toBe("2025-03-10");
    expect(hours.hours.filter((h: { count: number }) => h.count > 0).map((h: { hour: number }) => h.hour)).toEqual([9, 12]);
    const range = await call(w.s, "GET", "/dashboard?date_from=2025-03-10T03:00:00.000Z&date_to=2025-03-11T12:00:00-03:00");
    expect(range.statusCode).toBe(200);
    expect(range.json().period).toEqual({ from: "2025-03-10", to: "2025-03-11" });
    expect(range.json().counters.supportFinished).toBe(3);
    // ordered once read in the zone
    expectError(
      await call(w.s, "GET", "/dashboard?date_from=2025-03-12T12:00:00Z&date_to=2025-03-11T12:00:00Z"),
      400,
      "ERR_VALIDATION",
    );
    expectError(await call(w.s, "GET", "/dashboard/tickets-per-hour?date=2025-03-11T25:00:00Z"), 400, "ERR_VALIDATION");
  });

  it("counts every number of a date range in the company's zone, edges included", async () => {
    const res = await call(w.s, "GET", `/dashboard?${PERIOD}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // core §7: the counters under `counters`, beside `attendants`
    expect(Object.keys(body).sort()).toEqual(["attendants", "counters", "period"]);
    expect(body).toMatchObject({ period: { from: "2025-03-10", to: "2025-03-11" } });
    expect(body.counters).toEqual({
      supportPending: 1,
      supportHappening: 1,
      // e1, e2, e3 (at the start); not e4 (at the end) nor e5 (a second before the start)
      supportFinished: 3,
      leads: 2,
      avgSupportTime: 40, // (30 + 60 + 30) / 3
      avgWaitTime: 23.75, // (10 + 20 + 60 + 5) / 4
    });
    const byId = new Map(body.attendants.map((x: { id: number }) => [x.id, x]));
    expect(byId.get(w.agent1)).toEqual({ id: w.agent1, name: "Ana", rating: 2.5, avgSupportTime: 45, finished: 2, online: true });
    expect(byId.get(w.agent2)).toEqual({
      id: w.agent2,
      name: "Beto",
      rating: null,
      avgSupportTime: 30,
      finished: 1,
      online: false,
    });
    expect(byId.get(w.a.admin.id)).toMatchObject({ rating: null, avgSupportTime: 0, finished: 0, online: false });
    // only company A's people
    expect(byId.has(w.bAgent)).toBe(false);
    expect(byId.has(w.b.admin.id)).toBe(false);
  });

  it("moves with the zone: one day, and the day the end-of-period episode lands in", async () => {
    const day10 = (await call(w.s, "GET", "/dashboard?date_from=2025-03-10&date_to=2025-03-10")).json().counters;
    expect(day10).toMatchObject({ supportFinished: 2, avgSupportTime: 30, avgWaitTime: 10, leads: 1 });
    const day12 = (await call(w.s, "GET", "/dashboard?date_from=2025-03-12&date_to=2025-03-12")).json().counters;
    expect(day12).toMatchObject({ supportFinished: 1, avgSupportTime: 60, avgWaitTime: 0, leads: 0 });
    // local 03-09 holds e5 (23:59:59) but not e3 (which is 03-10 00:00 local)
    const day9 = (await call(w.s, "GET", "/dashboard?date_from=2025-03-09&date_to=2025-03-09")).json().counters;
    expect(day9).toMatchObject({ supportFinished: 1, avgSupportTime: 59.98, avgWaitTime: 45, leads: 1 });
  });

  it("reads date_from alone as through today and date_to alone as from the beginning", async () => {
    const from = (await call(w.s, "GET", "/dashboard?date_from=2025-03-10")).json();
    expect(from.counters.supportFinished).toBe(4);
    const to = (await call(w.s, "GET", "/dashboard?date_to=2025-03-11")).json();
    expect(to).toMatchObject({ period: { from: "1970-01-01", to: "2025-03-11" }, counters: { supportFinished: 4 } });
  });

  it("reads days as the last N days including today", async () => {
    const d = await buildCompany(t.app);
    const s = await login(t.app, d.admin);
    const now = Date.now();
    const ago = (h: number) => new Date(now - h * HOUR);
    await episode(d.id, { userId: d.admin.id, queuedAt: ago(3), startedAt: ago(2), finishedAt: ago(1) });
    await episode(d.id, { userId: d.admin.id, queuedAt: ago(5 * 24 + 2), startedAt: ago(5 * 24 + 1), finishedAt: ago(5 * 24) });
    const three = (await call(s, "GET", "/dashboard?days=3")).json();
    expect(three.counters).toMatchObject({ supportFinished: 1, avgSupportTime: 60, avgWaitTime: 60, leads: 2 });
    expect(three.period.to).toBe(three.period.to.slice(0, 10));
    const seven = (await call(s, "GET", "/dashboard?days=7")).json();
    expect(seven.counters).toMatchObject({ supportFinished: 2, avgSupportTime: 60, avgWaitTime: 60 });
    // days wins over dates
    expect(
      (await call(s, "GET", "/dashboard?days=7&date_from=2020-01-01&date_to=2020-01-01")).json().counters.supportFinished,
    ).toBe(2);
  });

  it("keeps leads right when a contact's first ticket is deleted or moved to another contact", async () => {
    const d = await buildCompany(t.app);
    const s = await login(t.app, d.admin);
    const leads = async (from: string, to: string) =>
      (await call(s, "GET", `/dashboard?date_from=${from}&date_to=${to}`)).json().counters.leads as number;
    const ana = await buildContact(t.app, d.id);
    const old = await buildTicket(t.app, d.id, { contactId: ana.id, status: "closed", createdAt: at("2025-01-05T12:00:00Z") });
    await buildTicket(t.app, d.id, { contactId: ana.id, status: "closed", createdAt: at("2025-02-05T12:00:00Z") });
    expect(await leads("2025-01-01", "2025-01-31")).toBe(1);
    expect(await leads("2025-02-01", "2025-02-28")).toBe(0);
    // her first ticket deleted: her first-ever ticket is now February's
    await t.app.charla.db.delete(tickets).where(eq(tickets.id, old.id));
    expect(await leads("2025-01-01", "2025-01-31")).toBe(0);
    expect(await leads("2025-02-01", "2025-02-28")).toBe(1);
    // contacts merged: a March contact's ticket moves to Beto, whose first ticket was in April
    const beto = await buildContact(t.app, d.id);
    await buildTicket(t.app, d.id, { contactId: beto.id, status: "closed", createdAt: at("2025-04-05T12:00:00Z") });
    const carla = await buildContact(t.app, d.id);
    const march = await buildTicket(t.app, d.id, {
      contactId: carla.id,
      status: "closed",
      createdAt: at("2025-03-05T12:00:00Z"),
    });
    expect(await leads("2025-03-01", "2025-04-30")).toBe(2);
    await t.app.charla.db.update(tickets).set({ contactId: beto.id }).where(eq(tickets.id, march.id));
    expect(await leads("2025-03-01", "2025-03-31")).toBe(1);
    expect(await leads("2025-04-01", "2025-04-30")).toBe(0);
  });

  it("counts today's tickets per local hour, 24 buckets", async () => {
    const res = (await call(w.s, "GET", "/dashboard/tickets-per-hour?date=2025-03-10")).json();
    expect(res.date).toBe("2025-03-10");
    expect(res.hours).toHaveLength(24);
    const counts = Object.fromEntries(
      res.hours.filter((h: { count: number }) => h.count > 0).map((h: { hour: number; count: number }) => [h.hour, h.count]),
    );
    expect(counts).toEqual({ 9: 1, 12: 1 }); // T1 at 12:00Z, the group chat at 15:00Z; T3 (02:00Z) is the 9th's 23h
    const d11 = (await call(w.s, "GET", "/dashboard/tickets-per-hour?date=2025-03-11")).json();
    expect(d11.hours.filter((h: { count: number }) => h.count > 0)).toEqual([
      { hour: 7, count: 1 },
      { hour: 10, count: 1 },
      { hour: 22, count: 1 },
    ]);
    // without a date: today, where the pending ticket was just made
    const today = (await call(w.s, "GET", "/dashboard/tickets-per-hour")).json();
    expect(today.hours.reduce((n: number, h: { count: number }) => n + h.count, 0)).toBeGreaterThanOrEqual(1);
  });

  it("pages the period's closed tickets, newest first, 20 a page", async () => {
    const res = (await call(w.s, "GET", `/dashboard/closed-tickets?${PERIOD}`)).json();
    expect(res.hasMore).toBe(false);
    expect(res.tickets.map((r: { finishedAt: string }) => r.finishedAt)).toEqual([
      "2025-03-11T14:20:00.000Z",
      "2025-03-10T12:40:00.000Z",
      "2025-03-10T03:00:00.000Z",
    ]);
    expect(res.tickets[0].user).toEqual({ id: w.agent1, name: "Ana" });

    const c = await buildCompany(t.app, { timeZone: "UTC" });
    const s = await login(t.app, c.admin);
    for (let i = 0; i < 21; i++) {
      const end = new Date(Date.UTC(2025, 4, 1, 10, i));
      await episode(c.id, { userId: c.admin.id, startedAt: new Date(end.getTime() - 60_000), finishedAt: end });
    }
    const p1 = (await call(s, "GET", "/dashboard/closed-tickets?date_from=2025-05-01&date_to=2025-05-01")).json();
    expect(p1.tickets).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.tickets[0].finishedAt).toBe("2025-05-01T10:20:00.000Z");
    const p2 = (await call(s, "GET", "/dashboard/closed-tickets?date_from=2025-05-01&date_to=2025-05-01&pageNumber=2")).json();
    expect(p2.tickets.map((r: { finishedAt: string }) => r.finishedAt)).toEqual(["2025-05-01T10:00:00.000Z"]);
    expect(p2.hasMore).toBe(false);
  });

  it("never counts another company's data", async () => {
    const sb = await login(t.app, w.b.admin);
    const b = (await call(sb, "GET", `/dashboard?${PERIOD}`)).json();
    expect(b.counters).toMatchObject({
      supportPending: 1,
      supportHappening: 1,
      supportFinished: 1,
      leads: 1,
      avgSupportTime: 360,
      avgWaitTime: 120,
    });
    expect(b.attendants.map((x: { rating: number | null }) => x.rating).filter((r: number | null) => r !== null)).toEqual([1]);
    const closed = (await call(sb, "GET", `/dashboard/closed-tickets?${PERIOD}`)).json();
    expect(closed.tickets).toHaveLength(1);
  });
});
