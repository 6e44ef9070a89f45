import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { ContactListView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { companies, contactListItems } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { excelOrderSheet, farCellsSheet, longFieldCsv, manyStringsSheet, paddedBomb } from "../../test/crafted-sheets.js";
import { as, buildCompany, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";
import { MB } from "../../test/zips.js";
import { withImportSlot } from "./import-slots.js";
import { sweepImportLeftovers } from "./leftovers.js";
import { sheetRows } from "./spreadsheet.js";

// Issue 26: files crafted to exhaust the server are refused within their budgets, and nothing an
// import creates outlives it (the temp folder, where exceljs's reader left sheets, and the stored upload).

let t: TestApp;
let temp: string;
const tmpdirBefore = process.env.TMPDIR;
beforeAll(async () => {
  t = await getTestApp();
  // this file's own temp folder, made after the app's data folder (which lives in the usual one)
  temp = mkdtempSync(join(tmpdir(), "charla-imports-"));
  process.env.TMPDIR = temp;
});
afterAll(async () => {
  if (tmpdirBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdirBefore;
  rmSync(temp, { recursive: true, force: true });
  await t.close();
});
const call = caller(() => t.app);

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

let s: Session;
let companyId: number;
const staff = async () => {
  const c = await buildCompany(t.app, { plan: { useCampaigns: true } });
  return { companyId: c.id, s: await login(t.app, c.admin) };
};
beforeEach(async () => {
  ({ companyId, s } = await staff());
});
const newList = async (session = s) => {
  const res = await call(session, "POST", "/contact-lists", { name: `Importados ${uid()}` });
  expect(res.statusCode).toBe(201);
  return res.json() as ContactListView;
};
const upload = (listId: number, data: Buffer, name = "contactos.xlsx", type = XLSX, session = s) =>
  as(t.app, session, {
    method: "POST",
    url: `/api/v1/contact-lists/${listId}/upload`,
    ...multipart("file", name, type, data),
  });
const itemsOf = (listId: number) =>
  t.app.charla.db.select().from(contactListItems).where(eq(contactListItems.contactListId, listId));

/** What is left of imports: files in the temp folder and stored uploads of the companies. */
function leftovers(ids = [companyId]): string[] {
  const stored = ids.map((id) => join(t.config.dataDir, "files", `company${id}`, "imports")).filter((f) => existsSync(f));
  return [...readdirSync(temp), ...stored.flatMap((f) => readdirSync(f).map((name) => `imports/${name}`))];
}

/** A promise that stays pending until `open` is called: an import held running. */
function gate() {
  const g = {} as { open: () => void; closed: Promise<void> };
  g.closed = new Promise<void>((resolve) => {
    g.open = resolve;
  });
  return g;
}

/** Runs `work` while sampling the process's RSS; answers its result and the growth at the peak. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; grew: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grew: peak - base };
  } finally {
    clearInterval(sample);
  }
}

describe("contact lists: imports within their budgets (issue 26)", () => {
  it("refuses an .xlsx whose first entry hides 200 MB behind padding, inflating none of it", async () => {
    const list = await newList();
    const bomb = await paddedBomb(100);
    expect(bomb.length).toBeLessThan(MB);
    const { result: res, grew } = await peakGrowth(() => upload(list.id, bomb));
    // two rows: what it holds beyond them is what is refused, not its rows
    expectError(res, 413, "ERR_IMPORT_TOO_LARGE");
    // exceljs held the 100 MB of strings (and wrote the 100 MB sheet to the temp folder)
    expect(grew).toBeLessThan(64 * MB);
    expect(await itemsOf(list.id)).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it("reads a sheet stored before its shared strings, as Excel stores them, and leaves no file", async () => {
    const list = await newList();
    const res = await upload(list.id, await excelOrderSheet(3000));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 3000, rejectedCount: 0 });
    expect(leftovers()).toEqual([]);
    const rows = await itemsOf(list.id);
    expect(rows).toHaveLength(3000);
    expect(rows.find((r) => r.number === "5491100000000")?.name).toBe("Cliente 0 0");
  });

  it("leaves no file when the reader stops mid-sheet, by a refusal or by an error of the caller", async () => {
    const sheet = await excelOrderSheet(200);
    const err = await (async () => {
      for await (const r of sheetRows(Readable.from([sheet]), "xlsx", 50_000)) {
        if (r.row === 3) throw new Error("the database went away");
      }
    })().catch((e: unknown) => e);
    expect(err).toMatchObject({ message: "the database went away" });
    expect(leftovers()).toEqual([]);
    // a name past a cell's length on row 101: refused there, 99 contacts read
    const list = await newList();
    const res = await upload(list.id, await excelOrderSheet(200, { longNameAt: 101 }));
    expectError(res, 400, "ERR_IMPORT_FIELD_TOO_LONG");
    expect(res.json()).toMatchObject({ data: { row: 101 } });
    expect(leftovers()).toEqual([]);
  });

  it("refuses a 10 MB CSV of one long field with the row, in bounded memory", async () => {
    const list = await newList();
    const csv = longFieldCsv(10 * MB - 1024);
    const { result: res, grew } = await peakGrowth(() => upload(list.id, csv, "lista.csv", "text/csv"));
    expectError(res, 400, "ERR_IMPORT_FIELD_TOO_LONG");
    expect(res.json()).toMatchObject({ data: { row: 3 } });
    expect(grew).toBeLessThan(64 * MB);
    expect(await itemsOf(list.id)).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it("refuses sheets that hold megabytes beyond their few rows: empty cells far to the right, unused strings", async () => {
    const list = await newList();
    // a header and a contact, then in their row 60 MB of empty cells past column Z (150 KB of zip),
    // which only the inflate budget stopped after a minute of reading: a row is no wider than a sheet
    const wide = await farCellsSheet(60);
    expect(wide.length).toBeLessThan(200 * 1024);
    expectError(await upload(list.id, wide), 413, "ERR_IMPORT_TOO_LARGE");
    // the same cells in rows of 16,000, within a sheet's width: stopped by their count
    expectError(await upload(list.id, await farCellsSheet(60, 16_000)), 413, "ERR_IMPORT_TOO_LARGE");
    // 2.6 million shared strings (105 KB of zip) that a minute and a half of reading kept
    expectError(await upload(list.id, await manyStringsSheet(2_600_000)), 413, "ERR_IMPORT_TOO_LARGE");
    // read to the end, each would have imported its contact
    expect(await itemsOf(list.id)).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it("reads one import of a company at a time, and a few of every company's together", async () => {
    const list = await newList();
    const sheet = await excelOrderSheet(10);
    // the company's import in another tab, still reading
    const tab = gate();
    const running = withImportSlot(companyId, () => tab.closed);
    expectError(await upload(list.id, sheet), 429, "ERR_IMPORT_BUSY");
    expect(leftovers()).toEqual([]);
    // another company's goes on
    const other = await staff();
    const otherList = await newList(other.s);
    expect((await upload(otherList.id, sheet, "c.xlsx", XLSX, other.s)).json()).toMatchObject({ imported: 10 });
    tab.open();
    await running;
    expect((await upload(list.id, sheet)).json()).toMatchObject({ imported: 10 });
    // four imports of other companies running: the fifth waits, whoever's it is
    const others = gate();
    const four = [-1, -2, -3, -4].map((id) => withImportSlot(id, () => others.closed));
    expectError(await upload(list.id, sheet), 429, "ERR_IMPORT_BUSY");
    others.open();
    await Promise.all(four);
    expect(await itemsOf(list.id)).toHaveLength(10);
    expect(leftovers()).toEqual([]);
  });

  it("answers /healthz while four imports of long fields run, before any of them is done", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `Cliente ${i},55119${String(10000000 + i)}`).join("\n");
    const csv = Buffer.from(`nombre,numero\n${rows}\n${"a".repeat(4 * MB)},5491100000000\n`);
    // four companies: a company reads one import at a time
    const companies = await Promise.all([staff(), staff(), staff(), staff()]);
    const lists = await Promise.all(companies.map((c) => newList(c.s)));
    let settled = 0;
    const imports = lists.map((l, i) =>
      upload(l.id, csv, "lista.csv", "text/csv", companies[i].s).finally(() => {
        settled++;
      }),
    );
    let answered = 0;
    while (settled === 0) {
      // a request from the network arrives with a turn of the loop (inject alone would never give one)
      await new Promise((resolve) => setImmediate(resolve));
      const health = await t.app.inject({ method: "GET", url: "/healthz" });
      expect(health.statusCode).toBe(200);
      if (settled === 0) answered++;
    }
    for (const res of await Promise.all(imports)) expectError(res, 400, "ERR_IMPORT_FIELD_TOO_LONG");
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(leftovers(companies.map((c) => c.companyId))).toEqual([]);
  });

  it("at start, removes the uploads of imports a crash cut short, and gives their bytes back", async () => {
    const { storage, db } = t.app.charla;
    // as an import's upload is stored: counted in the company's usage
    const crashed = await storage.writeUpload(companyId, `imports/${uid()}`, Readable.from([Buffer.alloc(5000)]), MB);
    const folder = join(t.config.dataDir, "files", `company${companyId}`, "imports");
    writeFileSync(join(folder, `${uid()}.part`), "half received");
    const young = await storage.writeUpload(companyId, `imports/${uid()}`, Readable.from([Buffer.alloc(700)]), MB);
    const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
    for (const f of readdirSync(folder)) if (!f.startsWith(young.path.slice(8))) utimesSync(join(folder, f), hourAgo, hourAgo);
    // not every folder is a company's, nor every company has imports
    mkdirSync(join(t.config.dataDir, "files", "other"), { recursive: true });
    const usage = async () =>
      (await db.select({ bytes: companies.storageBytes }).from(companies).where(eq(companies.id, companyId)))[0].bytes;
    expect(await usage()).toBe(5700);
    expect(await sweepImportLeftovers(t.config.dataDir, storage)).toBe(2);
    // another node's import may still be reading the younger one
    expect(leftovers()).toEqual([young.path]);
    expect(await usage()).toBe(700);
    expect(crashed.size).toBe(5000);
    await storage.remove(companyId, young.path);
  });

  it("a server starting sweeps them", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "charla-test-"));
    const folder = join(dataDir, "files", `company${companyId}`, "imports");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "cut-short"), "nombre,numero\n");
    const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
    utimesSync(join(folder, "cut-short"), hourAgo, hourAgo);
    const other = await getTestApp({ dataDir }, t.database);
    try {
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      await other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
