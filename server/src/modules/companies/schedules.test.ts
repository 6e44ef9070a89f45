import { DEFAULT_SCHEDULES, Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { captureEvents } from "../../test/events.js";
import { buildCompany, buildUser, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const week = [
  { weekdayEn: "monday", startTime: "07:30", endTime: "15:00" },
  { weekdayEn: "saturday", weekday: "Samedi", startTime: "09:00", endTime: "13:00" },
];
const hoursOf = async (id: number) => {
  const [row] = await t.app.charla.db
    .select({ schedules: companies.schedules, timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, id));
  return row;
};

describe("#companies schedules", () => {
  it("should require authentication", async () => {
    for (const method of ["GET", "PUT"] as const) {
      expectError(await t.app.inject({ method, url: "/api/v1/companies/1/schedules" }), 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("starts from core §9's week in America/Noronha", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, await buildUser(t.app, c.id));
    const res = await call(s, "GET", `/companies/${c.id}/schedules`);
    expect(res.json()).toEqual({ id: c.id, schedules: DEFAULT_SCHEDULES, timeZone: "America/Noronha" });
  });

  it("saves the week and zone, reads them back and announces them to the company", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const events = captureEvents(t.app);
    try {
      const res = await call(s, "PUT", `/companies/${c.id}/schedules`, { id: c.id, schedules: week, zone_time: "America/Lima" });
      expect(res.statusCode).toBe(200);
      const view = {
        id: c.id,
        timeZone: "America/Lima",
        schedules: [
          { weekday: "Lunes", weekdayEn: "monday", startTime: "07:30", endTime: "15:00" },
          { weekday: "Sábado", weekdayEn: "saturday", startTime: "09:00", endTime: "13:00" },
        ],
      };
      expect(res.json()).toEqual(view);
      expect((await call(s, "GET", `/companies/${c.id}/schedules`)).json()).toEqual(view);
      expect(events.events).toEqual([
        { companyId: c.id, event: Events.company(c.id), payload: { action: "update", schedules: view } },
      ]);
      // without zone_time the zone stays
      const again = await call(s, "PUT", `/companies/${c.id}/schedules`, { schedules: [] });
      expect(again.json()).toEqual({ id: c.id, schedules: [], timeZone: "America/Lima" });
    } finally {
      events.restore();
    }
  });

  it("answers 404 ERR_NO_COMPANY_FOUND for another company, which keeps its hours", async () => {
    const c = await buildCompany(t.app);
    const other = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    expectError(await call(s, "GET", `/companies/${other.id}/schedules`), 404, "ERR_NO_COMPANY_FOUND");
    expectError(await call(s, "PUT", `/companies/${other.id}/schedules`, { schedules: week }), 404, "ERR_NO_COMPANY_FOUND");
    expectError(await call(s, "PUT", "/companies/2147483647/schedules", { schedules: week }), 404, "ERR_NO_COMPANY_FOUND");
    expect(await hoursOf(other.id)).toEqual({ schedules: DEFAULT_SCHEDULES, timeZone: "America/Noronha" });
  });

  it("lets a super user set another company's hours", async () => {
    const home = await buildCompany(t.app);
    const other = await buildCompany(t.app);
    const sup = await login(t.app, await buildUser(t.app, home.id, { profile: "admin", super: true }));
    const res = await call(sup, "PUT", `/companies/${other.id}/schedules`, { schedules: week, zone_time: "UTC" });
    expect(res.statusCode).toBe(200);
    expect(await hoursOf(other.id)).toMatchObject({
      timeZone: "UTC",
      schedules: [{ weekdayEn: "monday" }, { weekdayEn: "saturday" }],
    });
  });

  it("leaves changing them to admins (403 ERR_NO_PERMISSION)", async () => {
    const c = await buildCompany(t.app);
    for (const profile of ["user", "subadmin", "supervisor"] as const) {
      const s = await login(t.app, await buildUser(t.app, c.id, { profile }));
      expectError(await call(s, "PUT", `/companies/${c.id}/schedules`, { schedules: week }), 403, "ERR_NO_PERMISSION");
    }
    expect(await hoursOf(c.id)).toEqual({ schedules: DEFAULT_SCHEDULES, timeZone: "America/Noronha" });
  });

  it("refuses a bad week, an unknown zone or another company's id in the body (400), saving nothing", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const day = (over: Record<string, string>) => [{ weekdayEn: "monday", startTime: "08:00", endTime: "18:00", ...over }];
    const cases: [Record<string, unknown>, string][] = [
      [{ schedules: day({ weekdayEn: "lunes" }) }, "body.schedules.0.weekdayEn"],
      [{ schedules: day({ startTime: "12:00", endTime: "11:59" }) }, "body.schedules.0.endTime"],
      [{ schedules: day({ endTime: "24:00" }) }, "body.schedules.0.endTime"],
      [{ schedules: [...day({}), ...day({})] }, "body.schedules"],
      [{ schedules: week, zone_time: "Mars/Olympus" }, "body.zone_time"],
      [{ zone_time: "America/Lima" }, "body.schedules"],
      [{ id: c.id + 1, schedules: week }, "body.id"],
    ];
    for (const [body, path] of cases) {
      const res = await call(s, "PUT", `/companies/${c.id}/schedules`, body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(
        res.json().issues.map((i: { path: string }) => i.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await hoursOf(c.id)).toEqual({ schedules: DEFAULT_SCHEDULES, timeZone: "America/Noronha" });
  });
});
