import { readStream } from "./compound-file.js";

/**
 * The first worksheet of an old binary .xls (Excel 97–2003, BIFF8) as rows of cell values: strings,
 * numbers and booleans; formulas by their cached result. Nothing else of the format (styles, number
 * formats, charts) is read. Excel 95 and older files, encrypted workbooks and anything unreadable
 * answer NotWorkbook.
 */

export class NotWorkbook extends Error {}

export type XlsCell = string | number | boolean;
/** [row number as the user sees it (1-based), cells by column (holes are undefined)] in row order. */
export type XlsRow = [number, XlsCell[]];

const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  BOUNDSHEET: 0x0085,
  FILEPASS: 0x002f,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  BOOLERR: 0x0205,
  FORMULA: 0x0006,
  STRING: 0x0207,
} as const;

const WORKSHEET = 0x0010;
const BIFF8 = 0x0600;

type BiffRecord = { type: number; data: Buffer; at: number };

function fail(why: string): never {
  throw new NotWorkbook(why);
}

function* records(stream: Buffer, from: number): Generator<BiffRecord> {
  let at = from;
  while (at + 4 <= stream.length) {
    const type = stream.readUInt16LE(at);
    const size = stream.readUInt16LE(at + 2);
    if (at + 4 + size > stream.length) fail("truncated record");
    yield { type, data: stream.subarray(at + 4, at + 4 + size), at };
    at += 4 + size;
  }
}

/**
 * A record's data and its CONTINUE records' data read as one: a string's characters that run
 * into the next piece start it with a fresh options byte (compressed or not), MS-XLS 2.5.293.
 */
class Pieces {
  private piece = 0;
  private pos = 0;
  constructor(private readonly parts: Buffer[]) {}

