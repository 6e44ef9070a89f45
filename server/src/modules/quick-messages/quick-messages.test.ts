import { randomBytes } from "node:crypto";
import { Events, type Profile, type QuickMessageView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickMessages } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({ maxUploadBytes: 64 * 1024 });
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);

const call = caller(() => t.app);
const form = (over: Record<string, unknown> = {}) => ({ shortcode: `hola${uid()}`, message: "Hola, ¿en qué te ayudo?", ...over });
async function sessionIn(profile: Profile = "admin") {
  const c = await buildCompany(t.app);
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, u, s: await login(t.app, u) };
}
async function colleague(companyId: number, profile: Profile = "user") {
  const u = await buildUser(t.app, companyId, { profile });
  return { u, s: await login(t.app, u) };
}
const create = async (s: Session, over: Record<string, unknown> = {}) => {
  const res = await call(s, "POST", "/quick-messages", form(over));
  expect(res.statusCode).toBe(201);
  return res.json() as QuickMessageView;
};
const rowsOf = (companyId: number) => t.app.charla.db.select().from(quickMessages).where(eq(quickMessages.companyId, companyId));

const upload = (s: Session, id: number, body: ReturnType<typeof multipart>) =>
  as(t.app, s, { method: "POST", url: `/api/v1/quick-messages/${id}/media-upload`, ...body });
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(256)]);

describe("#quick-messages auth", () => {
  it("should require authentication", async () => {
    const routes: [InjectOptions["method"], string][] = [
      ["GET", "/quick-messages"],
      ["GET", "/quick-messages/list"],
      ["GET", "/quick-messages/1"],
      ["POST", "/quick-messages"],
      ["PUT", "/quick-messages/1"],
      ["DELETE", "/quick-messages/1"],
      ["POST", "/quick-messages/1/media-upload"],
      ["DELETE", "/quick-messages/1/media-upload"],
      ["GET", "/quick-messages/1/media"],
    ];
    for (const [method, url] of routes) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
  });
});

describe("#quick-messages CRUD", () => {
  it("creates a shared, active reply (201), reads it back and announces it to the company once committed", async () => {
    const { c, u, s } = await sessionIn();
    const events = listen();
    const view = await create(s, { shortcode: "  /saludo  ", message: "Hola" });
    expect(view).toEqual({
      id: expect.any(Number),
      shortcode: "saludo",
      message: "Hola",
      geral: true,
      status: true,
      isMedia: false,
      mediaName: null,
      mediaUrl: null,
      userId: u.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await call(s, "GET", `/quick-messages/${view.id}`)).json()).toEqual(view);
    expect(events.events).toEqual([
      { companyId: c.id, event: Events.quickMessage(c.id), payload: { action: "create", record: view } },
    ]);
    expect(Events.quickMessage(c.id)).toBe(`company-${c.id}-quickemessage`);
  });

  it("updates every field (PUT) and deletes (204), with events; a missing id is 404", async () => {
    const { c, s } = await sessionIn();
    const view = await create(s);
    const events = listen();
    const res = await call(s, "PUT", `/quick-messages/${view.id}`, {
      shortcode: "nuevo",
      message: "Otro",
      geral: true,
      status: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: view.id, shortcode: "nuevo", message: "Otro", status: false });
    expect((await call(s, "DELETE", `/quick-messages/${view.id}`)).statusCode).toBe(204);
    expect(events.on(Events.quickMessage(c.id))).toEqual([
      { action: "update", record: res.json() },
      { action: "delete", id: view.id },
    ]);
    expect(await rowsOf(c.id)).toEqual([]);
    expectError(await call(s, "GET", `/quick-messages/${view.id}`), 404, "ERR_NOT_FOUND");
    expectError(await call(s, "PUT", `/quick-messages/${view.id}`, form()), 404, "ERR_NOT_FOUND");
    expectError(await call(s, "DELETE", `/quick-messages/${view.id}`), 404, "ERR_NOT_FOUND");
  });

  it("validates: shortcode required ('Obligatorio' = validation.mandatory), no spaces, booleans; nothing written", async () => {
    const { c, s } = await sessionIn();
    for (const body of [{}, { shortcode: "" }, { shortcode: "   " }, { shortcode: "/" }]) {
      const res = await call(s, "POST", "/quick-messages", body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues).toContainEqual(
        expect.objectContaining({ path: "body.shortcode", message: "validation.mandatory" }),
      );
    }
    expectError(await call(s, "POST", "/quick-messages", form({ shortcode: "dos palabras" })), 400, "ERR_VALIDATION");
    expectError(await call(s, "POST", "/quick-messages", form({ geral: "si" })), 400, "ERR_VALIDATION");
    expectError(await call(s, "POST", "/quick-messages", form({ message: "a\u0000b" })), 400, "ERR_VALIDATION");
    expect(await rowsOf(c.id)).toEqual([]);
  });

  it("refuses a shortcode the same author already has in the company (ERR_VALIDATION on shortcode)", async () => {
    const { c, s } = await sessionIn();
    const first = await create(s, { shortcode: "dup" });
    const res = await call(s, "POST", "/quick-messages", form({ shortcode: "dup" }));
    expectError(res, 400, "ERR_VALIDATION");
    expect(res.json().issues).toEqual([expect.objectContaining({ path: "shortcode", message: "validation.shortcodeTaken" })]);
    const other = await create(s, { shortcode: "otro" });
    expectError(await call(s, "PUT", `/quick-messages/${other.id}`, form({ shortcode: "dup" })), 400, "ERR_VALIDATION");
    // another user may use the same code; so may another company
    await create((await colleague(c.id)).s, { shortcode: "dup" });
    await create((await sessionIn()).s, { shortcode: "dup" });
    expect((await rowsOf(c.id)).map((r) => r.id).sort()).toContain(first.id);
  });
});

