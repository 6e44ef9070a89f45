import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { type FileListView, Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileListOptions } from "../../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { campaignCompany, listOf, newCampaign, outboxOf, runCampaigns } from "../../test/campaign-kit.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);

type OptionFile = { id?: number | string; name: string; type: string; data: Buffer };

/**
 * A multipart body of (option id, file) pairs: as Charla's form sends them (id, then its file), or
 * as secondary §7 lists the fields (fileId, typeArch, then each file followed by mediaType, name, id).
 */
function optionFiles(pairs: OptionFile[], order: "id-first" | "file-first" = "id-first") {
  const boundary = `----charla${uid()}`;
  const chunks: Buffer[] = [];
  const field = (name: string, value: string | number) =>
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  const file = (p: OptionFile) =>
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.name}"\r\nContent-Type: ${p.type}\r\n\r\n`,
      ),
      p.data,
      Buffer.from("\r\n"),
    );
  if (order === "file-first") field("typeArch", "fileList");
  for (const p of pairs) {
    if (order === "id-first" && p.id !== undefined) field("id", p.id);
    file(p);
    if (order === "file-first") {
      field("mediaType", p.type);
      field("name", p.name);
      if (p.id !== undefined) field("id", p.id);
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
const upload = (s: Session, listId: number, body: ReturnType<typeof optionFiles>) =>
  as(t.app, s, { method: "POST", url: `/api/v1/files/uploadList/${listId}`, ...body });
/** The files in the company's file-list folder, partial ones included. */
const filesOf = (companyId: number): string[] => {
  const dir = join(t.config.dataDir, "files", `company${companyId}`, "file-lists");
  return existsSync(dir) ? readdirSync(dir) : [];
};
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

  it("takes the fields in the order secondary §7 lists them, pairs the n-th id with the n-th file, and keeps no orphan", async () => {
    const { c, s } = await staff();
    const list = await newList(s);
    const [catalog, prices] = list.options;
    const up = await upload(
      s,
      list.id,
      optionFiles(
        [
          { id: catalog.id, name: "catalogo.pdf", type: "application/pdf", data: PDF },
          { id: prices.id, name: "precios.png", type: "image/png", data: PNG },
        ],
        "file-first",
      ),
    );
    expect(up.statusCode, up.body).toBe(200);
    expect((up.json() as FileListView).options.map((o) => [o.name, o.path, o.mediaType])).toEqual([
      ["Catálogo", "catalogo.pdf", "application"],
      ["Precios", "precios.png", "image"],
    ]);
    const stored = async () =>
      (
        await t.app.charla.db
          .select()
          .from(fileListOptions)
          .where(eq(fileListOptions.fileListId, list.id))
          .orderBy(fileListOptions.id)
      ).map((r) => r.path);
    const before = await stored();

    // a file without its id, or an id without its file: refused, nothing changes, nothing is left behind
    const files = filesOf(c.id);
    const noId = optionFiles([
      { id: catalog.id, name: "a.pdf", type: "application/pdf", data: PDF },
      { name: "b.pdf", type: "application/pdf", data: PDF },
    ]);
    expectError(await upload(s, list.id, noId), 400, "ERR_VALIDATION");
    expect(await stored()).toEqual(before);
    expect(filesOf(c.id)).toEqual(files);

    // the same option twice keeps the last file; the one before it and the old one are removed
    const twice = await upload(
      s,
      list.id,
      optionFiles([
        { id: catalog.id, name: "uno.pdf", type: "application/pdf", data: PDF },
        { id: catalog.id, name: "dos.pdf", type: "application/pdf", data: PDF },
      ]),
    );
    expect(twice.statusCode, twice.body).toBe(200);
    const after = await stored();
    expect(after[1]).toBe(before[1]);
    expect((twice.json() as FileListView).options[0].path).toBe("dos.pdf");
    expect(filesOf(c.id).sort()).toEqual(after.map((path) => basename(path as string)).sort());
  });

  it("an upload that says it is a picture and is not goes as a document", async () => {
    const { s } = await staff();
    const list = await newList(s, [{ name: "Foto" }]);
    const exe = Buffer.from("MZ\x90\0\x03\0 not a picture");
    const up = await upload(
      s,
      list.id,
      optionFiles([{ id: list.options[0].id, name: "foto.png", type: "image/png", data: exe }]),
    );
    expect(up.statusCode, up.body).toBe(200);
    expect((up.json() as FileListView).options[0].mediaType).toBe("application");
    const [row] = await t.app.charla.db.select().from(fileListOptions).where(eq(fileListOptions.id, list.options[0].id));
    expect(row.mimetype).toBe("application/octet-stream");
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
