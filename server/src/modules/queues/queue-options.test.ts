import type { Profile, QueueOptionView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueOptions } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type Session, buildCompany, buildQueue, buildUser, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

/** A company with one area, and a session in it (its admin unless a profile is given). */
async function areaIn(profile: Profile = "admin") {
  const c = await buildCompany(t.app);
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, queue: await buildQueue(t.app, c.id), s: await login(t.app, u) };
}

async function add(s: Session, queueId: number, title: string, parentId?: number): Promise<QueueOptionView> {
  const res = await call(s, "POST", "/queue-options", { queueId, parentId, title, message: `Mensaje ${title}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function level(s: Session, queueId: number, parentId?: number) {
  const res = await call(s, "GET", `/queue-options?queueId=${queueId}${parentId === undefined ? "" : `&parentId=${parentId}`}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as QueueOptionView[]).map((o) => [o.option, o.title, o.childrenCount]);
}

const optionsOf = (queueId: number) => t.app.charla.db.select().from(queueOptions).where(eq(queueOptions.queueId, queueId));

describe("#queue-options auth", () => {
  it("should require authentication", async () => {
    const routes: [InjectOptions["method"], string][] = [
      ["GET", "/queue-options?queueId=1"],
      ["POST", "/queue-options"],
      ["PUT", "/queue-options/1"],
      ["DELETE", "/queue-options/1"],
    ];
    for (const [method, url] of routes) {
      expectError(await t.app.inject({ method, url: `/api/v1${url}` }), 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("lets an agent read the tree but not change it (403 ERR_NO_PERMISSION)", async () => {
    const { c, queue, s } = await areaIn("user");
    const admin = await login(t.app, c.admin);
    const one = await add(admin, queue.id, "Ventas");
    expect(await level(s, queue.id)).toEqual([["1", "Ventas", 0]]);
    expectError(await call(s, "POST", "/queue-options", { queueId: queue.id, title: "Otra" }), 403, "ERR_NO_PERMISSION");
    expectError(await call(s, "PUT", `/queue-options/${one.id}`, { title: "Otra" }), 403, "ERR_NO_PERMISSION");
    expectError(await call(s, "DELETE", `/queue-options/${one.id}`), 403, "ERR_NO_PERMISSION");
    expect((await optionsOf(queue.id)).map((o) => o.title)).toEqual(["Ventas"]);
  });
});

describe("#queue-options tree", () => {
  it("appends each option after its siblings and counts children", async () => {
    const { queue, s } = await areaIn();
    const ventas = await add(s, queue.id, "Ventas");
    expect(ventas).toEqual({
      id: expect.any(Number),
      queueId: queue.id,
      parentId: null,
      title: "Ventas",
      message: "Mensaje Ventas",
      option: "1",
      q_integration_id: null,
      promptId: null,
      childrenCount: 0,
    });
    const soporte = await add(s, queue.id, "Soporte");
    await add(s, queue.id, "Otros");
    const nested = await add(s, queue.id, "Facturas", soporte.id);
    expect(nested).toMatchObject({ parentId: soporte.id, option: "1" });
    await add(s, queue.id, "Garantía", soporte.id);
    expect(await level(s, queue.id)).toEqual([
      ["1", "Ventas", 0],
      ["2", "Soporte", 2],
      ["3", "Otros", 0],
    ]);
    // -1 is what the web sends for the roots (core §7), the same as no parentId
    expect(await level(s, queue.id, -1)).toEqual(await level(s, queue.id));
    expect(await level(s, queue.id, soporte.id)).toEqual([
      ["1", "Facturas", 0],
      ["2", "Garantía", 0],
    ]);
  });

  it("numbers ten and more siblings in order", async () => {
    const { queue, s } = await areaIn();
    for (let i = 1; i <= 11; i++) await add(s, queue.id, `Opción ${i}`);
    const options = await level(s, queue.id);
    expect(options.map(([option]) => option)).toEqual(Array.from({ length: 11 }, (_, i) => String(i + 1)));
    expect(options[9]).toEqual(["10", "Opción 10", 0]);
  });

  it("deleting '2' of 1, 2, 3 removes its subtree and makes the old 3 the new '2'", async () => {
    const { queue, s } = await areaIn();
    const [uno, dos, tres] = [await add(s, queue.id, "Uno"), await add(s, queue.id, "Dos"), await add(s, queue.id, "Tres")];
    const hijo = await add(s, queue.id, "Hijo", dos.id);
    await add(s, queue.id, "Nieto", hijo.id);
    const deUno = await add(s, queue.id, "De uno", uno.id);

    expect((await call(s, "DELETE", `/queue-options/${dos.id}`)).statusCode).toBe(204);
    expect(await level(s, queue.id)).toEqual([
      ["1", "Uno", 1],
      ["2", "Tres", 0],
    ]);
    const rows = await optionsOf(queue.id);
    expect(rows.map((o) => o.id).sort()).toEqual([uno.id, tres.id, deUno.id].sort());
    expect(rows.find((o) => o.id === tres.id)?.option).toBe("2");
    expectError(await call(s, "GET", `/queue-options?queueId=${queue.id}&parentId=${dos.id}`), 404, "ERR_NO_QUEUE_OPTION_FOUND");
    expectError(await call(s, "DELETE", `/queue-options/${dos.id}`), 404, "ERR_NO_QUEUE_OPTION_FOUND");
  });

  it("renumbers only the deleted option's level", async () => {
    const { queue, s } = await areaIn();
    const padre = await add(s, queue.id, "Padre");
    await add(s, queue.id, "Hermano");
    const [a, b, c] = [
      await add(s, queue.id, "A", padre.id),
      await add(s, queue.id, "B", padre.id),
      await add(s, queue.id, "C", padre.id),
    ];
    expect((await call(s, "DELETE", `/queue-options/${a.id}`)).statusCode).toBe(204);
    expect(await level(s, queue.id, padre.id)).toEqual([
      ["1", "B", 0],
      ["2", "C", 0],
    ]);
    expect(await level(s, queue.id)).toEqual([
      ["1", "Padre", 2],
      ["2", "Hermano", 0],
    ]);
    expect([b.option, c.option]).toEqual(["2", "3"]);
  });

  it("gives simultaneous additions to one level distinct numbers", async () => {
    const { queue, s } = await areaIn();
    const made = await Promise.all(["A", "B", "C"].map((title) => add(s, queue.id, title)));
    expect(made.map((o) => o.option).sort()).toEqual(["1", "2", "3"]);
  });

  it("edits title and message; leaving one out keeps it", async () => {
    const { queue, s } = await areaIn();
    const root = await add(s, queue.id, "Ventas");
    await add(s, queue.id, "Hijo", root.id);
    const res = await call(s, "PUT", `/queue-options/${root.id}`, { title: "Ventas mayoristas" });
    expect(res.json()).toEqual({ ...root, title: "Ventas mayoristas", childrenCount: 1 });
    const msg = await call(s, "PUT", `/queue-options/${root.id}`, { message: "Escribe tu RFC" });
    expect(msg.json()).toMatchObject({ title: "Ventas mayoristas", message: "Escribe tu RFC", option: "1" });
  });

  it("validates the forms and the query (400 ERR_VALIDATION), writing nothing", async () => {
    const { queue, s } = await areaIn();
    const cases: [string, string, unknown, string][] = [
      ["POST", "/queue-options", { queueId: queue.id, title: "   " }, "body.title"],
      ["POST", "/queue-options", { title: "Sin área" }, "body.queueId"],
      ["POST", "/queue-options", { queueId: queue.id, title: "x".repeat(101) }, "body.title"],
      ["GET", "/queue-options", undefined, "querystring.queueId"],
      ["GET", `/queue-options?queueId=${queue.id}&parentId=-2`, undefined, "querystring.parentId"],
    ];
    for (const [method, url, body, path] of cases) {
      const res = await call(s, method as "GET", url, body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(
        res.json().issues.map((i: { path: string }) => i.path),
        url,
      ).toContain(path);
    }
    expect(await optionsOf(queue.id)).toEqual([]);
  });
});

describe("#queue-options tenancy", () => {
  it("answers 404 for another company's queue, parent or option, and leaves theirs alone", async () => {
    const { s } = await areaIn();
    const theirs = await areaIn();
    const option = await add(theirs.s, theirs.queue.id, "Suya");
    const mine = (await call(s, "GET", "/queue")).json()[0];
    expectError(await call(s, "GET", `/queue-options?queueId=${theirs.queue.id}`), 404, "ERR_NO_QUEUE_FOUND");
    expectError(await call(s, "POST", "/queue-options", { queueId: theirs.queue.id, title: "X" }), 404, "ERR_NO_QUEUE_FOUND");
    const foreignParent = { queueId: mine.id, parentId: option.id, title: "X" };
    expectError(await call(s, "POST", "/queue-options", foreignParent), 404, "ERR_NO_QUEUE_OPTION_FOUND");
    expectError(
      await call(s, "GET", `/queue-options?queueId=${mine.id}&parentId=${option.id}`),
      404,
      "ERR_NO_QUEUE_OPTION_FOUND",
    );
    expectError(await call(s, "PUT", `/queue-options/${option.id}`, { title: "Mía" }), 404, "ERR_NO_QUEUE_OPTION_FOUND");
    expectError(await call(s, "DELETE", `/queue-options/${option.id}`), 404, "ERR_NO_QUEUE_OPTION_FOUND");
    expect(await optionsOf(theirs.queue.id)).toMatchObject([{ id: option.id, title: "Suya", option: "1" }]);
    expect(await optionsOf(mine.id)).toEqual([]);
  });

  it("refuses a parent from another area of the same company", async () => {
    const { c, queue, s } = await areaIn();
    const other = await buildQueue(t.app, c.id);
    const parent = await add(s, other.id, "De otra área");
    expectError(
      await call(s, "POST", "/queue-options", { queueId: queue.id, parentId: parent.id, title: "X" }),
      404,
      "ERR_NO_QUEUE_OPTION_FOUND",
    );
    expectError(
      await call(s, "GET", `/queue-options?queueId=${queue.id}&parentId=${parent.id}`),
      404,
      "ERR_NO_QUEUE_OPTION_FOUND",
    );
    expect(await optionsOf(queue.id)).toEqual([]);
  });
});