describe("#quick-messages list", () => {
  it("pages 20 at a time by shortcode with count and hasMore, and searches shortcode and message", async () => {
    const { s } = await sessionIn();
    for (let i = 0; i < 23; i++)
      await create(s, { shortcode: `c${String(i).padStart(2, "0")}`, message: i === 7 ? "Horario de atención" : "x" });
    const one = (await call(s, "GET", "/quick-messages")).json();
    expect(one.records).toHaveLength(20);
    expect(one).toMatchObject({ count: 23, hasMore: true });
    expect(one.records[0].shortcode).toBe("c00");
    const two = (await call(s, "GET", "/quick-messages?pageNumber=2")).json();
    expect(two.records.map((r: QuickMessageView) => r.shortcode)).toEqual(["c20", "c21", "c22"]);
    expect(two.hasMore).toBe(false);
    const found = (await call(s, "GET", "/quick-messages?searchParam=HORARIO")).json();
    expect(found.records.map((r: QuickMessageView) => r.shortcode)).toEqual(["c07"]);
    expect((await call(s, "GET", "/quick-messages?searchParam=c2")).json().count).toBe(23); // under 3 characters: no search
    expect((await call(s, "GET", "/quick-messages?searchParam=c2%25")).json().count).toBe(0); // LIKE characters are literal
  });

  it("shows a user the company's shared replies and their own, never a colleague's own nor another company's", async () => {
    const { c, s } = await sessionIn();
    const mate = await colleague(c.id);
    const shared = await create(s, { shortcode: "shared" });
    const adminOwn = await create(s, { shortcode: "admin-own", geral: false });
    const mateOwn = await create(mate.s, { shortcode: "mate-own", geral: false });
    await create((await sessionIn()).s, { shortcode: "foreign" });
    const codes = async (who: Session) =>
      (await call(who, "GET", "/quick-messages")).json().records.map((r: QuickMessageView) => r.shortcode);
    expect(await codes(s)).toEqual(["admin-own", "shared"]);
    expect(await codes(mate.s)).toEqual(["mate-own", "shared"]);
    expectError(await call(mate.s, "GET", `/quick-messages/${adminOwn.id}`), 404, "ERR_NOT_FOUND");
    expectError(await call(s, "GET", `/quick-messages/${mateOwn.id}`), 404, "ERR_NOT_FOUND");
    expect((await call(mate.s, "GET", `/quick-messages/${shared.id}`)).statusCode).toBe(200);
  });

  it("offers the composer only active replies it may see", async () => {
    const { c, s } = await sessionIn();
    const mate = await colleague(c.id);
    await create(s, { shortcode: "a-on" });
    await create(s, { shortcode: "b-off", status: false });
    await create(mate.s, { shortcode: "c-mate", geral: false });
    await create(s, { shortcode: "d-mine", geral: false });
    const list = (await call(s, "GET", "/quick-messages/list")).json() as QuickMessageView[];
    expect(list.map((r) => r.shortcode)).toEqual(["a-on", "d-mine"]);
  });
});

