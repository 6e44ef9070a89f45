import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { excelOrderSheet, farCellsSheet, manyStringsSheet, paddedBomb } from "../test/crafted-sheets.js";
import { MB, deflated, packedText, zipWithDirectory } from "../test/zips.js";
import { MAX_FIELD_CHARS } from "./csv-rows.js";
import { type XlsxOptions, xlsxRows } from "./xlsx-rows.js";
import { NotZip, ZipOverBudget } from "./zip-budget.js";

const limits: XlsxOptions = { inflatedBudget: 64 * MB, maxColumns: 26, maxStrings: 100_000, maxCells: 2_600_000 };

async function read(zip: Buffer, options = limits) {
  const out: [number, string[]][] = [];
  for await (const r of xlsxRows(zip, options)) out.push(r);
  return out;
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RELS_NS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
const R_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const rel = (id: string, type: string, target: string) =>
  `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;

/** A workbook of the given parts; its first tab is sheet2.xml when `secondFirst`. */
function workbook(sheets: Record<string, string>, strings?: string, secondFirst = false) {
  const names = Object.keys(sheets);
  const tabs = names.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`);
  if (secondFirst) tabs.reverse();
  const rels = names.map((n, i) => rel(`rId${i + 1}`, "worksheet", `/xl/worksheets/${n}`));
  if (strings !== undefined) rels.push(rel("rIdS", "sharedStrings", "sharedStrings.xml"));
  return zipWithDirectory([
    ...names.map((n) => ({ name: `xl/worksheets/${n}`, ...packedText(sheets[n]) })),
    ...(strings === undefined ? [] : [{ name: "xl/sharedStrings.xml", ...packedText(strings) }]),
    { name: "xl/workbook.xml", ...packedText(`<workbook ${NS} ${R_NS}><sheets>${tabs.join("")}</sheets></workbook>`) },
    { name: "xl/_rels/workbook.xml.rels", ...packedText(`<Relationships ${RELS_NS}>${rels.join("")}</Relationships>`) },
  ]);
}

