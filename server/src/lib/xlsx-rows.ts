import { posix } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { AppError } from "./app-error.js";
import { MAX_FIELD_CHARS, ownCopy } from "./csv-rows.js";
import { type XmlHandler, XmlScanner, attribute, decodeXml } from "./xml-scan.js";
import { InflateBudget, type ZipEntry, ZipOverBudget, entryStream, zipEntries } from "./zip-budget.js";

export type XlsxOptions = {
  /** What the entries read (workbook, shared strings, the sheet) may inflate to together: ZipOverBudget beyond. */
  inflatedBudget: number;
  /** Cells kept per row, from column A. */
  maxColumns: number;
  /** Shared strings kept at most (a sheet within the row limit uses no more): ZipOverBudget beyond. */
  maxStrings: number;
  /**
   * Cells read at most, wherever they stand (past `maxColumns` too: each costs its reading, kept or
   * not): ZipOverBudget beyond.
   */
  maxCells: number;
};

/** A sheet's columns (A to XFD): a row of more cells is not from a spreadsheet program (ZipOverBudget). */
const SHEET_COLUMNS = 16_384;

/** A cell longer than a cell may be (only a crafted file has one). */
const TOO_LONG = Symbol("too long");
type Text = string | typeof TOO_LONG;

/**
 * The rows of an .xlsx's first sheet as `[row number, cells as text]`, read straight from the zip in
 * memory: the shared strings first (wherever the zip keeps them), then the sheet as it inflates,
 * nothing written to disk and nothing inflated but those entries, through one budget. A cell reads
 * as the user sees it: a shared or inline string, a formula's result, a number's digits, TRUE/FALSE
 * as true/false. A cell past MAX_FIELD_CHARS refuses the file (ERR_IMPORT_FIELD_TOO_LONG with its row).
 * Zip trouble throws ZipOverBudget (as does a sheet past its strings or cells) or NotZip, XML trouble BadXml.
 */
export async function* xlsxRows(zip: Buffer, options: XlsxOptions): AsyncGenerator<[number, string[]]> {
  const entries = new Map(zipEntries(zip).map((e) => [e.name, e]));
  const budget = new InflateBudget(options.inflatedBudget);
  const { sheet, strings } = await locate(zip, entries, budget);
  const shared: Text[] = [];
  await collect(zip, strings, budget, sharedStrings(shared, options.maxStrings));
  if (!sheet) throw new AppError("ERR_IMPORT_FORMAT");
  const rows: [number, string[]][] = [];
  yield* scan(zip, sheet, budget, worksheet(shared, options, rows), rows);
}

/** Inflates an entry through `handler`, handing on what `out` gathers after each piece. */
async function* scan<T>(zip: Buffer, entry: ZipEntry, budget: InflateBudget, handler: XmlHandler, out: T[] = []) {
  const decoder = new StringDecoder("utf8");
  const scanner = new XmlScanner(handler);
  for await (const piece of entryStream(zip, entry, budget)) {
    scanner.write(decoder.write(piece as Buffer));
    yield* out.splice(0);
    // pieces come as fast as zlib inflates them: other requests get the loop in between
    await new Promise((resolve) => setImmediate(resolve));
  }
  scanner.write(decoder.end());
  scanner.end();
  yield* out.splice(0);
}

async function collect(zip: Buffer, entry: ZipEntry | undefined, budget: InflateBudget, handler: XmlHandler) {
  if (entry) for await (const _ of scan(zip, entry, budget, handler));
}

/** The workbook's first sheet (in tab order) and its shared strings, through the workbook's relations. */
async function locate(zip: Buffer, entries: Map<string, ZipEntry>, budget: InflateBudget) {
  let firstSheetId: string | undefined;
  await collect(zip, entries.get("xl/workbook.xml"), budget, {
    open: (name, attrs) => {
      if (name === "sheet" && firstSheetId === undefined) firstSheetId = attribute(attrs, "id");
    },
    close: () => undefined,
    text: () => undefined,
  });
  const targets = new Map<string, string>();
  let stringsPath: string | undefined;
  await collect(zip, entries.get("xl/_rels/workbook.xml.rels"), budget, {
    open: (name, attrs) => {
      const target = attribute(attrs, "Target");
      if (name !== "Relationship" || !target) return;
      // relative to xl/, or absolute from the package root
      const path = target.startsWith("/") ? target.slice(1) : posix.normalize(`xl/${target}`);
      targets.set(attribute(attrs, "Id") ?? "", path);
      if (attribute(attrs, "Type")?.endsWith("/sharedStrings")) stringsPath = path;
    },
    close: () => undefined,
    text: () => undefined,
  });
  const named = firstSheetId === undefined ? undefined : targets.get(firstSheetId);
  // without a workbook that says, the lowest-numbered worksheet
  const fallback = [...entries.keys()]
    .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
    .sort((a, b) => Number(a.replace(/\D/g, "")) - Number(b.replace(/\D/g, "")))[0];
  return {
    sheet: entries.get(named ?? fallback ?? ""),
    strings: entries.get(stringsPath ?? "xl/sharedStrings.xml"),
  };
}