describe("#quick-messages permissions", () => {
  it("lets a user edit and delete their own; another user's own answers 404 and stays", async () => {
    const { c, s } = await sessionIn();
    const mate = await colleague(c.id);
    const adminOwn = await create(s, { shortcode: "admin-own", geral: false });
    expectError(await call(mate.s, "PUT", `/quick-messages/${adminOwn.id}`, form()), 404, "ERR_NOT_FOUND");
    expectError(await call(mate.s, "DELETE", `/quick-messages/${adminOwn.id}`), 404, "ERR_NOT_FOUND");
    expectError(await upload(mate.s, adminOwn.id, multipart("file", "a.pdf", "application/pdf", PDF)), 404, "ERR_NOT_FOUND");
    expectError(await call(mate.s, "DELETE", `/quick-messages/${adminOwn.id}/media-upload`), 404, "ERR_NOT_FOUND");
    const mine = await create(mate.s, { geral: false });
    const mineShared = await create(mate.s, { shortcode: "mate-shared" });
    const edited = await call(
      mate.s,
      "PUT",
      `/quick-messages/${mineShared.id}`,
      form({ shortcode: "mate-shared", message: "Mío" }),
    );
    expect(edited.json()).toMatchObject({ message: "Mío", geral: true, userId: mate.u.id });
    expect((await call(mate.s, "DELETE", `/quick-messages/${mine.id}`)).statusCode).toBe(204);
    expect((await call(mate.s, "DELETE", `/quick-messages/${mineShared.id}`)).statusCode).toBe(204);
    expect((await rowsOf(c.id)).map((r) => r.id)).toEqual([adminOwn.id]);
  });

  it("an agent uses a colleague's shared reply but may not change, hide or delete it (403); its author and staff may", async () => {
    const { c, s } = await sessionIn();
    const mate = await colleague(c.id);
    const shared = await create(s, { shortcode: "shared", message: "De la empresa" });
    const before = await rowsOf(c.id);
    for (const res of [
      await call(mate.s, "PUT", `/quick-messages/${shared.id}`, form({ shortcode: "shared", message: "Editado" })),
      await call(mate.s, "PUT", `/quick-messages/${shared.id}`, form({ shortcode: "shared", geral: false })),
      await call(mate.s, "DELETE", `/quick-messages/${shared.id}`),
      await upload(mate.s, shared.id, multipart("file", "a.pdf", "application/pdf", PDF)),
      await call(mate.s, "DELETE", `/quick-messages/${shared.id}/media-upload`),
    ])
      expectError(res, 403, "ERR_NO_PERMISSION");
    expect(await rowsOf(c.id)).toEqual(before);
    // the refused upload was never read: nothing stored, nothing counted
    expect((await call(s, "GET", `/quick-messages/${shared.id}`)).json()).toMatchObject({
      isMedia: false,
      message: "De la empresa",
    });
    // the admin still sees it, and the agent still uses it
    expect((await call(mate.s, "GET", "/quick-messages/list")).json().map((r: QuickMessageView) => r.id)).toContain(shared.id);
    for (const profile of ["supervisor", "subadmin"] as const) {
      const staff = await colleague(c.id, profile);
      const res = await call(staff.s, "PUT", `/quick-messages/${shared.id}`, form({ shortcode: "shared", message: profile }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ message: profile, geral: true, userId: c.admin.id });
    }
    const agentShared = await create(mate.s, { shortcode: "del-agente" });
    const supervisor = await colleague(c.id, "supervisor");
    expect((await call(supervisor.s, "DELETE", `/quick-messages/${agentShared.id}`)).statusCode).toBe(204);
    expect((await call(s, "DELETE", `/quick-messages/${shared.id}`)).statusCode).toBe(204);
    expect(await rowsOf(c.id)).toEqual([]);
  });

  it("sends own replies' events to their author only; a shared one made private leaves the others' lists", async () => {
    const { c, s } = await sessionIn();
    const mate = await colleague(c.id);
    const events = listen();
    const own = await create(mate.s, { geral: false });
    const shared = await create(mate.s);
    // staff may make an agent's shared reply private: it becomes the editor's own
    const priv = (
      await call(s, "PUT", `/quick-messages/${shared.id}`, form({ shortcode: shared.shortcode, geral: false }))
    ).json();
    expect(priv).toMatchObject({ geral: false, userId: c.admin.id });
    await call(mate.s, "DELETE", `/quick-messages/${own.id}`);
    const name = Events.quickMessage(c.id);
    expect(events.events).toEqual([
      { companyId: c.id, event: name, payload: { action: "create", record: own }, to: [mate.u.id] },
      { companyId: c.id, event: name, payload: { action: "create", record: shared } },
      { companyId: c.id, event: name, payload: { action: "update", record: priv }, to: [c.admin.id] },
      { companyId: c.id, event: name, payload: { action: "delete", id: shared.id }, except: [c.admin.id] },
      { companyId: c.id, event: name, payload: { action: "delete", id: own.id }, to: [mate.u.id] },
    ]);
    expectError(await call(mate.s, "GET", `/quick-messages/${shared.id}`), 404, "ERR_NOT_FOUND");
  });

  it("answers 404 for another company's reply and leaves it as it was", async () => {
    const { c, s } = await sessionIn();
    const view = await create(s);
    const other = await sessionIn();
    expectError(await call(other.s, "GET", `/quick-messages/${view.id}`), 404, "ERR_NOT_FOUND");
    expectError(await call(other.s, "PUT", `/quick-messages/${view.id}`, form()), 404, "ERR_NOT_FOUND");
    expectError(await call(other.s, "DELETE", `/quick-messages/${view.id}`), 404, "ERR_NOT_FOUND");
    expect((await rowsOf(c.id)).map((r) => r.shortcode)).toEqual([view.shortcode]);
  });
});

