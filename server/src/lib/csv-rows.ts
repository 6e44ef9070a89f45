import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { AppError } from "./app-error.js";

/**
 * The longest field taken: what an Excel cell holds (32,767 characters). A longer one is not a
 * spreadsheet's cell, and building it would cost memory for nothing.
 */
export const MAX_FIELD_CHARS = 32_767;

/** What a first line is judged by when it has no end in sight (the delimiter is in its first fields). */
const FIRST_LINE_LOOK = 64 * 1024;
/** Text handled between two turns of the event loop: a large chunk is cut so others get the loop. */
const SLICE_CHARS = 64 * 1024;

/**
 * `s` as a string of its own. A slice of a larger string may keep all of that string alive while it
 * lives: kept cells would hold every piece of the file they were cut from (measured: 40,000 shared
 * strings of an .xlsx kept 320 MB).
 */
export function ownCopy(s: string): string {
  return s.length === 0 ? "" : ` ${s}`.slice(1);
}

export type CsvOptions = {
  /** Each record keeps its first `maxFields` fields; the rest are read and dropped. */
  maxFields?: number;
  /** A longer field refuses the file: ERR_IMPORT_FIELD_TOO_LONG with its record's number (`row`). */
  maxFieldChars?: number;
};

/**
 * The records of a CSV file (RFC 4180: quoted fields, "" inside quotes, CRLF, LF or CR line ends), read
 * as it streams in, so a caller that stops early has read no further. The delimiter is the first line's
 * most frequent of comma, semicolon and tab (spreadsheet programs in Spanish and Portuguese save with
 * semicolons). Fields are text as written: a long number keeps every digit. Fields are built from
 * slices of the text, never character by character, and the event loop gets a turn between chunks,
 * so a file of one huge field neither fills memory nor holds other requests up. The second argument
 * may also be a plain number: `maxFields`.
 */
export async function* csvRows(source: Readable, options: number | CsvOptions = {}): AsyncGenerator<string[]> {
  const { maxFields = Number.POSITIVE_INFINITY, maxFieldChars = MAX_FIELD_CHARS } =
    typeof options === "number" ? { maxFields: options } : options;
  const decoder = new StringDecoder("utf8");
  let delimiter: string | null = null;
  let special = /[,\r\n"]/g;
  let pending = "";
  let record: string[] = [];
  let records = 0;
  let field = "";
  let quoted = false;
  // after a closing quote: the next character decides whether it was "" or the end of the field
  let quoteClosed = false;
  let atFieldStart = true;
  let lastWasCR = false;

  const add = (text: string) => {
    if (field.length + text.length > maxFieldChars) {
      throw new AppError("ERR_IMPORT_FIELD_TOO_LONG", { data: { row: records + 1 } });
    }
    field += text;
  };
  const endField = () => {
    // fields past `maxFields` are read but not kept: a line of commas is not millions of strings
    if (record.length < maxFields) record.push(ownCopy(field));
    field = "";
    atFieldStart = true;
    quoteClosed = false;
  };

  function* parse(text: string, final: boolean): Generator<string[]> {
    let i = 0;
    while (i < text.length) {
      if (lastWasCR) {
        lastWasCR = false;
        if (text[i] === "\n") {
          i++;
          continue;
        }
      }
      if (quoted) {
        const close = text.indexOf('"', i);
        add(text.slice(i, close === -1 ? text.length : close));
        if (close === -1) break;
        quoted = false;
        quoteClosed = true;
        i = close + 1;
        continue;
      }
      special.lastIndex = i;
      const stop = special.exec(text)?.index ?? text.length;
      if (stop > i) {
        add(text.slice(i, stop));
        atFieldStart = false;
        quoteClosed = false;
        i = stop;
        continue;
      }
      const ch = text[i++];
      if (ch === '"') {
        if (atFieldStart || quoteClosed) {
          // a field's opening quote, or the second of "" inside a quoted field
          if (quoteClosed) add('"');
          quoted = true;
          quoteClosed = false;
          atFieldStart = false;
        } else {
          add('"');
          quoteClosed = false;
        }
      } else if (ch === delimiter) endField();
      else {
        lastWasCR = ch === "\r";
        endField();
        records++;
        yield record;
        record = [];
      }
    }
    if (final && (record.length > 0 || field !== "" || !atFieldStart)) {
      endField();
      records++;
      yield record;
      record = [];
    }
  }

  function* take(text: string, final: boolean): Generator<string[]> {
    if (delimiter === null) {
      pending += text;
      const firstLine = pending.search(/[\r\n]/);
      if (firstLine === -1 && !final && pending.length < FIRST_LINE_LOOK) return;
      delimiter = pickDelimiter(pending.slice(0, firstLine === -1 ? FIRST_LINE_LOOK : firstLine));
      special = new RegExp(`[${delimiter === "\t" ? "\\t" : delimiter}\\r\\n"]`, "g");
      text = pending.replace(/^\uFEFF/, "");
      pending = "";
    }
    yield* parse(text, final);
  }

  for await (const chunk of source) {
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer);
    for (let at = 0; at < text.length || at === 0; at += SLICE_CHARS) {
      yield* take(text.slice(at, at + SLICE_CHARS), false);
      // chunks that are already there come without a wait: let other requests in between
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  yield* take(decoder.end(), true);
}

function pickDelimiter(line: string): string {
  let best = ",";
  let most = 0;
  for (const candidate of [",", ";", "\t"]) {
    let n = 0;
    let inQuotes = false;
    for (const ch of line) {
      if (ch === '"') inQuotes = !inQuotes;
      else if (ch === candidate && !inQuotes) n++;
    }
    if (n > most) {
      best = candidate;
      most = n;
    }
  }
  return best;
}
