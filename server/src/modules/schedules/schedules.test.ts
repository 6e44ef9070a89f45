import { Events, type ScheduleView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schedules } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildContact, buildUser, buildWhatsapp, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({ maxUploadBytes: 64 * 1024 });
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
async function world(plan: { useSchedules?: boolean } = {}) {
  const c = await buildCompany(t.app, { plan });
  const s = await login(t.app, c.admin);
  const contact = await buildContact(t.app, c.id, { name: `Ana ${uid()}`, number: `5511${Date.now() % 1e9}` });
  return { c, s, contact };
}
const create = async (s: Session, contactId: number, over: Record<string, unknown> = {}) => {
  const res = await call(s, "POST", "/schedules", { contactId, body: "Hola {{name}}", sendAt: inHours(2), ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ScheduleView;
};
const setStatus = (id: number, status: "ENVIANDO" | "ENVIADA") =>
  t.app.charla.db
    .update(schedules)
    .set({ status, lockedUntil: new Date(Date.now() + 60_000) })
    .where(eq(schedules.id, id));

const ROUTES: [InjectOptions["method"], string][] = [
  ["GET", "/schedules"],
  ["GET", "/schedules/upcoming"],
  ["GET", "/schedules/1"],
  ["POST", "/schedules"],
  ["PUT", "/schedules/1"],
  ["POST", "/schedules/1/cancel"],
  ["DELETE", "/schedules/1"],
  ["POST", "/schedules/1/media-upload"],
  ["DELETE", "/schedules/1/media-upload"],
  ["GET", "/schedules/1/media"],
];

describe("#schedules access", () => {
  it("should require authentication", async () => {
    for (const [method, url] of ROUTES) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("answers 403 on every route when the company's plan has no schedules", async () => {
    const { s } = await world({ useSchedules: false });
    for (const [method, url] of ROUTES) {
      const res = await call(s, method, url, method === "GET" ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("lets an agent (profile user) schedule too", async () => {
    const { c, contact } = await world();
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    const view = await create(agent, contact.id);
    expect(view.userId).toBe(agent.userId);
  });

  it("finds no schedule, contact or connection of another company (404)", async () => {
    const a = await world();
    const b = await world();
    const mine = await create(a.s, a.contact.id);
    const foreignWa = await buildWhatsapp(t.app, a.c.id);
    expectError(await call(b.s, "GET", `/schedules/${mine.id}`), 404, "ERR_SCHEDULE_NOT_FOUND");
    expectError(
      await call(b.s, "PUT", `/schedules/${mine.id}`, { contactId: b.contact.id, body: "x", sendAt: inHours(3) }),
      404,
      "ERR_SCHEDULE_NOT_FOUND",
    );
    expectError(await call(b.s, "DELETE", `/schedules/${mine.id}`), 404, "ERR_SCHEDULE_NOT_FOUND");
    expectError(await call(b.s, "POST", `/schedules/${mine.id}/cancel`), 404, "ERR_SCHEDULE_NOT_FOUND");
    expectError(await call(b.s, "DELETE", `/schedules/${mine.id}/media-upload`), 404, "ERR_SCHEDULE_NOT_FOUND");
    expectError(
      await call(b.s, "POST", "/schedules", { contactId: a.contact.id, body: "x", sendAt: inHours(1) }),
      404,
      "ERR_NO_CONTACT_FOUND",
    );
    expectError(
      await call(b.s, "POST", "/schedules", { contactId: b.contact.id, body: "x", sendAt: inHours(1), whatsappId: foreignWa.id }),
      404,
      "ERR_NO_WAPP_FOUND",
    );
    const list = (await call(b.s, "GET", "/schedules/")).json();
    expect(list.schedules.map((x: ScheduleView) => x.id)).not.toContain(mine.id);
  });
});

describe("#schedules validation", () => {
  it("refuses a blank body, a bad time, a weekly repeat without days and a past time", async () => {
    const { s, contact } = await world();
    const bad = async (over: Record<string, unknown>, path: string) => {
      const res = await call(s, "POST", "/schedules", { contactId: contact.id, body: "Hola", sendAt: inHours(1), ...over });
      expectError(res, 400, "ERR_VALIDATION");
      expect(JSON.stringify(res.json())).toContain(path);
    };
    await bad({ body: "   " }, "body");
    await bad({ sendAt: "mañana" }, "sendAt");
    await bad({ contactId: "x" }, "contactId");
    await bad({ repeat: "weekly", repeatDays: [] }, "repeatDays");
    await bad({ repeat: "hourly" }, "repeat");
    await bad({ repeat: "weekly", repeatDays: [7] }, "repeatDays");
    expectError(
      await call(s, "POST", "/schedules", { contactId: contact.id, body: "Hola", sendAt: inHours(-2) }),
      400,
      "ERR_SCHEDULE_PAST",
    );
  });
});

describe("#schedules CRUD", () => {
  it("creates (201) in the company's zone, lists with hasMore, finds by search, reads, updates and deletes, live", async () => {
    const { c, s, contact } = await world();
    const events = listen();
    const view = await create(s, contact.id, { repeat: "weekly", repeatDays: [5, 1, 1] });
    expect(view).toMatchObject({
      status: "PENDENTE",
      body: "Hola {{name}}",
      contact: { id: contact.id, name: contact.name },
      user: { id: c.admin.id },
      timezone: "America/Noronha",
      repeat: "weekly",
      repeatDays: [1, 5],
      late: false,
      error: null,
      mediaUrl: null,
    });
    expect(events.on(Events.schedule(c.id))).toEqual([{ action: "create", record: view }]);

    const page = (await call(s, "GET", "/schedules/?pageNumber=1")).json();
    expect(page).toMatchObject({ hasMore: false, count: 1, schedules: [{ id: view.id }] });
    expect((await call(s, "GET", `/schedules?searchParam=${encodeURIComponent(contact.name)}`)).json().schedules).toHaveLength(1);
    expect((await call(s, "GET", "/schedules?searchParam=zzzzz")).json().schedules).toHaveLength(0);
    expect((await call(s, "GET", `/schedules/${view.id}`)).json()).toEqual(view);

    const put = await call(s, "PUT", `/schedules/${view.id}`, { contactId: contact.id, body: "Cambio", sendAt: inHours(5) });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ body: "Cambio", repeat: "none", repeatDays: [] });
    expect(events.on(Events.schedule(c.id)).at(-1)).toMatchObject({ action: "update", record: { body: "Cambio" } });

    expect((await call(s, "DELETE", `/schedules/${view.id}`)).statusCode).toBe(204);
    expect(events.on(Events.schedule(c.id)).at(-1)).toEqual({ action: "delete", id: view.id });
    expectError(await call(s, "GET", `/schedules/${view.id}`), 404, "ERR_SCHEDULE_NOT_FOUND");
  });

  it("pages 20 at a time", async () => {
    const { c, s, contact } = await world();
    await t.app.charla.db.insert(schedules).values(
      Array.from({ length: 21 }, (_, i) => ({
        companyId: c.id,
        contactId: contact.id,
        body: `n${i}`,
        sendAt: new Date(Date.now() + (i + 1) * 60_000),
      })),
    );
    const first = (await call(s, "GET", "/schedules")).json();
    expect(first.schedules).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const second = (await call(s, "GET", "/schedules?pageNumber=2")).json();
    expect(second).toMatchObject({ hasMore: false, schedules: [{ body: "n0" }] });
  });

  it("refuses to change, cancel or delete one being sent, and to change one sent", async () => {
    const { s, contact } = await world();
    const view = await create(s, contact.id);
    await setStatus(view.id, "ENVIANDO");
    const form = { contactId: contact.id, body: "x", sendAt: inHours(3) };
    expectError(await call(s, "PUT", `/schedules/${view.id}`, form), 409, "ERR_SCHEDULE_SENDING");
    expectError(await call(s, "DELETE", `/schedules/${view.id}`), 409, "ERR_SCHEDULE_SENDING");
    expectError(await call(s, "POST", `/schedules/${view.id}/cancel`), 409, "ERR_SCHEDULE_SENDING");
    expectError(await call(s, "DELETE", `/schedules/${view.id}/media-upload`), 409, "ERR_SCHEDULE_SENDING");
    await setStatus(view.id, "ENVIADA");
    expectError(await call(s, "PUT", `/schedules/${view.id}`, form), 409, "ERR_SCHEDULE_SENT");
    expect((await call(s, "DELETE", `/schedules/${view.id}`)).statusCode).toBe(204);
  });

  it("saving a failed one arms it again (PENDENTE, no error); the list narrows to one contact", async () => {
    const { c, s, contact } = await world();
    const view = await create(s, contact.id);
    await t.app.charla.db
      .update(schedules)
      .set({ status: "ERRO", error: "ERR_WAPP_INVALID_CONTACT", sendAt: new Date(Date.now() - 3_600_000) })
      .where(eq(schedules.id, view.id));
    expect((await call(s, "GET", `/schedules/${view.id}`)).json()).toMatchObject({
      status: "ERRO",
      error: "ERR_WAPP_INVALID_CONTACT",
    });
    const form = {
      contactId: contact.id,
      body: "Otra vez",
      sendAt: (await call(s, "GET", `/schedules/${view.id}`)).json().sendAt,
    };
    const again = await call(s, "PUT", `/schedules/${view.id}`, form);
    expect(again.json()).toMatchObject({ status: "PENDENTE", error: null, body: "Otra vez" });
    const other = await buildContact(t.app, c.id, { name: `Otro ${uid()}`, number: `5512${Date.now() % 1e9}` });
    await create(s, other.id);
    const mine = (await call(s, "GET", `/schedules?contactId=${contact.id}`)).json();
    expect(mine.schedules.map((x: ScheduleView) => x.id)).toEqual([view.id]);
  });

  it("cancels a pending one (CANCELADA)", async () => {
    const { s, contact } = await world();
    const view = await create(s, contact.id);
    const res = await call(s, "POST", `/schedules/${view.id}/cancel`);
    expect(res.json()).toMatchObject({ id: view.id, status: "CANCELADA" });
  });

  it("shows what goes out in the next 24 h, company-wide, soonest first", async () => {
    const { c, s, contact } = await world();
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    const later = await create(s, contact.id, { sendAt: inHours(20) });
    const soon = await create(agent, contact.id, { sendAt: inHours(1) });
    await create(s, contact.id, { sendAt: inHours(30) });
    const other = await world();
    await create(other.s, other.contact.id, { sendAt: inHours(1) });
    const res = (await call(s, "GET", "/schedules/upcoming")).json();
    expect(res.schedules.map((x: ScheduleView) => x.id)).toEqual([soon.id, later.id]);
    expect(res.hasMore).toBe(false);
  });
});

describe("#schedules media", () => {
  const upload = (s: Session, id: number, data: Buffer, name = "menu.pdf") =>
    as(t.app, s, {
      method: "POST",
      url: `/api/v1/schedules/${id}/media-upload`,
      ...multipart("file", name, "application/pdf", data),
    });

  it("uploads, serves, replaces and removes the file; a too large one is refused", async () => {
    const { s, contact } = await world();
    const view = await create(s, contact.id);
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(200, 1)]);
    const up = await upload(s, view.id, pdf);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ mediaName: "menu.pdf", mediaUrl: `/api/v1/schedules/${view.id}/media` });
    const got = await call(s, "GET", `/schedules/${view.id}/media`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(pdf)).toBe(true);
    expectError(await upload(s, view.id, Buffer.alloc(70 * 1024, 1)), 413, "ERR_FILE_TOO_LARGE");
    const removed = await call(s, "DELETE", `/schedules/${view.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
    expectError(await call(s, "GET", `/schedules/${view.id}/media`), 404, "ERR_SCHEDULE_NOT_FOUND");
  });

  it("refuses an upload without a file part", async () => {
    const { s, contact } = await world();
    const view = await create(s, contact.id);
    expectError(await call(s, "POST", `/schedules/${view.id}/media-upload`, {}), 400, "ERR_VALIDATION");
  });
});