describe("#quick-messages media", () => {
  it("stores any file as the reply's media, serves it to its company, replaces and deletes it", async () => {
    const { c, s } = await sessionIn();
    const view = await create(s);
    const events = listen();
    const res = await upload(s, view.id, multipart("file", "Catálogo 2026.pdf", "application/pdf", PDF));
    expect(res.statusCode).toBe(200);
    const withFile = res.json() as QuickMessageView;
    expect(withFile).toMatchObject({
      isMedia: true,
      mediaName: "Catálogo 2026.pdf",
      mediaUrl: `/api/v1/quick-messages/${view.id}/media`,
    });
    expect(events.on(Events.quickMessage(c.id))).toEqual([{ action: "update", record: withFile }]);
    const [row] = await rowsOf(c.id);
    expect(row.mediaPath).toMatch(/^quick-messages\/\d+-[0-9a-f-]+\.pdf$/);

    const mate = await colleague(c.id);
    const served = await call(mate.s, "GET", `/quick-messages/${view.id}/media`);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.rawPayload.equals(PDF)).toBe(true);
    expect(served.headers["content-disposition"]).toContain(encodeURIComponent("Catálogo 2026.pdf"));

    // any type a message may carry, served as a download when a browser should not show it
    const doc = Buffer.from("PK\u0003\u0004 a document");
    const replaced = await upload(s, view.id, multipart("file", "notas.docx", "application/octet-stream", doc));
    expect(replaced.json()).toMatchObject({ mediaName: "notas.docx" });
    const [after] = await rowsOf(c.id);
    expect(after.mediaPath).not.toBe(row.mediaPath);
    await expect(t.app.charla.storage.read(c.id, row.mediaPath as string)).rejects.toThrow();
    const dl = await call(s, "GET", `/quick-messages/${view.id}/media`);
    expect(dl.headers["content-type"]).toBe("application/octet-stream");
    expect(dl.headers["content-disposition"]).toMatch(/^attachment/);

    const removed = await call(s, "DELETE", `/quick-messages/${view.id}/media-upload`);
    expect(removed.json()).toMatchObject({ isMedia: false, mediaName: null, mediaUrl: null });
    await expect(t.app.charla.storage.read(c.id, after.mediaPath as string)).rejects.toThrow();
    expectError(await call(s, "GET", `/quick-messages/${view.id}/media`), 404, "ERR_NOT_FOUND");
  });

  it("refuses another company's user (404), a missing file field and a file over the limit; nothing stored", async () => {
    const { c, s } = await sessionIn();
    const view = await create(s);
    await upload(s, view.id, multipart("file", "a.pdf", "application/pdf", PDF));
    const other = await sessionIn();
    expectError(await call(other.s, "GET", `/quick-messages/${view.id}/media`), 404, "ERR_NOT_FOUND");
    expectError(await upload(other.s, view.id, multipart("file", "b.pdf", "application/pdf", PDF)), 404, "ERR_NOT_FOUND");
    expectError(await call(other.s, "DELETE", `/quick-messages/${view.id}/media-upload`), 404, "ERR_NOT_FOUND");
    expectError(await upload(s, view.id, multipart("other", "b.pdf", "application/pdf", PDF)), 400, "ERR_VALIDATION");
    expectError(
      await upload(s, view.id, multipart("file", "big.bin", "application/octet-stream", randomBytes(70 * 1024))),
      413,
      "ERR_FILE_TOO_LARGE",
    );
    const [row] = await rowsOf(c.id);
    expect(row.mediaName).toBe("a.pdf");
    expect((await call(s, "GET", `/quick-messages/${view.id}/media`)).rawPayload.equals(PDF)).toBe(true);
  });

  it("removes the reply's file with the reply", async () => {
    const { c, s } = await sessionIn();
    const view = await create(s);
    await upload(s, view.id, multipart("file", "a.pdf", "application/pdf", PDF));
    const [row] = await rowsOf(c.id);
    await call(s, "DELETE", `/quick-messages/${view.id}`);
    await expect(t.app.charla.storage.read(c.id, row.mediaPath as string)).rejects.toThrow();
  });
});