describe("xlsxRows", () => {
  it("reads what exceljs writes as the user sees it: strings, rich text, numbers, formulas, links, booleans", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Contactos");
    ws.addRow(["Nombre", "Número", "Email", "Activo"]);
    ws.addRow([{ richText: [{ text: "Carlos " }, { text: "Ramírez" }] }, 5511987654321, "c@example.com", true]);
    ws.addRow([
      " Ana & <Bea> ",
      { formula: "1+1", result: 5491133334444 },
      { text: "a@x.com", hyperlink: "mailto:a@x.com" },
      false,
    ]);
    ws.addRow([]);
    ws.getCell("F5").value = "lejos";
    ws.getCell("AB5").value = "fuera de A–Z";
    expect(await read(Buffer.from(await wb.xlsx.writeBuffer()))).toEqual([
      [1, ["Nombre", "Número", "Email", "Activo"]],
      [2, ["Carlos Ramírez", "5511987654321", "c@example.com", "true"]],
      [3, ["Ana & <Bea>", "5491133334444", "a@x.com", "false"]],
      [5, ["", "", "", "", "", "lejos"]],
    ]);
  });

  it("takes the first tab wherever the zip keeps it, prefixes, inline strings, entities, CDATA and rows without numbers", async () => {
    const other = `<worksheet ${NS}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>otra</t></is></c></row></sheetData></worksheet>`;
    const first = `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>
      <x:row><x:c t="inlineStr"><x:is><x:t>Jos&#233; &amp; Ana</x:t></x:is></x:c><x:c t="s"><x:v>0</x:v></x:c></x:row>
      <!-- a comment with <c> in it -->
      <x:row r="4"><x:c r="B4" t="str"><x:f>A1</x:f><x:v><![CDATA[<5491133334444>]]></x:v></x:c><x:c r="C4" t="e"><x:v>#N/A</x:v></x:c></x:row>
      <x:row r="6"/></x:sheetData></x:worksheet>`;
    const strings = `<sst ${NS}><si><r><t>山田</t></r><rPh sb="0" eb="2"><t>ヤマダ</t></rPh></si></sst>`;
    expect(await read(workbook({ "sheet1.xml": other, "sheet2.xml": first }, strings, true))).toEqual([
      [1, ["José & Ana", "山田"]],
      [4, ["", "<5491133334444>", ""]],
      [6, []],
    ]);
  });

  it("reads a sheet stored before its shared strings, and stops where the caller stops", async () => {
    const zip = await excelOrderSheet(2000);
    const rows = await read(zip);
    expect(rows).toHaveLength(2001);
    expect(rows[1]).toEqual([2, ["Cliente 0 0", "5491100000000"]]);
    let n = 0;
    for await (const _ of xlsxRows(zip, limits)) if (++n === 5) break;
    expect(n).toBe(5);
  });

  it("refuses a cell past a cell's length with its row, and more shared strings than a sheet could use", async () => {
    await expect(read(await excelOrderSheet(20, { longNameAt: 7 }))).rejects.toMatchObject({
      code: "ERR_IMPORT_FIELD_TOO_LONG",
      data: { row: 7 },
    });
    const inline = `<worksheet ${NS}><sheetData><row r="3"><c t="inlineStr"><is><t>${"x".repeat(MAX_FIELD_CHARS + 1)}</t></is></c></row></sheetData></worksheet>`;
    await expect(read(workbook({ "sheet1.xml": inline }))).rejects.toMatchObject({ data: { row: 3 } });
    await expect(read(await excelOrderSheet(20), { ...limits, maxStrings: 10 })).rejects.toBeInstanceOf(ZipOverBudget);
  });

  it("refuses issue 26's padded bomb by the sizes it states, before inflating the sheet", async () => {
    await expect(read(await paddedBomb(100))).rejects.toBeInstanceOf(ZipOverBudget);
    const small = await excelOrderSheet(2000);
    await expect(read(small, { ...limits, inflatedBudget: 100_000 })).rejects.toBeInstanceOf(ZipOverBudget);
    await expect(read(small.subarray(0, small.length - 100))).rejects.toBeInstanceOf(NotZip);
  });

  it("counts every cell, kept or not: past the cells a sheet holds, or a row wider than a sheet, it stops", async () => {
    // 8 MB of empty cells past column Z in one row (20 KB of zip): refused within the first megabyte
    const wide = await farCellsSheet(8);
    expect(wide.length).toBeLessThan(64 * 1024);
    await expect(read(wide)).rejects.toBeInstanceOf(ZipOverBudget);
    // rows of 1,000 such cells: within the row's width, refused by the count
    const tall = await farCellsSheet(2, 1000);
    await expect(read(tall, { ...limits, maxCells: 100_000 })).rejects.toBeInstanceOf(ZipOverBudget);
    expect((await read(tall, { ...limits, maxCells: 200_000 })).slice(0, 2)).toEqual([
      [1, ["Nombre", "Número"]],
      [2, ["Ana", "5491133334444"]],
    ]);
    // shared strings nothing uses count as much as the ones in use
    await expect(read(await manyStringsSheet(100_000))).rejects.toBeInstanceOf(ZipOverBudget);
  });

  it("holds the event loop no longer for pieces that end inside a tag than for pieces that end between tags", async () => {
    // A sheet of empty rows of 1 KB inflates in pieces of 64 KB that end between two rows; with one
    // more space in each row they end anywhere, nearly always inside a tag. Before, every such piece
    // held the loop 20 to 100 times as long (100-600 ms a piece on a busy machine).
    const row = (pad: number) => `<row>${'<c r="Z2" s=""/>'.repeat(63)}${" ".repeat(pad)}</row>`;
    const sheet = async (pad: number) => {
      const head = `<worksheet ${NS}><sheetData>`;
      const unit = row(pad);
      const between = unit.length - (head.length % unit.length);
      const packed = await deflated(head + " ".repeat(between), unit, 2048, "</sheetData></worksheet>");
      return zipWithDirectory([{ name: "xl/worksheets/sheet1.xml", ...packed }]);
    };
    expect(row(5)).toHaveLength(1024);
    const aligned = await sheet(5);
    const misaligned = await sheet(6);
    /** The longest the event loop waited for a turn while the sheet was read. */
    const longestHold = async (zip: Buffer) => {
      let longest = 0;
      let last = performance.now();
      let counting = true;
      const turn = () => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        if (counting) setImmediate(turn);
      };
      setImmediate(turn);
      const rows = await read(zip);
      counting = false;
      expect(rows).toHaveLength(2048);
      return longest;
    };
    let alignedMs = Number.POSITIVE_INFINITY;
    let misalignedMs = Number.POSITIVE_INFINITY;
    // the least of runs taken in turns: a busy moment of the machine weighs on both, and not on every run
    for (let i = 0; i < 3; i++) {
      alignedMs = Math.min(alignedMs, await longestHold(aligned));
      misalignedMs = Math.min(misalignedMs, await longestHold(misaligned));
    }
    expect(misalignedMs).toBeLessThan(4 * alignedMs);
  });

  it("gives the event loop a turn between inflated pieces", async () => {
    const zip = await excelOrderSheet(20_000);
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const rows = await read(zip);
    counting = false;
    expect(rows).toHaveLength(20_001);
    // the sheet is over a megabyte of XML: some twenty pieces of 64 KB
    expect(turns).toBeGreaterThanOrEqual(16);
  });
});
