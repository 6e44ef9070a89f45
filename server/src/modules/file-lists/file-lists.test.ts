import { type FileListView, Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileListOptions } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { campaignCompany, listOf, newCampaign, outboxOf, runCampaigns } from "../../test/campaign-kit.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);

/** A multipart body of (option id, file) pairs, as the form sends them. */
function optionFiles(pairs: { id: number | string; name: string; type: string; data: Buffer }[]) {
  const boundary = `----charla${uid()}`;
  const chunks: Buffer[] = [];
  for (const p of pairs) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${p.id}\r\n`));
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.name}"\r\nContent-Type: ${p.type}\r\n\r\n`,
      ),
      p.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
const upload = (s: Session, listId: number, body: ReturnType<typeof optionFiles>) =>
  as(t.app, s, { method: "POST", url: `/api/v1/files/uploadList/${listId}`, ...body });
const PDF = Buffer.from("%PDF-1.4 catálogo de verano");
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function staff() {
  const c = await buildCompany(t.app);
  return { c, s: await login(t.app, c.admin) };
}
const newList = async (s: Session, options = [{ name: "Catálogo" }, { name: "Precios" }]) => {
  const res = await call(s, "POST", "/files", { name: `Archivos ${uid()}`, message: "Nuestros archivos", options });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as FileListView;
};

describe("file lists", () => {
  it("are for staff; name at least 3 ('nombre muy corto') and a message", async () => {
    const { c, s } = await staff();
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    expectError(await call(agent, "GET", "/files"), 403, "ERR_NO_PERMISSION");
    const res = await call(s, "POST", "/files", { name: "ab", message: " " });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([
      { path: "body.name", message: "validation.fileListNameShort" },
      { path: "body.message", message: "validation.required" },
    ]);
  });

  it("creates, uploads each option's file, renames, removes options and files, pages and searches, with live events", async () => {
    const { c, s } = await staff();
    const capture = listen();
    const list = await newList(s);
    expect(list.options.map((o) => [o.name, o.path])).toEqual([
      ["Catálogo", null],
      ["Precios", null],
    ]);
    const [catalog, prices] = list.options;
    const up = await upload(
      s,
      list.id,
      optionFiles([
        { id: catalog.id, name: "catalogo.pdf", type: "application/pdf", data: PDF },
        { id: prices.id, name: "precios.png", type: "image/png", data: PNG },
      ]),
    );
    expect(up.statusCode, up.body).toBe(200);
    const uploaded = up.json() as FileListView;
    expect(uploaded.options.map((o) => [o.path, o.mediaType])).toEqual([
      ["catalogo.pdf", "application"],
      ["precios.png", "image"],
    ]);
    const file = await as(t.app, s, { method: "GET", url: uploaded.options[0].url as string });
    expect(file.body).toContain("catálogo de verano");

    // the second option goes, its file with it; the first is renamed and keeps its file; a third comes
    const [pricesRow] = await t.app.charla.db.select().from(fileListOptions).where(eq(fileListOptions.id, prices.id));
    const edited = await call(s, "PUT", `/files/${list.id}`, {
      name: list.name,
      message: "Otro texto",
      options: [{ id: catalog.id, name: "Catálogo 2026" }, { name: "Nuevo" }],
    });
    expect(edited.json().options.map((o: { name: string; path: string | null }) => [o.name, o.path])).toEqual([
      ["Catálogo 2026", "catalogo.pdf"],
      ["Nuevo", null],
    ]);
    await expect(t.app.charla.storage.read(c.id, pricesRow.path as string)).rejects.toThrow();
    expect(capture.on(Events.file(c.id)).map((e) => (e as { action: string }).action)).toEqual(["create", "update", "update"]);

    const found = await call(s, "GET", `/files?searchParam=${encodeURIComponent(list.name.slice(0, 12))}`);
    expect(found.json().files.map((f: FileListView) => f.id)).toContain(list.id);
    expect((await call(s, "DELETE", `/files/${list.id}`)).statusCode).toBe(204);
    expect(await t.app.charla.db.select().from(fileListOptions).where(eq(fileListOptions.fileListId, list.id))).toEqual([]);
  });

  it("another company's lists and options answer 404; an option of another list is refused with nothing stored", async () => {
    const a = await staff();
    const b = await staff();
    const list = await newList(a.s);
    const other = await newList(a.s, [{ name: "Otra" }]);
    for (const [method, url, body] of [
      ["GET", `/files/${list.id}`],
      ["PUT", `/files/${list.id}`, { name: "Robada", message: "x" }],
      ["DELETE", `/files/${list.id}`],
      ["GET", `/files/${list.id}/options/${list.options[0].id}/file`],
    ] as const) {
      expect((await call(b.s, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    const pair = optionFiles([{ id: list.options[0].id, name: "x.pdf", type: "application/pdf", data: PDF }]);
    expectError(await upload(b.s, list.id, pair), 404, "ERR_NO_FILE_LIST_FOUND");
    const wrong = optionFiles([{ id: other.options[0].id, name: "x.pdf", type: "application/pdf", data: PDF }]);
    expectError(await upload(a.s, list.id, wrong), 404, "ERR_NO_FILE_LIST_OPTION_FOUND");
    const put = await call(a.s, "PUT", `/files/${list.id}`, {
      name: list.name,
      message: "x",
      options: [{ id: other.options[0].id, name: "Mía" }],
    });
    expectError(put, 404, "ERR_NO_FILE_LIST_OPTION_FOUND");
    const rows = await t.app.charla.db.select().from(fileListOptions).where(eq(fileListOptions.companyId, a.c.id));
    expect(rows.every((r) => r.path === null)).toBe(true);
    expect((await call(b.s, "GET", "/files")).json().files).toEqual([]);
  });

  it("a campaign sends its file list first, the list's message as the first file's caption", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const files = await newList(w.session);
    await upload(
      w.session,
      files.id,
      optionFiles([
        { id: files.options[0].id, name: "catalogo.pdf", type: "application/pdf", data: PDF },
        { id: files.options[1].id, name: "precios.png", type: "image/png", data: PNG },
      ]),
    );
    const contacts = await listOf(t, w, ["5511988001122"]);
    const sent = await outboxOf(t, w);
    await newCampaign(t, w, {
      message1: "Hola {name}",
      contactListId: contacts.id,
      fileListId: files.id,
      scheduledAt: new Date().toISOString(),
    });
    await runCampaigns(t, new Date(Date.now() + 1000));
    expect(sent.map((m) => [m.kind, m.body])).toEqual([
      ["media", "Nuestros archivos"],
      ["media", ""],
      ["text", "Hola Cliente 5511988001122"],
    ]);
    expect(new Set(sent.map((m) => m.id)).size).toBe(3);
  });
});
