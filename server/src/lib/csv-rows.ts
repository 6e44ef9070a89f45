import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * The records of a CSV file (RFC 4180: quoted fields, "" inside quotes, CRLF, LF or CR line ends), read
 * as it streams in, so a caller that stops early has read no further. The delimiter is the first line's
 * most frequent of comma, semicolon and tab (spreadsheet programs in Spanish and Portuguese save with
 * semicolons). Fields are text as written: a long number keeps every digit. Each record keeps its
 * first `maxFields` fields.
 */
export async function* csvRows(source: Readable, maxFields = Number.POSITIVE_INFINITY): AsyncGenerator<string[]> {
  const decoder = new StringDecoder("utf8");
  let delimiter: string | null = null;
  let pending = "";
  let record: string[] = [];
  let field = "";
  let quoted = false;
  // after a closing quote: the next character decides whether it was "" or the end of the field
  let quoteClosed = false;
  let atFieldStart = true;
  let lastWasCR = false;

  const endField = () => {
    // fields past `maxFields` are read but not kept: a line of commas is not millions of strings
    if (record.length < maxFields) record.push(field);
    field = "";
    atFieldStart = true;
    quoteClosed = false;
  };

  function* parse(text: string, final: boolean): Generator<string[]> {
    if (delimiter === null) {
      pending += text;
      const firstLine = pending.search(/[\r\n]/);
      if (firstLine === -1 && !final) return;
      delimiter = pickDelimiter(firstLine === -1 ? pending : pending.slice(0, firstLine));
      text = pending.replace(/^\uFEFF/, "");
      pending = "";
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (lastWasCR) {
        lastWasCR = false;
        if (ch === "\n") continue;
      }
      if (quoted) {
        if (ch === '"') {
          quoted = false;
          quoteClosed = true;
        } else field += ch;
        continue;
      }
      if (ch === '"' && (atFieldStart || quoteClosed)) {
        // a field's opening quote, or the second of "" inside a quoted field
        if (quoteClosed) field += '"';
        quoted = true;
        quoteClosed = false;
        atFieldStart = false;
        continue;
      }
      if (ch === delimiter) {
        endField();
        continue;
      }
      if (ch === "\n" || ch === "\r") {
        lastWasCR = ch === "\r";
        endField();
        yield record;
        record = [];
        continue;
      }
      field += ch;
      atFieldStart = false;
      quoteClosed = false;
    }
    if (final && (record.length > 0 || field !== "" || !atFieldStart)) {
      endField();
      yield record;
      record = [];
    }
  }

  for await (const chunk of source) {
    yield* parse(typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer), false);
  }
  yield* parse(decoder.end(), true);
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