/** Appends `raw` to `text` unless that passes a cell's length. */
const grow = (text: Text, raw: string): Text =>
  text === TOO_LONG || text.length + raw.length > MAX_FIELD_CHARS * 2 ? TOO_LONG : text + raw;
/** Raw text (entities still in it, so up to twice as long) as it reads. */
const finish = (text: Text): Text => {
  if (text === TOO_LONG) return TOO_LONG;
  const decoded = decodeXml(text);
  return decoded.length > MAX_FIELD_CHARS ? TOO_LONG : ownCopy(decoded);
};

/** xl/sharedStrings.xml: each <si>'s text, its runs joined, phonetic guides (<rPh>) left out. */
function sharedStrings(out: Text[], max: number): XmlHandler {
  let text: Text = "";
  let inText = false;
  let phonetic = 0;
  return {
    open(name) {
      if (name === "si") text = "";
      else if (name === "t") inText = phonetic === 0;
      else if (name === "rPh") phonetic++;
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si") {
        if (out.length >= max) throw new ZipOverBudget();
        out.push(finish(text));
      }
    },
    text(raw) {
      if (inText) text = grow(text, raw);
    },
  };
}

/** A cell reference's column, 0-based ("C7" → 2), or -1 when it has none. */
function columnOf(ref: string | undefined): number {
  if (!ref) return -1;
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    n = n * 26 + code - 64;
  }
  return n - 1;
}

function cellValue(type: string, value: Text, inline: Text, shared: Text[]): Text {
  if (value === TOO_LONG) return TOO_LONG;
  switch (type) {
    case "s":
      return shared[Number.parseInt(value, 10)] ?? "";
    case "inlineStr":
      return inline;
    case "str":
    case "d":
      return value;
    case "b":
      return value.trim() === "" ? "" : String(value.trim() === "1");
    case "e":
      return "";
    default: {
      if (value.trim() === "") return "";
      const n = Number.parseFloat(value);
      return Number.isNaN(n) ? value : Number.isInteger(n) ? n.toFixed(0) : String(n);
    }
  }
}

/** A worksheet's <row>s as they close, their first `maxColumns` cells as trimmed text. */
function worksheet(shared: Text[], { maxColumns, maxCells }: XlsxOptions, out: [number, string[]][]): XmlHandler {
  let row = 0;
  let cellsRead = 0;
  let inRow = 0;
  let cells: string[] = [];
  let column = -1;
  let type = "n";
  let value: Text = "";
  let inline: Text = "";
  let into: "v" | "t" | null = null;
  let phonetic = 0;
  return {
    open(name, attrs) {
      if (name === "row") {
        const r = Number.parseInt(attribute(attrs, "r") ?? "", 10);
        row = r >= 1 ? r : row + 1;
        cells = [];
        column = -1;
        inRow = 0;
      } else if (name === "c") {
        if (++cellsRead > maxCells || ++inRow > SHEET_COLUMNS) throw new ZipOverBudget();
        const at = columnOf(attribute(attrs, "r"));
        column = at >= 0 ? at : column + 1;
        type = attribute(attrs, "t") ?? "n";
        value = inline = "";
      } else if (name === "v") into = "v";
      else if (name === "t") into = phonetic === 0 ? "t" : null;
      else if (name === "rPh") phonetic++;
    },
    close(name) {
      if (name === "v" || name === "t") into = null;
      else if (name === "rPh") phonetic--;
      else if (name === "c" && column < maxColumns) {
        const text = cellValue(type, finish(value), finish(inline), shared);
        if (text === TOO_LONG) throw new AppError("ERR_IMPORT_FIELD_TOO_LONG", { data: { row } });
        while (cells.length < column) cells.push("");
        cells[column] = text.trim();
      } else if (name === "row") out.push([row, cells]);
    },
    text(raw) {
      if (into === "v") value = grow(value, raw);
      else if (into === "t") inline = grow(inline, raw);
    },
  };
}
