import { type Packed, deflated, packedText, zipWithDirectory } from "./zips.js";

/** The files of issue 26, made by code: each can be built in a second or two and is a few hundred KB. */

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

const contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`;
const rootRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const workbook = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const workbookRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

const sheetHead = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>5491133334444</v></c></row>`;
const sheetTail = "</sheetData></worksheet>";
const stringsHead = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}"><si><t>Nombre</t></si><si><t>Número</t></si><si><t>Ana</t></si>`;

type Entry = Packed & { name: string; pad?: number };

/**
 * Issue 26's budget bypass: the first entry's compressed size covers padding after its data, so a
 * walk of local headers that trusts the deflate stream's end stops there, while a reader that skips
 * by the stated size goes on to a worksheet of `megabytes` (whitespace between rows, which an
 * exceljs reader wrote to a temp file) and as many megabytes of shared strings (which it held in memory).
 * Read honestly it is one header and one contact.
 */
export async function paddedBomb(megabytes: number): Promise<Buffer> {
  const sheet = await deflated(sheetHead, " ".repeat(1024), megabytes * 1024, sheetTail);
  const strings = await deflated(stringsHead, `<si><t>${"x".repeat(1000)}</t></si>`, megabytes * 1024, "</sst>");
  const entries: Entry[] = [
    { name: "[Content_Types].xml", ...packedText(contentTypes), pad: 4096 },
    { name: "_rels/.rels", ...packedText(rootRels) },
    { name: "xl/workbook.xml", ...packedText(workbook) },
    { name: "xl/_rels/workbook.xml.rels", ...packedText(workbookRels) },
    { name: "xl/worksheets/sheet1.xml", ...sheet },
    { name: "xl/sharedStrings.xml", ...strings },
  ];
  return zipWithDirectory(entries);
}

/**
 * A sheet as Excel stores it, the worksheet before its shared strings: `rows` contacts, each with
 * a name and a number of its own (so it compresses like a real one); `longNameAt` gives that row a
 * name longer than a cell holds.
 */
export async function excelOrderSheet(rows: number, { longNameAt = 0 } = {}): Promise<Buffer> {
  let sheet = sheetHead.replace(/<row r="2">.*$/, "");
  let strings = stringsHead.replace("<si><t>Ana</t></si>", "");
  for (let i = 0; i < rows; i++) {
    const r = i + 2;
    sheet += `<row r="${r}"><c r="A${r}" t="s"><v>${i + 2}</v></c><c r="B${r}"><v>${5491100000000 + ((i * 7919) % 99999999)}</v></c></row>`;
    const name = r === longNameAt ? "n".repeat(40_000) : `Cliente ${(i * 2654435761) % 4294967296} ${i}`;
    strings += `<si><t>${name}</t></si>`;
  }
  return zipWithDirectory([
    { name: "[Content_Types].xml", ...packedText(contentTypes) },
    { name: "_rels/.rels", ...packedText(rootRels) },
    { name: "xl/workbook.xml", ...packedText(workbook) },
    { name: "xl/_rels/workbook.xml.rels", ...packedText(workbookRels) },
    { name: "xl/worksheets/sheet1.xml", ...packedText(sheet + sheetTail) },
    { name: "xl/sharedStrings.xml", ...packedText(`${strings}</sst>`) },
  ]);
}

/** A workbook of the parts a reader needs around `sheet` and `strings`. */
function workbookOf(sheet: Packed, strings: Packed): Buffer {
  return zipWithDirectory([
    { name: "[Content_Types].xml", ...packedText(contentTypes) },
    { name: "_rels/.rels", ...packedText(rootRels) },
    { name: "xl/workbook.xml", ...packedText(workbook) },
    { name: "xl/_rels/workbook.xml.rels", ...packedText(workbookRels) },
    { name: "xl/worksheets/sheet1.xml", ...sheet },
    { name: "xl/sharedStrings.xml", ...strings },
  ]);
}

const fewStrings = packedText(`${stringsHead}</sst>`);

/**
 * A header and a contact, then `megabytes` of empty cells far past column Z (styled, as a program writes
 * a formatted cell: `<c r="ZZ2" s="1"/>`), all in one row or `perRow` to a row. Some 2.5 KB of zip a
 * megabyte: cells a reader drops cost their reading all the same.
 */
export async function farCellsSheet(megabytes: number, perRow?: number): Promise<Buffer> {
  const cell = '<c r="ZZ3" s="1"/>';
  const unit = perRow === undefined ? cell : `<row>${cell.repeat(perRow)}</row>`;
  const [head, tail] = perRow === undefined ? ['<row r="3">', "</row>"] : ["", ""];
  const times = Math.floor((megabytes * 1024 * 1024) / unit.length);
  return workbookOf(await deflated(sheetHead + head, unit, times, tail + sheetTail), fewStrings);
}

/** A header and a contact that use three shared strings, and `count` more strings nothing uses. */
export async function manyStringsSheet(count: number): Promise<Buffer> {
  const strings = await deflated(stringsHead, "<si><t>x</t></si>", count, "</sst>");
  return workbookOf(packedText(sheetHead + sheetTail), strings);
}

/** Issue 26's CSV: a header, one contact, then a name field filling the rest of `bytes`. */
export function longFieldCsv(bytes: number): Buffer {
  const head = "nombre,numero\nAna,5491133334444\n";
  return Buffer.concat([Buffer.from(head), Buffer.alloc(bytes - head.length - 16, "a"), Buffer.from(",5491133335555\n")]);
}
