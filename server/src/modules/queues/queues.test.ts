import { DEFAULT_SCHEDULES, Events, type Profile, type QueueView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, plans, prompts, queueOptions, queues, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import {
  addUserQueue,
  buildCompany,
  buildContact,
  buildQueue,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
} from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);

const call = caller(() => t.app);
const form = (over: Record<string, unknown> = {}) => ({ name: `Ventas ${uid()}`, color: `#${uid().slice(0, 6)}`, ...over });
async function sessionIn(profile: Profile = "admin", plan: { queues?: number } = {}) {
  const c = await buildCompany(t.app, { plan });
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, s: await login(t.app, u) };
}
const queuesOf = (companyId: number) => t.app.charla.db.select().from(queues).where(eq(queues.companyId, companyId));

describe("#queues auth", () => {
  it("should require authentication", async () => {
    const routes: [InjectOptions["method"], string][] = [
      ["GET", "/queue"],
      ["GET", "/queue/1"],
      ["POST", "/queue"],
      ["PUT", "/queue/1"],
      ["DELETE", "/queue/1"],
    ];
    for (const [method, url] of routes) {
      expectError(await t.app.inject({ method, url: `/api/v1${url}` }), 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("lets every profile read but only admins and subadmins write (403 ERR_NO_PERMISSION, nothing written)", async () => {
    const { c, s } = await sessionIn("user");
    const q = await buildQueue(t.app, c.id, { name: "Soporte" });
    expect((await call(s, "GET", "/queue")).json().map((x: QueueView) => x.id)).toEqual([q.id]);
    expect((await call(s, "GET", `/queue/${q.id}`)).json()).toMatchObject({ id: q.id, name: "Soporte" });
    expectError(await call(s, "POST", "/queue", form()), 403, "ERR_NO_PERMISSION");
    expectError(await call(s, "PUT", `/queue/${q.id}`, form({ name: "Otra" })), 403, "ERR_NO_PERMISSION");
    expectError(await call(s, "DELETE", `/queue/${q.id}`), 403, "ERR_NO_PERMISSION");
    expect((await queuesOf(c.id)).map((x) => x.name)).toEqual(["Soporte"]);

    const sub = await login(t.app, await buildUser(t.app, c.id, { profile: "subadmin" }));
    expect((await call(sub, "POST", "/queue", form())).statusCode).toBe(201);
  });
});

describe("#queues.create", () => {
  it("creates an area with core §9's defaults (201), readable whole and announced once committed", async () => {
    const { c, s } = await sessionIn();
    const events = listen();
    const res = await call(s, "POST", "/queue", form({ name: "  Ventas  ", color: "#B80000", greetingMessage: "Hola" }));
    expect(res.statusCode).toBe(201);
    const view = res.json() as QueueView;
    expect(view).toEqual({
      id: expect.any(Number),
      name: "Ventas",
      color: "#B80000",
      orderQueue: null,
      greetingMessage: "Hola",
      complationMessage: "",
      outOfHoursMessage: "",
      ratingMessage: "",
      timeZone: "America/Noronha",
      schedules: DEFAULT_SCHEDULES,
      promptId: null,
      integrationId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await call(s, "GET", `/queue/${view.id}`)).json()).toEqual(view);
    expect(events.events).toEqual([{ companyId: c.id, event: Events.queue(c.id), payload: { action: "create", queue: view } }]);
  });

  it("stores zone_time as timeZone, the week with its Spanish labels, the order and the messages", async () => {
    const { c, s } = await sessionIn();
    // the area's prompt is one of the company's own, and its plan has prompts (automation/references.ts)
    const [prompt] = await t.app.charla.db.insert(prompts).values({ companyId: c.id, name: "P", prompt: "p" }).returning();
    const [company] = await t.app.charla.db.select().from(companies).where(eq(companies.id, c.id));
    await t.app.charla.db.update(plans).set({ useOpenAi: true }).where(eq(plans.id, company.planId));
    const schedules = [
      { weekdayEn: "monday", weekday: "Whatever", startTime: "09:00", endTime: "17:30" },
      { weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
    ];
    const res = await call(
      s,
      "POST",
      "/queue",
      form({ zone_time: "America/Sao_Paulo", schedules, orderQueue: 3, outOfHoursMessage: "Cerrado", promptId: prompt.id }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      timeZone: "America/Sao_Paulo",
      orderQueue: 3,
      outOfHoursMessage: "Cerrado",
      promptId: prompt.id,
      schedules: [
        { weekday: "Lunes", weekdayEn: "monday", startTime: "09:00", endTime: "17:30" },
        { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
      ],
    });
  });

  it("refuses a bad form with 400 ERR_VALIDATION and its paths, writing and announcing nothing", async () => {
    const { c, s } = await sessionIn();
    const events = listen();
    const day = (over: Record<string, string>) => [{ weekdayEn: "monday", startTime: "08:00", endTime: "18:00", ...over }];
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "A" }, "body.name", "validation.tooShort"],
      [{ color: "red" }, "body.color", "validation.invalid"],
      [{ color: "#12" }, "body.color", "validation.invalid"],
      [{ color: "#1234567890" }, "body.color", "validation.tooLong"],
      [{ schedules: day({ weekdayEn: "funday" }) }, "body.schedules.0.weekdayEn", "validation.invalid"],
      [{ schedules: day({ startTime: "18:00", endTime: "08:00" }) }, "body.schedules.0.endTime", "validation.invalid"],
      [{ schedules: day({ startTime: "8am" }) }, "body.schedules.0.startTime", "validation.invalid"],
      [{ zone_time: "Mars/Olympus" }, "body.zone_time", "validation.invalid"],
    ];
    for (const [over, path, message] of cases) {
      const res = await call(s, "POST", "/queue", form(over));
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues, JSON.stringify(over)).toContainEqual({ path, message });
    }
    const twice = await call(s, "POST", "/queue", form({ schedules: [...day({}), ...day({})] }));
    expectError(twice, 400, "ERR_VALIDATION");
    expect(await queuesOf(c.id)).toEqual([]);
    expect(events.events).toEqual([]);
  });

  it("keeps colour and name unique per company (409), other companies aside", async () => {
    const { c, s } = await sessionIn();
    const other = await buildCompany(t.app);
    await buildQueue(t.app, other.id, { name: "Cobranza", color: "#C1E1C5" });
    expect((await call(s, "POST", "/queue", form({ name: "Cobranza", color: "#C1E1C5" }))).statusCode).toBe(201);
    expectError(await call(s, "POST", "/queue", form({ color: "#C1E1C5" })), 409, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    expectError(await call(s, "POST", "/queue", form({ name: "Cobranza" })), 409, "ERR_QUEUE_NAME_ALREADY_EXISTS");
    // both taken: the spec's colour code comes first
    expectError(
      await call(s, "POST", "/queue", form({ name: "Cobranza", color: "#C1E1C5" })),
      409,
      "ERR_QUEUE_COLOR_ALREADY_EXISTS",
    );
    expect(await queuesOf(c.id)).toHaveLength(1);
  });

  it("lets only one of two simultaneous creations with one colour through", async () => {
    const { c, s } = await sessionIn();
    const color = "#0C797D";
    const results = await Promise.all([call(s, "POST", "/queue", form({ color })), call(s, "POST", "/queue", form({ color }))]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().error).toBe("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    expect((await queuesOf(c.id)).map((q) => q.color)).toEqual([color]);
  });

  it("stops at the plan's number of areas (403 ERR_QUEUE_LIMIT_REACHED), also when asked at once", async () => {
    const { c, s } = await sessionIn("admin", { queues: 2 });
    expect((await call(s, "POST", "/queue", form())).statusCode).toBe(201);
    const racing = await Promise.all([call(s, "POST", "/queue", form()), call(s, "POST", "/queue", form())]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    expectError(racing.find((r) => r.statusCode === 403) ?? racing[0], 403, "ERR_QUEUE_LIMIT_REACHED");
    expectError(await call(s, "POST", "/queue", form()), 403, "ERR_QUEUE_LIMIT_REACHED");
    expect(await queuesOf(c.id)).toHaveLength(2);
  });
});

describe("#queues.list and read", () => {
  it("lists the company's areas whole, numbered ones first by orderQueue, then the rest by name", async () => {
    const { c, s } = await sessionIn();
    await buildQueue(t.app, (await buildCompany(t.app)).id, { name: "Ajena" });
    const zeta = await buildQueue(t.app, c.id, { name: "Zeta", orderQueue: 1 });
    const beta = await buildQueue(t.app, c.id, { name: "Beta", orderQueue: null });
    const alfa = await buildQueue(t.app, c.id, { name: "Alfa", orderQueue: null });
    const omega = await buildQueue(t.app, c.id, { name: "Omega", orderQueue: 0 });
    const list = (await call(s, "GET", "/queue")).json() as QueueView[];
    expect(list.map((q) => q.id)).toEqual([omega.id, zeta.id, alfa.id, beta.id]);
    // the same whole view as GET /queue/:id (whose fields the create test pins down)
    expect(list[0]).toEqual((await call(s, "GET", `/queue/${omega.id}`)).json());
  });

  it("answers 404 ERR_NO_QUEUE_FOUND for another company's area on GET, PUT and DELETE, leaving it as it was", async () => {
    const { s } = await sessionIn();
    const other = await buildCompany(t.app);
    const theirs = await buildQueue(t.app, other.id, { name: "Suya" });
    expectError(await call(s, "GET", `/queue/${theirs.id}`), 404, "ERR_NO_QUEUE_FOUND");
    expectError(await call(s, "PUT", `/queue/${theirs.id}`, form({ name: "Mía" })), 404, "ERR_NO_QUEUE_FOUND");
    expectError(await call(s, "DELETE", `/queue/${theirs.id}`), 404, "ERR_NO_QUEUE_FOUND");
    expectError(await call(s, "GET", "/queue/2147483647"), 404, "ERR_NO_QUEUE_FOUND");
    expect(await queuesOf(other.id)).toEqual([theirs]);
  });
});

describe("#queues.update", () => {
  it("replaces the form's fields, keeps zone and hours when not sent, and announces the new view", async () => {
    const { c, s } = await sessionIn();
    const schedules = [{ weekday: "Lunes", weekdayEn: "monday", startTime: "10:00", endTime: "11:00" }];
    const made = (await call(s, "POST", "/queue", form({ zone_time: "America/Bogota", schedules, orderQueue: 2 }))).json();
    const events = listen();
    const res = await call(s, "PUT", `/queue/${made.id}`, { name: "Postventa", color: "#FAD0C3", ratingMessage: "¿Qué tal?" });
    expect(res.statusCode).toBe(200);
    const view = res.json() as QueueView;
    expect(view).toMatchObject({
      id: made.id,
      name: "Postventa",
      color: "#FAD0C3",
      ratingMessage: "¿Qué tal?",
      timeZone: "America/Bogota",
      schedules,
      orderQueue: 2,
    });
    expect(events.on(Events.queue(c.id))).toEqual([{ action: "update", queue: view }]);
    // an explicit null takes the order away; a colour may stay its own
    const cleared = await call(s, "PUT", `/queue/${made.id}`, { ...form({ color: "#FAD0C3" }), orderQueue: null });
    expect(cleared.json()).toMatchObject({ orderQueue: null, color: "#FAD0C3" });
  });

  it("maps a colour taken by another area to 409, even by two edits at once", async () => {
    const { c, s } = await sessionIn();
    const [a, b, x] = await Promise.all([buildQueue(t.app, c.id), buildQueue(t.app, c.id), buildQueue(t.app, c.id)]);
    expectError(await call(s, "PUT", `/queue/${a.id}`, form({ color: x.color })), 409, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    expectError(await call(s, "PUT", `/queue/${a.id}`, form({ name: x.name })), 409, "ERR_QUEUE_NAME_ALREADY_EXISTS");
    const racing = await Promise.all([
      call(s, "PUT", `/queue/${a.id}`, form({ color: "#68CCCA" })),
      call(s, "PUT", `/queue/${b.id}`, form({ color: "#68CCCA" })),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(racing.find((r) => r.statusCode === 409)?.json().error).toBe("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    expect((await queuesOf(c.id)).filter((q) => q.color === "#68CCCA")).toHaveLength(1);
  });

  it("changes nothing on a validation error", async () => {
    const { c, s } = await sessionIn();
    const q = await buildQueue(t.app, c.id);
    const res = await call(s, "PUT", `/queue/${q.id}`, form({ zone_time: "Mars/Olympus" }));
    expectError(res, 400, "ERR_VALIDATION");
    expect(await queuesOf(c.id)).toEqual([q]);
  });
});

describe("#queues.delete", () => {
  it("deletes in one go: tickets stay without it, links and options go, users and connections are announced", async () => {
    const { c, s } = await sessionIn();
    const [gone, kept] = [await buildQueue(t.app, c.id), await buildQueue(t.app, c.id)];
    const agent = await buildUser(t.app, c.id);
    await addUserQueue(t.app, c.id, agent.id, gone.id);
    await addUserQueue(t.app, c.id, agent.id, kept.id);
    const wa = await buildWhatsapp(t.app, c.id, { sendIdQueue: gone.id });
    await t.app.charla.db.insert(whatsappQueues).values([
      { companyId: c.id, whatsappId: wa.id, queueId: gone.id },
      { companyId: c.id, whatsappId: wa.id, queueId: kept.id },
    ]);
    const ticket = await buildTicket(t.app, c.id, { contactId: (await buildContact(t.app, c.id)).id, queueId: gone.id });
    const root = (await call(s, "POST", "/queue-options", { queueId: gone.id, title: "Uno" })).json();
    await call(s, "POST", "/queue-options", { queueId: gone.id, parentId: root.id, title: "Uno.Uno" });
    const events = listen();

    expect((await call(s, "DELETE", `/queue/${gone.id}`)).statusCode).toBe(204);
    expectError(await call(s, "GET", `/queue/${gone.id}`), 404, "ERR_NO_QUEUE_FOUND");
    expect((await call(s, "GET", `/tickets/${ticket.id}`)).json()).toMatchObject({ id: ticket.id, queueId: null });
    const db = t.app.charla.db;
    expect(await db.select().from(queueOptions).where(eq(queueOptions.queueId, gone.id))).toEqual([]);
    const [conn] = await db.select().from(whatsapps).where(eq(whatsapps.id, wa.id));
    expect(conn).toMatchObject({ sendIdQueue: null, updatedAt: wa.updatedAt });

    expect(events.on(Events.queue(c.id))).toEqual([{ action: "delete", queueId: gone.id }]);
    const [userEvent] = events.on(Events.user(c.id)) as { action: string; user: { id: number; queues: { id: number }[] } }[];
    expect(userEvent).toMatchObject({ action: "update", user: { id: agent.id, queues: [{ id: kept.id }] } });
    const connEvents = events.on(Events.whatsapp(c.id)) as { action: string; whatsapp: Record<string, unknown> }[];
    expect(connEvents.length).toBeGreaterThan(0);
    for (const e of connEvents) {
      expect(e).toMatchObject({ action: "update", whatsapp: { id: wa.id, sendIdQueue: null, queues: [{ id: kept.id }] } });
    }
    expect((await call(s, "GET", `/users/${agent.id}`)).json().queues).toEqual([
      { id: kept.id, name: kept.name, color: kept.color },
    ]);
  });
});
