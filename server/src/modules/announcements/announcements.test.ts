import { randomBytes } from "node:crypto";
import { type AnnouncementView, Events, type Profile } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcements } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";
import { badMultiparts } from "../../test/walks/uploads.js";

/*
 * Management is for super users (secondary §6); reading the active ones is for every user of every
 * company (an announcement is platform-wide), so no company's id is "foreign" to the bell's routes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({ maxUploadBytes: 64 * 1024 });
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);

async function superSession() {
  const c = await buildCompany(t.app);
  const u = await buildUser(t.app, c.id, { profile: "admin", super: true });
  return { c, u, s: await login(t.app, u) };
}
async function sessionIn(profile: Profile = "admin") {
  const c = await buildCompany(t.app);
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, u, s: await login(t.app, u) };
}
const form = (over: Record<string, unknown> = {}) => ({ title: `Aviso ${uid()}`, text: "Mantenimiento el domingo", ...over });
const create = async (s: Session, over: Record<string, unknown> = {}) => {
  const res = await call(s, "POST", "/announcements", form(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AnnouncementView;
};
const upload = (s: Session, id: number, body: { payload: Buffer | string; headers: Record<string, string> }) =>
  as(t.app, s, { method: "POST", url: `/api/v1/announcements/${id}/media-upload`, ...body });
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]);

const MANAGEMENT: [InjectOptions["method"], string][] = [
  ["GET", "/announcements"],
  ["GET", "/announcements/1"],
  ["POST", "/announcements"],
  ["PUT", "/announcements/1"],
  ["DELETE", "/announcements/1"],
  ["POST", "/announcements/1/media-upload"],
  ["DELETE", "/announcements/1/media-upload"],
];
const READING: [InjectOptions["method"], string][] = [
  ["GET", "/announcements/for-me"],
  ["POST", "/announcements/1/read"],
  ["GET", "/announcements/1/media"],
];

describe("#announcements auth", () => {
  it("should require authentication", async () => {
    for (const [method, url] of [...MANAGEMENT, ...READING]) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
  });

  it("refuses management to every non-super profile (403 ERR_NO_PERMISSION) and writes nothing", async () => {
    const sup = await superSession();
    const a = await create(sup.s);
    for (const profile of ["admin", "subadmin", "supervisor", "user"] as const) {
      const { s } = await sessionIn(profile);
      for (const [method, url] of MANAGEMENT) {
        const res = await call(s, method, url.replace("/1", `/${a.id}`), method === "GET" ? undefined : form());
        expectError(res, 403, "ERR_NO_PERMISSION");
        expect(res.json().data).toEqual({ reason: "super" });
      }
    }
    const [row] = await t.app.charla.db.select().from(announcements).where(eq(announcements.id, a.id));
    expect(row).toMatchObject({ title: a.title, text: a.text });
  });
});

describe("#announcements management (super users)", () => {
  it("creates with the defaults (priority 3, active), reads back, lists and searches; events reach every company", async () => {
    const { c, s } = await superSession();
    const other = await buildCompany(t.app);
    const events = listen();
    const view = await create(s, { title: "  Nuevo plan  ", text: "Texto" });
    expect(view).toEqual({
      id: expect.any(Number),
      title: "Nuevo plan",
      text: "Texto",
      priority: 3,
      status: true,
      mediaName: null,
      mediaUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [row] = await t.app.charla.db.select().from(announcements).where(eq(announcements.id, view.id));
    expect(row.companyId).toBe(c.id);
    expect((await call(s, "GET", `/announcements/${view.id}`)).json()).toEqual(view);
    // platform-wide: the writer's company and any other one hear it, each on its own channel
    for (const id of [c.id, other.id]) {
      expect(events.on(Events.announcement(id))).toEqual([{ action: "create", record: view }]);
      expect(events.events.find((e) => e.event === Events.announcement(id))).toMatchObject({ companyId: id });
    }
    expect(Events.announcement(c.id)).toBe(`company-${c.id}-announcement`);

    const marker = uid();
    const found = await create(s, { title: `Buscado ${marker}` });
    const page = (await call(s, "GET", `/announcements?searchParam=${marker}`)).json();
    expect(page).toEqual({ records: [found], count: 1, hasMore: false });
    const byText = (await call(s, "GET", `/announcements?searchParam=${encodeURIComponent("Texto")}`)).json();
    expect(byText.records.map((r: AnnouncementView) => r.id)).toContain(view.id);
  });

  it("a super user of another company manages it too (platform data); PUT and DELETE tell every company", async () => {
    const writer = await superSession();
    const editor = await superSession();
    const bystander = await buildCompany(t.app);
    const view = await create(writer.s);
    const events = listen();
    const res = await call(editor.s, "PUT", `/announcements/${view.id}`, {
      title: "Cambio",
      text: "Otro",
      priority: "1",
      status: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: view.id, title: "Cambio", text: "Otro", priority: 1, status: false });
    expect((await call(editor.s, "DELETE", `/announcements/${view.id}`)).statusCode).toBe(204);
    expect(events.on(Events.announcement(bystander.id))).toEqual([
      { action: "update", record: res.json() },
      { action: "delete", id: view.id },
    ]);
    expect(events.on(Events.announcement(writer.c.id))).toHaveLength(2);
    for (const [method, url] of MANAGEMENT.filter(([, u]) => u.includes("/1"))) {
      expectError(
        await call(editor.s, method, url.replace("/1", `/${view.id}`), method === "GET" ? undefined : form()),
        404,
        "ERR_NOT_FOUND",
      );
    }
    expectError(await call(editor.s, "PUT", "/announcements/987654", form()), 404, "ERR_NOT_FOUND");
  });

  it("validates: title and text required, priority 1..3, and writes nothing", async () => {
    const { s } = await superSession();
    const before = (await t.app.charla.db.select().from(announcements)).length;
    const cases: [object, string][] = [
      [{ text: "x" }, "body.title"],
      [{ title: "   ", text: "x" }, "body.title"],
      [{ title: "x" }, "body.text"],
      [{ title: "x", text: "" }, "body.text"],
      [{ title: "x", text: "y", priority: 4 }, "body.priority"],
      [{ title: "x", text: "y", priority: "alta" }, "body.priority"],
      [{ title: "x".repeat(201), text: "y" }, "body.title"],
    ];
    for (const [body, path] of cases) {
      const res = await call(s, "POST", "/announcements", body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    const required = await call(s, "POST", "/announcements", {});
    expect(required.json().issues).toContainEqual(
      expect.objectContaining({ path: "body.title", message: "validation.required" }),
    );
    expect((await t.app.charla.db.select().from(announcements)).length).toBeGreaterThanOrEqual(before);
    expect((await t.app.charla.db.select().from(announcements).where(eq(announcements.title, "x"))).length).toBe(0);
  });
});

describe("#announcements image", () => {
  it("takes a png or a jpeg checked by its bytes, serves it to every logged-in user while active, removes it", async () => {
    const { s } = await superSession();
    const view = await create(s);
    const png = await upload(s, view.id, multipart("file", "aviso.png", "image/png", PNG));
    expect(png.statusCode, png.body).toBe(200);
    expect(png.json()).toMatchObject({ mediaName: "aviso.png", mediaUrl: `/api/v1/announcements/${view.id}/media` });
    const jpeg = await upload(s, view.id, multipart("file", "foto.JPEG", "application/octet-stream", JPEG));
    expect(jpeg.json()).toMatchObject({ mediaName: "foto.JPEG" });

    // any company's user sees the image of an active announcement
    const reader = await sessionIn("user");
    const got = await call(reader.s, "GET", `/announcements/${view.id}/media`);
    expect(got.statusCode).toBe(200);
    expect(got.headers["content-type"]).toBe("image/jpeg");
    expect(got.rawPayload.equals(JPEG)).toBe(true);

    // inactive: gone for them, still there for super users
    await call(s, "PUT", `/announcements/${view.id}`, form({ status: false }));
    expectError(await call(reader.s, "GET", `/announcements/${view.id}/media`), 404, "ERR_NOT_FOUND");
    expect((await call(s, "GET", `/announcements/${view.id}/media`)).statusCode).toBe(200);

    const removed = await call(s, "DELETE", `/announcements/${view.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
    expectError(await call(s, "GET", `/announcements/${view.id}/media`), 404, "ERR_NOT_FOUND");
  });

  it("refuses what is not a png or jpeg by its bytes, a name the bytes contradict, too big or malformed; keeps nothing", async () => {
    const { s } = await superSession();
    const view = await create(s);
    const refused: [ReturnType<typeof multipart>, number, string][] = [
      [multipart("file", "falso.png", "image/png", Buffer.from("GIF89a not a png at all")), 400, "ERR_INVALID_FILE_TYPE"],
      [multipart("file", "doc.pdf", "application/pdf", Buffer.from("%PDF-1.4\n")), 400, "ERR_INVALID_FILE_TYPE"],
      [multipart("file", "foto.jpg", "image/jpeg", PNG), 400, "ERR_INVALID_FILE_TYPE"],
      [multipart("file", "anim.gif", "image/gif", Buffer.from("GIF89a....")), 400, "ERR_INVALID_FILE_TYPE"],
      [multipart("file", "big.png", "image/png", Buffer.concat([PNG, randomBytes(70 * 1024)])), 413, "ERR_FILE_TOO_LARGE"],
    ];
    for (const [body, status, code] of refused) {
      const res = await upload(s, view.id, body);
      expect(res.json().error, res.body).toBe(code);
      expect(res.statusCode).toBe(status);
    }
    for (const bad of badMultiparts("file")) {
      const res = await upload(s, view.id, { payload: bad.payload, headers: { "content-type": bad.contentType } });
      expect(res.statusCode, bad.name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, bad.name).toBeLessThan(500);
    }
    const [row] = await t.app.charla.db.select().from(announcements).where(eq(announcements.id, view.id));
    expect(row.mediaPath).toBeNull();
    expectError(await upload(s, 987654, multipart("file", "a.png", "image/png", PNG)), 404, "ERR_NOT_FOUND");
  });
});
