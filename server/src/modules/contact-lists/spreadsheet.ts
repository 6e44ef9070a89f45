import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { ContactListImportLimits } from "@charla/contracts";
import ExcelJS from "exceljs";
import { AppError } from "../../lib/app-error.js";
import { csvRows } from "../../lib/csv-rows.js";
import { readXls } from "../../lib/xls/workbook.js";
import { xlsxRows } from "../../lib/xlsx-rows.js";
import { ZipOverBudget } from "../../lib/zip-budget.js";

/** One data row of an import: its row number in the sheet (1-based, as the user sees it) and its cells. */
export type SheetRow = { row: number; name: string; number: string; email: string };
export type SheetKind = "xlsx" | "xls" | "csv";

type Column = "name" | "number" | "email";

/** Header words in the three languages (lower case, no accents); a sheet without them is read A, B, C. */
const HEADERS: Record<string, Column> = {
  name: "name",
  nombre: "name",
  nome: "name",
  contacto: "name",
  contato: "name",
  number: "number",
  numero: "number",
  telefono: "number",
  telefone: "number",
  phone: "number",
  celular: "number",
  whatsapp: "number",
  email: "email",
  "e-mail": "email",
  correo: "email",
  mail: "email",
};

const plain = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .trim()
    .toLowerCase();

/** A cell of the readers (text, or an .xls's number or boolean) as the text the user sees: a number's digits. */
function cellText(value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  return String(value).trim();
}

/** The sheet's first row as column positions, or null when it is data (no header word in it). */
function headerOf(cells: string[]): Map<Column, number> | null {
  const found = new Map<Column, number>();
  cells.forEach((c, i) => {
    const column = HEADERS[plain(c)];
    if (column && !found.has(column)) found.set(column, i);
  });
  if (found.size === 0) return null;
  if (!found.has("number")) throw new AppError("ERR_IMPORT_NO_NUMBER_COLUMN");
  return found;
}

const POSITIONAL = new Map<Column, number>([
  ["name", 0],
  ["number", 1],
  ["email", 2],
]);

/**
 * What an .xlsx may inflate to: 50,000 rows of name, number and email are some 15 MB of XML with
 * their shared strings and styles; a file past this holds something else (a zip bomb, a huge sheet).
 */
const XLSX_INFLATED_BUDGET = 64 * 1024 * 1024;

/** Only the first columns are read (A to Z): the three an import uses are among them, wherever the header puts them. */
const MAX_COLUMNS = 26;

/**
 * Every cell of a sheet at the row limit from A to Z: a contact sheet has three columns, so this leaves
 * room for many more and for styled empty cells, and a file of empty cells is stopped some 20 MB in.
 */
const MAX_CELLS = ContactListImportLimits.rows * MAX_COLUMNS;

const XLSX_LIMITS = {
  inflatedBudget: XLSX_INFLATED_BUDGET,
  maxColumns: MAX_COLUMNS,
  // each of those cells a string of its own
  maxStrings: MAX_CELLS,
  // past it a sheet holds something else, such as megabytes of empty cells far to the right
  maxCells: MAX_CELLS,
};

/** The first `MAX_COLUMNS` of a row's `count` cells as text (`at` is 0-based); a far-away cell costs nothing. */
function firstCells(count: number, at: (i: number) => string | number | boolean | undefined): string[] {
  const cells: string[] = [];
  for (let i = 0; i < Math.min(count, MAX_COLUMNS); i++) cells.push(cellText(at(i)));
  return cells;
}

/**
 * The first sheet's rows, read as a stream (a large file is never whole in memory), at most `maxRows`
 * data rows (ERR_IMPORT_TOO_MANY_ROWS beyond). Blank rows are skipped, but counted too (as many again
 * as `maxRows`), so a file of nothing but empty rows stops as soon as a full one would. A file that is
 * not a readable spreadsheet answers ERR_IMPORT_FORMAT; an .xlsx that holds more than a sheet within
 * the limits could (however few rows it has), ERR_IMPORT_TOO_LARGE.
 */
