import type { HelpView } from "@charla/contracts";
import { youtubeIdOf } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const VIDEO = "dQw4w9WgXcQ";
const form = (over: Record<string, unknown> = {}) => ({
  title: `Cómo atender ${uid()}`,
  description: "Primeros pasos en la bandeja",
  video: VIDEO,
  ...over,
});
/** A super user (platform administrator) in a company of their own. */
async function superSession() {
  const c = await buildCompany(t.app);
  const u = await buildUser(t.app, c.id, { profile: "admin", super: true });
  return { c, s: await login(t.app, u) };
}
const create = async (s: Session, over: Record<string, unknown> = {}) => {
  const res = await call(s, "POST", "/helps", form(over));
  expect(res.statusCode).toBe(201);
  return res.json() as HelpView;
};

describe("#helps auth", () => {
  it("should require authentication", async () => {
    const routes: [InjectOptions["method"], string][] = [
      ["GET", "/helps"],
      ["GET", "/helps/list"],
      ["POST", "/helps"],
      ["PUT", "/helps/1"],
      ["DELETE", "/helps/1"],
    ];
    for (const [method, url] of routes) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("refuses management to anyone who is not a super user, an admin included (403), and changes nothing", async () => {
    const { s: sup } = await superSession();
    const help = await create(sup);
    const c = await buildCompany(t.app);
    for (const profile of ["admin", "user", "supervisor"] as const) {
      const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
      const s = await login(t.app, u);
      expectError(await call(s, "GET", "/helps/list"), 403, "ERR_NO_PERMISSION");
      expectError(await call(s, "POST", "/helps", form()), 403, "ERR_NO_PERMISSION");
      expectError(await call(s, "PUT", `/helps/${help.id}`, form({ title: "Cambiado" })), 403, "ERR_NO_PERMISSION");
      expectError(await call(s, "DELETE", `/helps/${help.id}`), 403, "ERR_NO_PERMISSION");
    }
    const [row] = await t.app.charla.db.select().from(helps).where(eq(helps.id, help.id));
    expect(row.title).toBe(help.title);
  });
});

describe("#helps read", () => {
  it("every user of every company reads every help video: title, description and video id", async () => {
    const { s: sup } = await superSession();
    const help = await create(sup, { description: "Filtros y búsquedas" });
    const other = await buildCompany(t.app);
    const agent = await buildUser(t.app, other.id, { profile: "user" });
    const res = await call(await login(t.app, agent), "GET", "/helps");
    expect(res.statusCode).toBe(200);
    const found = (res.json() as HelpView[]).find((h) => h.id === help.id);
    expect(found).toMatchObject({ title: help.title, description: "Filtros y búsquedas", video: VIDEO });
  });
});

describe("#helps manage", () => {
  it("creates, lists, updates and deletes a help video", async () => {
    const { s } = await superSession();
    const help = await create(s);
    expect(help).toMatchObject({ description: "Primeros pasos en la bandeja", video: VIDEO });

    const list = await call(s, "GET", "/helps/list");
    expect(list.statusCode).toBe(200);
    expect((list.json() as HelpView[]).map((h) => h.id)).toEqual([help.id]);

    const put = await call(s, "PUT", `/helps/${help.id}`, form({ title: "Etiquetas", description: "", video: "abcDEF_-123" }));
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ id: help.id, title: "Etiquetas", description: "", video: "abcDEF_-123" });

    expect((await call(s, "DELETE", `/helps/${help.id}`)).statusCode).toBe(204);
    expect(await t.app.charla.db.select().from(helps).where(eq(helps.id, help.id))).toEqual([]);
    expectError(await call(s, "DELETE", `/helps/${help.id}`), 404, "ERR_NOT_FOUND");
  });

  it("keeps the id of a pasted YouTube link", async () => {
    const { s } = await superSession();
    const links = [
      `https://www.youtube.com/watch?v=${VIDEO}&t=42s`,
      `https://youtu.be/${VIDEO}?si=abc`,
      `youtube.com/shorts/${VIDEO}`,
      `https://www.youtube-nocookie.com/embed/${VIDEO}`,
      `https://m.youtube.com/watch?feature=share&v=${VIDEO}`,
    ];
    for (const video of links) expect((await create(s, { video })).video, video).toBe(VIDEO);
  });

  it("answers a wrong form with ERR_VALIDATION and the field", async () => {
    const { s } = await superSession();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: undefined }, "title", "validation.required"],
      [{ title: "" }, "title", "validation.required"],
      [{ title: "   " }, "title", "validation.required"],
      [{ title: "x".repeat(201) }, "title", "validation.tooLong"],
      [{ description: "x".repeat(2001) }, "description", "validation.tooLong"],
      [{ video: "" }, "video", "validation.required"],
      [{ video: "dQw4w9WgXc" }, "video", "validation.invalid"],
      [{ video: "dQw4w9WgXcQQ" }, "video", "validation.invalid"],
      [{ video: "dQw4w9W<XcQ" }, "video", "validation.invalid"],
      [{ video: `https://evil.example/watch?v=${VIDEO}` }, "video", "validation.invalid"],
      [{ video: `javascript:alert(1)//${VIDEO}` }, "video", "validation.invalid"],
      [{ video: 12345678901 }, "video", "validation.invalid"],
    ];
    for (const [over, path, message] of cases) {
      const res = await call(s, "POST", "/helps", form(over));
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues, JSON.stringify(over)).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: `body.${path}`, message })]),
      );
    }
    const help = await create(s);
    expectError(await call(s, "PUT", `/helps/${help.id}`, form({ video: "nope" })), 400, "ERR_VALIDATION");
    expectError(await call(s, "PUT", "/helps/abc", form()), 400, "ERR_VALIDATION");
  });

  it("another company's help video is not found for changes, and is not in the caller's table", async () => {
    const { s: a } = await superSession();
    const { s: b } = await superSession();
    const help = await create(a);
    expectError(await call(b, "PUT", `/helps/${help.id}`, form({ title: "Ajeno" })), 404, "ERR_NOT_FOUND");
    expectError(await call(b, "DELETE", `/helps/${help.id}`), 404, "ERR_NOT_FOUND");
    expectError(await call(b, "PUT", "/helps/2147483647", form()), 404, "ERR_NOT_FOUND");
    expect((await call(b, "GET", "/helps/list")).json()).toEqual([]);
    const [row] = await t.app.charla.db.select().from(helps).where(eq(helps.id, help.id));
    expect(row.title).toBe(help.title);
  });
});

describe("youtubeIdOf", () => {
  it("reads an id or a YouTube link and nothing else", () => {
    expect(youtubeIdOf(` ${VIDEO} `)).toBe(VIDEO);
    expect(youtubeIdOf(`http://youtube.com/live/${VIDEO}/`)).toBe(VIDEO);
    expect(youtubeIdOf(`https://www.youtube.com/watch?v=${VIDEO}x`)).toBeNull();
    expect(youtubeIdOf(`https://youtube.com.evil.test/embed/${VIDEO}`)).toBeNull();
    expect(youtubeIdOf("")).toBeNull();
  });
});
