import type { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { AppError } from "../../lib/app-error.js";

/** One data row of an import: its row number in the sheet (1-based, as the user sees it) and its cells. */
export type SheetRow = { row: number; name: string; number: string; email: string };
export type SheetKind = "xlsx" | "csv";

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

/** A cell as the text the user sees: rich text joined, a link's text, a formula's result, a number's digits. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === "string" || typeof value === "boolean") return String(value).trim();
  if (value instanceof Date) return value.toISOString();
  const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown };
  if (Array.isArray(v.richText))
    return v.richText
      .map((r) => r.text)
      .join("")
      .trim();
  if (v.text !== undefined) return cellText(v.text);
  if (v.result !== undefined) return cellText(v.result);
  return "";
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
 * The first sheet's rows, read as a stream (a large file is never whole in memory), at most `maxRows`
 * data rows (ERR_IMPORT_TOO_MANY_ROWS beyond). Blank rows are skipped. A file that is not a readable
 * spreadsheet answers ERR_IMPORT_FORMAT.
 */
export async function* sheetRows(source: Readable, kind: SheetKind, maxRows: number): AsyncGenerator<SheetRow> {
  let columns: Map<Column, number> | null | undefined;
  let taken = 0;
  const pick = (cells: string[], c: Column) => {
    const i = columns?.get(c);
    return i === undefined ? "" : (cells[i] ?? "");
  };
  for await (const [row, cells] of rawRows(source, kind)) {
    if (columns === undefined) {
      columns = headerOf(cells);
      if (columns) continue;
      columns = POSITIONAL;
    }
    if (cells.every((c) => c === "")) continue;
    if (++taken > maxRows) throw new AppError("ERR_IMPORT_TOO_MANY_ROWS");
    yield { row, name: pick(cells, "name"), number: pick(cells, "number"), email: pick(cells, "email") };
  }
}

async function* rawRows(source: Readable, kind: SheetKind): AsyncGenerator<[number, string[]]> {
  try {
    if (kind === "csv") {
      const sheet = await new ExcelJS.Workbook().csv.read(source);
      const rows: [number, string[]][] = [];
      sheet.eachRow((r, n) => {
        rows.push([n, (r.values as unknown[]).slice(1).map(cellText)]);
      });
      yield* rows;
      return;
    }
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
      sharedStrings: "cache",
      hyperlinks: "ignore",
      styles: "ignore",
      worksheets: "emit",
      entries: "emit",
    });
    for await (const sheet of reader) {
      for await (const r of sheet) yield [r.number, (r.values as unknown[]).slice(1).map(cellText)];
      return; // the first sheet only
    }
    // a zip with no worksheet in it (a broken file, another kind of zip)
    throw new AppError("ERR_IMPORT_FORMAT");
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_IMPORT_FORMAT");
  }
}

/** The example download: the header row and two rows in the user's language. */
export async function exampleSheet(lang: "es" | "pt" | "en"): Promise<Buffer> {
  const head = { es: ["Nombre", "Número", "Email"], pt: ["Nome", "Número", "Email"], en: ["Name", "Number", "Email"] }[lang];
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(lang === "en" ? "Contacts" : lang === "pt" ? "Contatos" : "Contactos");
  ws.columns = [{ width: 28 }, { width: 20 }, { width: 30 }];
  ws.addRow(head).font = { bold: true };
  ws.addRow(["Lucía Fernández", "5491133334444", "lucia@example.com"]);
  ws.addRow(["Carlos Ramírez", "5511987654321", ""]);
  // numbers as text: a spreadsheet program would otherwise show long ones in scientific notation
  ws.getColumn(2).numFmt = "@";
  return Buffer.from(await wb.xlsx.writeBuffer());
}