export async function* sheetRows(source: Readable, kind: SheetKind, maxRows: number): AsyncGenerator<SheetRow> {
  let columns: Map<Column, number> | null | undefined;
  let taken = 0;
  let blank = 0;
  const pick = (cells: string[], c: Column) => {
    const i = columns?.get(c);
    return i === undefined ? "" : (cells[i] ?? "");
  };
  for await (const [row, cells] of rawRows(source, kind)) {
    if (cells.every((c) => c === "")) {
      if (++blank > maxRows) throw new AppError("ERR_IMPORT_TOO_MANY_ROWS");
      continue;
    }
    if (columns === undefined) {
      columns = headerOf(cells);
      if (columns) continue;
      columns = POSITIONAL;
    }
    if (++taken > maxRows) throw new AppError("ERR_IMPORT_TOO_MANY_ROWS");
    yield { row, name: pick(cells, "name"), number: pick(cells, "number"), email: pick(cells, "email") };
  }
}

async function* rawRows(source: Readable, kind: SheetKind): AsyncGenerator<[number, string[]]> {
  try {
    if (kind === "csv") {
      // read as it streams (exceljs's reader would hold the whole sheet before the row limit applies)
      let row = 0;
      for await (const cells of csvRows(source, MAX_COLUMNS)) yield [++row, firstCells(cells.length, (i) => cells[i])];
      return;
    }
    if (kind === "xls") {
      // the old binary format has no streaming reader; the upload limit bounds what is held here
      for (const [row, cells] of readXls(await buffer(source))) yield [row, firstCells(cells.length, (i) => cells[i])];
      return;
    }
    // read by Charla's own reader, not exceljs's: that one wrote a sheet stored before its shared
    // strings (as Excel stores them) to a temp file it removed only at exit, and read entries past
    // what a budget had counted. This one reads the zip from memory (the upload limit bounds it)
    // and inflates only the entries it reads, within the budget, writing nothing.
    const zip = await buffer(source);
    try {
      for await (const [row, cells] of xlsxRows(zip, XLSX_LIMITS)) yield [row, firstCells(cells.length, (i) => cells[i])];
    } catch (err) {
      if (err instanceof ZipOverBudget) throw new AppError("ERR_IMPORT_TOO_LARGE");
      throw err;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_IMPORT_FORMAT");
  }
}

const examples = new Map<string, Promise<Buffer>>();

/**
 * The example download: the header row and two rows in the user's language. Built once per language:
 * the zip stamps each entry with the time it was written, so rebuilding would give different bytes
 * for the same sheet (and cost a workbook per click).
 */
export function exampleSheet(lang: "es" | "pt" | "en"): Promise<Buffer> {
  let sheet = examples.get(lang);
  if (!sheet) {
    sheet = buildExample(lang);
    sheet.catch(() => examples.delete(lang));
    examples.set(lang, sheet);
  }
  return sheet;
}

async function buildExample(lang: "es" | "pt" | "en"): Promise<Buffer> {
  const head = { es: ["Nombre", "Número", "Email"], pt: ["Nome", "Número", "Email"], en: ["Name", "Number", "Email"] }[lang];
  const wb = new ExcelJS.Workbook();
  wb.created = wb.modified = new Date(Date.UTC(2026, 0, 1));
  const ws = wb.addWorksheet(lang === "en" ? "Contacts" : lang === "pt" ? "Contatos" : "Contactos");
  ws.columns = [{ width: 28 }, { width: 20 }, { width: 30 }];
  ws.addRow(head).font = { bold: true };
  ws.addRow(["Lucía Fernández", "5491133334444", "lucia@example.com"]);
  ws.addRow(["Carlos Ramírez", "5511987654321", ""]);
  // numbers as text: a spreadsheet program would otherwise show long ones in scientific notation
  ws.getColumn(2).numFmt = "@";
  return Buffer.from(await wb.xlsx.writeBuffer());
}
