import { readFileSync } from "node:fs";
import {
  ContactListImportLimits,
  type ContactListImportResult,
  type ContactListItemEvent,
  type ContactListItemsPage,
  type ContactListView,
  Events,
} from "@charla/contracts";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactListItems } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { as, buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";
import { deflatedZeros, zipOf } from "../../test/zips.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);
const call = caller(() => t.app);

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function staff() {
  const c = await buildCompany(t.app, { plan: { useCampaigns: true } });
  return { c, s: await login(t.app, c.admin) };
}
const newList = async (s: Session) => {
  const res = await call(s, "POST", "/contact-lists", { name: `Importados ${uid()}` });
  expect(res.statusCode).toBe(201);
  return res.json() as ContactListView;
};
async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Hoja 1");
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const upload = (s: Session, listId: number, data: Buffer, name = "contactos.xlsx", type = XLSX) =>
  as(t.app, s, { method: "POST", url: `/api/v1/contact-lists/${listId}/upload`, ...multipart("file", name, type, data) });
const itemsOf = (listId: number) =>
  t.app.charla.db.select().from(contactListItems).where(eq(contactListItems.contactListId, listId));

describe("contact lists: spreadsheet import", () => {
  it("imports good rows, reports each bad one with its reason, and normalizes numbers", async () => {
    const { s } = await staff();
    const list = await newList(s);
    const res = await upload(
      s,
      list.id,
      await sheet([
        ["Nombre", "Número", "Email"],
        ["Lucía Fernández", "+54 9 11 3333-4444", "Lucia@Example.com"],
        ["", 5511987654321, ""],
        ["Sin número", "", "x@example.com"],
        ["Corto", "12345", ""],
        ["Mal correo", "5511911112222", "no-es-correo"],
        ["Repetida", "0054 9 11 3333 4444", ""],
        ["N".repeat(51), "34600111222", ""],
        [],
        [{ richText: [{ text: "Carlos " }, { text: "Ramírez" }] }, "5215511110002", ""],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as ContactListImportResult;
    expect(result.imported).toBe(3);
    expect(result.updated).toBe(0);
    expect(result.rejectedCount).toBe(5);
    expect(result.rejected.map((r) => [r.row, r.reason])).toEqual([
      [4, "number"],
      [5, "number"],
      [6, "email"],
      [7, "duplicate"],
      [8, "name"],
    ]);
    const rows = await itemsOf(list.id);
    expect(rows.map((r) => [r.name, r.number, r.email, r.isWhatsappValid]).sort()).toEqual(
      [
        ["5511987654321", "5511987654321", "", null],
        ["Carlos Ramírez", "5215511110002", "", null],
        ["Lucía Fernández", "5491133334444", "lucia@example.com", null],
      ].sort(),
    );
    const view = (await call(s, "GET", `/contact-lists/${list.id}`)).json() as ContactListView;
    expect(view.contactsCount).toBe(3);
  });

  it("a second import updates the numbers already there and keeps what the check found", async () => {
    const { s } = await staff();
    const list = await newList(s);
    await upload(
      s,
      list.id,
      await sheet([
        ["name", "number"],
        ["Ana", "5511911110001"],
      ]),
    );
    await t.app.charla.db
      .update(contactListItems)
      .set({ isWhatsappValid: true })
      .where(eq(contactListItems.contactListId, list.id));
    const res = await upload(
      s,
      list.id,
      await sheet([
        ["number", "name", "email"],
        ["5511911110001", "Ana Paula", "ana@example.com"],
        ["5511911110002", "Bruno", ""],
      ]),
    );
    expect(res.json()).toMatchObject({ imported: 1, updated: 1, rejectedCount: 0 });
    const page = (await call(s, "GET", `/contact-list-items?contactListId=${list.id}`)).json() as ContactListItemsPage;
    expect(page.contacts.map((c) => [c.name, c.email, c.isWhatsappValid])).toEqual([
      ["Ana Paula", "ana@example.com", true],
      ["Bruno", "", null],
    ]);
  });

  it("reads .csv and sheets without a header row (name, number, email in that order)", async () => {
    const { s } = await staff();
    const list = await newList(s);
    const csv = Buffer.from("Nome,Telefone,E-mail\nJoão,5511933334444,joao@example.com\nMaria,5511933335555,\n");
    expect((await upload(s, list.id, csv, "lista.csv", "text/csv")).json()).toMatchObject({ imported: 2 });
    const bare = await sheet([
      ["Pedro", "5511944445555", ""],
      ["Paula", "5511944446666", "paula@example.com"],
    ]);
    expect((await upload(s, list.id, bare)).json()).toMatchObject({ imported: 2, rejectedCount: 0 });
    expect((await itemsOf(list.id)).map((r) => r.name).sort()).toEqual(["João", "Maria", "Paula", "Pedro"]);
  });

  it("reads the old binary .xls as xlwt and LibreOffice write it, CONTINUE-split strings and formulas too", async () => {
    const { s } = await staff();
    const xls = (name: string) => readFileSync(new URL(`../../lib/xls/fixtures/${name}`, import.meta.url));
    const small = await newList(s);
    const res = await upload(s, small.id, xls("cells-libreoffice.xls"), "contactos.xls", "application/vnd.ms-excel");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 4, updated: 0, rejectedCount: 3 });
    expect((res.json() as ContactListImportResult).rejected.map((r) => [r.row, r.reason, r.value])).toEqual([
      [5, "number", ""],
      [6, "number", "1"],
      [7, "number", "1"],
    ]);
    expect((await itemsOf(small.id)).map((r) => [r.name, r.number, r.email]).sort()).toEqual(
      [
        ["Lucía Fernández", "5491133334444", "lucia@example.com"],
        ["Carlos Ramírez", "5511987654321", ""],
        ["中文 Ωμέγα", "5491100000001", "zoe@example.com"],
        ["Fórmula", "5491100000002", "ana@example.com"],
      ].sort(),
    );

    // 1,500 rows: every 100th has no number, every 250th (that has one) a bad email
    const large = await newList(s);
    const all = await upload(s, large.id, xls("contacts-1500-xlwt.xls"), "clientes.xls", "application/octet-stream");
    expect(all.statusCode, all.body).toBe(200);
    const result = all.json() as ContactListImportResult;
    expect(result).toMatchObject({ imported: 1482, updated: 0, rejectedCount: 18 });
    expect(result.rejected.filter((r) => r.reason === "email").map((r) => r.row)).toEqual([251, 751, 1251]);
    const rows = await itemsOf(large.id);
    expect(rows).toHaveLength(1482);
    expect(rows.find((r) => r.number === "5491100000003")).toMatchObject({
      name: "José Pérez 3",
      email: "contacto3@example.com",
    });
    expect(rows.find((r) => r.number === "5491100001499")?.name).toBe("Zoë Ωμέγα 1499");
  });

  it("refuses what is not a readable sheet, with the catalogue's codes, and writes nothing", async () => {
    const { s } = await staff();
    const list = await newList(s);
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 1)]);
    expectError(await upload(s, list.id, ole, "roto.xls", "application/vnd.ms-excel"), 400, "ERR_IMPORT_FORMAT");
    // a compound file holding no Excel 97+ workbook (an Excel 95 "Book", a Word document)
    const good = readFileSync(new URL("../../lib/xls/fixtures/cells-xlwt.xls", import.meta.url)).toString("latin1");
    const book95 = Buffer.from(good.replace("W\0o\0r\0k\0b\0o\0o\0k\0", "B\0o\0o\0k\0\0\0\0\0\0\0\0\0"), "latin1");
    expectError(await upload(s, list.id, book95, "excel95.xls", "application/vnd.ms-excel"), 400, "ERR_IMPORT_FORMAT");
    const brokenZip = Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(300, 7)]);
    expectError(await upload(s, list.id, brokenZip), 400, "ERR_IMPORT_FORMAT");
    const noNumber = await sheet([
      ["Nombre", "Email"],
      ["Ana", "ana@example.com"],
    ]);
    expectError(await upload(s, list.id, noNumber), 400, "ERR_IMPORT_NO_NUMBER_COLUMN");
    const big = Buffer.concat([Buffer.from("nombre,numero\n"), Buffer.alloc(10 * 1024 * 1024, "a")]);
    expectError(await upload(s, list.id, big, "big.csv", "text/csv"), 413, "ERR_FILE_TOO_LARGE");
    expect(await itemsOf(list.id)).toEqual([]);
    const none = await as(t.app, s, { method: "POST", url: `/api/v1/contact-lists/${list.id}/upload`, payload: {} });
    expect(none.statusCode).toBe(400);
  });

  it("refuses what would hold the server up: a zip bomb, a line of a million commas, a sheet of empty rows", async () => {
    const { s } = await staff();
    const list = await newList(s);
    // 256 MB of shared strings in a quarter-megabyte .xlsx: refused by the size it states, inflating
    // none of it; stating less, it is stopped once it gives more than stated. Beside a sheet of one
    // contact, which a reader that went on through the zeros would import
    const packed = await deflatedZeros(256);
    const contact = {
      name: "xl/worksheets/sheet1.xml",
      data: Buffer.from(
        '<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>Bea</t></is></c><c><v>5491133335555</v></c></row></sheetData></worksheet>',
      ),
    };
    const bomb = zipOf([{ name: "xl/sharedStrings.xml", packed, size: 256 * 1024 * 1024 }, contact], true);
    expectError(await upload(s, list.id, bomb, "bomba.xlsx"), 413, "ERR_IMPORT_TOO_LARGE");
    const understated = zipOf([{ name: "xl/sharedStrings.xml", packed, size: 1000 }, contact], true);
    expectError(await upload(s, list.id, understated, "bomba.xlsx"), 400, "ERR_IMPORT_FORMAT");
    const honest = zipOf([contact], true);
    expect((await upload(s, list.id, honest, "una.xlsx")).json()).toMatchObject({ imported: 1 });
    // one header, then a row of a million fields: only the first columns are kept
    const commas = Buffer.concat([Buffer.from("nombre,numero\nAna,5491133334444"), Buffer.alloc(1_000_000, ",")]);
    expect((await upload(s, list.id, commas, "comas.csv", "text/csv")).json()).toMatchObject({ imported: 1 });
    // more empty rows than the row limit: stopped there, not read to the end
    const empty = Buffer.from(`nombre,numero\n${",\n".repeat(ContactListImportLimits.rows + 1)}Ana,5491133334444\n`);
    expectError(await upload(s, list.id, empty, "vacias.csv", "text/csv"), 413, "ERR_IMPORT_TOO_MANY_ROWS");
    expect((await itemsOf(list.id)).map((r) => r.number).sort()).toEqual(["5491133334444", "5491133335555"]);
  });

  it("another company's list answers 404 and agents are refused; neither writes", async () => {
    const a = await staff();
    const b = await staff();
    const list = await newList(a.s);
    const data = await sheet([
      ["nombre", "numero"],
      ["Intrusa", "5511988887777"],
    ]);
    expectError(await upload(b.s, list.id, data), 404, "ERR_NO_CONTACT_LIST_FOUND");
    const agent = await login(t.app, await buildUser(t.app, a.c.id, { profile: "user" }));
    expectError(await upload(agent, list.id, data), 403, "ERR_NO_PERMISSION");
    expect(await itemsOf(list.id)).toEqual([]);
  });

  it("tells the list's open pages its progress and to reload, and the lists page its new count", async () => {
    const { c, s } = await staff();
    const list = await newList(s);
    const rows = Array.from({ length: 1200 }, (_, i) => [`Cliente ${i}`, `55119${String(10000000 + i)}`]);
    const capture = listen();
    const res = await upload(s, list.id, await sheet([["nombre", "numero"], ...rows]));
    expect(res.json()).toMatchObject({ imported: 1200 });
    const onList = capture.on(Events.contactListItemsOf(c.id, list.id)) as ContactListItemEvent[];
    expect(onList.filter((e) => e.action === "import").map((e) => "done" in e && e.done)).toEqual([500, 1000, 1200]);
    expect(onList.at(-1)).toEqual({ action: "reload", contactListId: list.id });
    const counts = capture.on(Events.contactList(c.id)) as { record: ContactListView }[];
    expect(counts.at(-1)?.record.contactsCount).toBe(1200);
  });

  it("keeps script payloads as typed in names", async () => {
    const { s } = await staff();
    const list = await newList(s);
    const payloads = readFileSync(new URL("../../../../e2e/fixtures/xss-payloads.txt", import.meta.url), "utf8")
      .split("\n")
      .filter((p) => p.trim().length >= 2 && [...p].length <= 50)
      .slice(0, 20);
    const res = await upload(
      s,
      list.id,
      await sheet([["nombre", "numero"], ...payloads.map((p, i) => [p, `5511977${String(100000 + i)}`])]),
    );
    expect(res.json()).toMatchObject({ imported: payloads.length });
    expect((await itemsOf(list.id)).map((r) => r.name).sort()).toEqual(payloads.map((p) => p.trim()).sort());
  });

  it("the example sheet downloads in the user's language and imports as it is", async () => {
    const { s } = await staff();
    const res = await as(t.app, s, { method: "GET", url: "/api/v1/contact-lists/example?lang=pt" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, "Nome", "Número", "Email"]);
    const list = await newList(s);
    expect((await upload(s, list.id, res.rawPayload)).json()).toMatchObject({ imported: 2, rejectedCount: 0 });
  });

  it("the example sheet is the same file every time, also seconds later", async () => {
    const { s } = await staff();
    const get = () => as(t.app, s, { method: "GET", url: "/api/v1/contact-lists/example?lang=es" });
    const first = await get();
    // past a zip time step (2 s), where a sheet built anew would carry another timestamp
    await new Promise((r) => setTimeout(r, 2100));
    const second = await get();
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });
});