  private current(): Buffer {
    while (this.pos >= (this.parts[this.piece]?.length ?? 0)) {
      if (this.piece >= this.parts.length - 1) fail("string runs past its record");
      this.piece++;
      this.pos = 0;
    }
    return this.parts[this.piece] as Buffer;
  }
  u8(): number {
    const b = this.current();
    return b[this.pos++] as number;
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  i32(): number {
    return this.u16() | (this.u16() << 16) | 0;
  }
  skip(n: number) {
    for (let left = n; left > 0; ) {
      const b = this.current();
      const step = Math.min(left, b.length - this.pos);
      this.pos += step;
      left -= step;
    }
  }
  atPieceEnd(): boolean {
    return this.pos >= (this.parts[this.piece]?.length ?? 0);
  }
  /** `count` characters, starting wide (UTF-16LE) or compressed (Latin-1) as `wide` says. */
  chars(count: number, wide: boolean): string {
    let out = "";
    let left = count;
    let isWide = wide;
    while (left > 0) {
      if (this.atPieceEnd()) {
        this.current(); // move to the next piece, which restates the width
        isWide = (this.u8() & 0x01) === 1;
      }
      const b = this.parts[this.piece] as Buffer;
      const size = isWide ? 2 : 1;
      const n = Math.min(left, Math.floor((b.length - this.pos) / size));
      if (n === 0) fail("split character");
      out += b.toString(isWide ? "utf16le" : "latin1", this.pos, this.pos + n * size);
      this.pos += n * size;
      left -= n;
    }
    return out;
  }
}

/** BIFF8 XLUnicodeRichExtendedString (SST) or XLUnicodeString (LABEL, STRING): count, options, characters, extras. */
function unicodeString(p: Pieces, rich: boolean): string {
  const count = p.u16();
  const options = p.u8();
  const runs = rich && options & 0x08 ? p.u16() : 0;
  const phonetic = rich && options & 0x04 ? p.i32() : 0;
  const text = p.chars(count, (options & 0x01) === 1);
  p.skip(runs * 4 + Math.max(0, phonetic));
  return text;
}

/** RK: a number packed in 30 bits, an integer or a double's high bits, maybe ×100 (MS-XLS 2.5.217). */
function rkNumber(rk: number): number {
  let value: number;
  if (rk & 0x02) value = rk >> 2;
  else {
    const bytes = Buffer.alloc(8);
    bytes.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    value = bytes.readDoubleLE(0);
  }
  return rk & 0x01 ? value / 100 : value;
}

/** The stream's records from `at` with their CONTINUE records gathered. */
function withContinues(list: BiffRecord[], i: number): Buffer[] {
  const parts = [(list[i] as BiffRecord).data];
  for (let j = i + 1; list[j]?.type === R.CONTINUE; j++) parts.push((list[j] as BiffRecord).data);
  return parts;
}

export function readXls(file: Buffer): XlsRow[] {
  let stream: Buffer | null;
  try {
    stream = readStream(file, ["Workbook"]);
  } catch (err) {
    // NotCompoundFile, or a RangeError from a sector cut short
    fail(err instanceof Error ? err.message : "unreadable container");
  }
  if (!stream) fail("no workbook stream (not a spreadsheet)");
  try {
    return readBiff(stream);
  } catch (err) {
    if (err instanceof NotWorkbook) throw err;
    // a RangeError from a short record in a damaged file
    fail(err instanceof Error ? err.message : "unreadable");
  }
}

function readBiff(stream: Buffer): XlsRow[] {
  const globals = [...takeSubstream(stream, 0)];
  const bof = globals[0];
  if (bof?.type !== R.BOF || bof.data.length < 4) fail("no BOF");
  if (bof.data.readUInt16LE(0) !== BIFF8) fail("a format before Excel 97");

  const shared: string[] = [];
  let firstSheet: number | undefined;
  globals.forEach((rec, i) => {
    if (rec.type === R.FILEPASS) fail("encrypted");
    if (rec.type === R.BOUNDSHEET && firstSheet === undefined && rec.data[5] === 0) firstSheet = rec.data.readUInt32LE(0);
    if (rec.type === R.SST) {
      const p = new Pieces(withContinues(globals, i));
      const unique = rec.data.readUInt32LE(4);
      p.skip(8);
      for (let n = 0; n < unique; n++) shared.push(unicodeString(p, true));
    }
  });
  if (firstSheet === undefined) return [];

  const sheet = [...takeSubstream(stream, firstSheet)];
  if (sheet[0]?.type !== R.BOF || sheet[0].data.readUInt16LE(2) !== WORKSHEET) fail("first sheet is not a worksheet");

  const rows = new Map<number, XlsCell[]>();
  const put = (row: number, col: number, value: XlsCell) => {
    let cells = rows.get(row);
    if (!cells) {
      cells = [];
      rows.set(row, cells);
    }
    cells[col] = value;
  };

  sheet.forEach((rec, i) => {
    const d = rec.data;
    switch (rec.type) {
      case R.LABELSST:
        put(d.readUInt16LE(0), d.readUInt16LE(2), shared[d.readUInt32LE(6)] ?? "");
        break;
      case R.LABEL:
      case R.RSTRING: {
        const text = unicodeString(new Pieces([d.subarray(6), ...withContinues(sheet, i).slice(1)]), false);
        put(d.readUInt16LE(0), d.readUInt16LE(2), text);
        break;
      }
      case R.NUMBER:
        put(d.readUInt16LE(0), d.readUInt16LE(2), d.readDoubleLE(6));
        break;
      case R.RK:
        put(d.readUInt16LE(0), d.readUInt16LE(2), rkNumber(d.readUInt32LE(6)));
        break;
      case R.MULRK: {
        const row = d.readUInt16LE(0);
        const first = d.readUInt16LE(2);
        const count = Math.floor((d.length - 6) / 6);
        for (let k = 0; k < count; k++) put(row, first + k, rkNumber(d.readUInt32LE(4 + k * 6 + 2)));
        break;
      }
      case R.BOOLERR:
        if (d[7] === 0) put(d.readUInt16LE(0), d.readUInt16LE(2), d[6] === 1);
        break;
      case R.FORMULA: {
        const row = d.readUInt16LE(0);
        const col = d.readUInt16LE(2);
        if (d.readUInt16LE(12) !== 0xffff) put(row, col, d.readDoubleLE(6));
        else if (d[6] === 1) put(row, col, d[8] === 1);
        else if (d[6] === 0) {
          // a text result follows in a STRING record
          const next = sheet[i + 1];
          if (next?.type === R.STRING) put(row, col, unicodeString(new Pieces(withContinues(sheet, i + 1)), false));
        }
        break;
      }
    }
  });
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([row, cells]) => [row + 1, cells]);
}

/** One substream: its BOF to its EOF, passing over any substream nested in it (a sheet's embedded chart). */
function* takeSubstream(stream: Buffer, from: number): Generator<BiffRecord> {
  if (from >= stream.length) fail("sheet offset out of range");
  let depth = 0;
  for (const rec of records(stream, from)) {
    if (rec.type === R.BOF) depth++;
    if (depth === 1) yield rec;
    if (rec.type === R.EOF && --depth <= 0) return;
  }
}
