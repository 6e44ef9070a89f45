import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AppError } from "./app-error.js";
import { MAX_FIELD_CHARS, csvRows } from "./csv-rows.js";

const read = async (chunks: (string | Buffer)[]) => {
  const out: string[][] = [];
  for await (const r of csvRows(Readable.from(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))))) out.push(r);
  return out;
};

describe("csvRows", () => {
  it("reads quoted fields, doubled quotes, delimiters and line ends inside quotes, and every line end", async () => {
    expect(await read(['\uFEFFname,number,email\r\n"Pérez, Ana",5491133334444,"a@x.com"\n"Dice ""hola""\nyo",1\r2'])).toEqual([
      ["name", "number", "email"],
      ["Pérez, Ana", "5491133334444", "a@x.com"],
      ['Dice "hola"\nyo', "1"],
      ["2"],
    ]);
  });

  it("takes semicolons or tabs when the first line uses them, and keeps every digit of a long number", async () => {
    expect(await read(["Nombre;Número\nAna;12345678901234567890\n"])).toEqual([
      ["Nombre", "Número"],
      ["Ana", "12345678901234567890"],
    ]);
    expect(await read(["a\tb\n1\t2"])).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("reads across chunk borders, a multi-byte character and a CRLF split between chunks included", async () => {
    const text = Buffer.from('nombre,email\r\n"Lucía ""L""",lucia@example.com\r\nJosé,\r\n');
    const whole = await read([text]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(await read([text.subarray(0, cut), text.subarray(cut)])).toEqual(whole);
    }
    expect(whole).toEqual([
      ["nombre", "email"],
      ['Lucía "L"', "lucia@example.com"],
      ["José", ""],
    ]);
  });

  it("keeps a record's first maxFields fields", async () => {
    const out: string[][] = [];
    for await (const r of csvRows(Readable.from([Buffer.from(`a,b,c${",".repeat(100_000)}\n1,2`)]), 2)) out.push(r);
    expect(out).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("stops reading when the caller stops", async () => {
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 1_000_000; i++) {
          pulled++;
          yield Buffer.from("a,b\n");
        }
      })(),
    );
    let n = 0;
    for await (const _ of csvRows(source)) if (++n === 10) break;
    expect(pulled).toBeLessThan(100);
  });

  it("refuses a field past a cell's length with its row, quoted or not, whatever the chunks", async () => {
    const long = "x".repeat(MAX_FIELD_CHARS + 1);
    for (const text of [`a,b\n1,2\n${long},3\n`, `a,b\n1,2\n3,"${long}"\n`]) {
      const chunks = text.match(/[\s\S]{1,1000}/g) ?? [];
      const err = await read(chunks).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "ERR_IMPORT_FIELD_TOO_LONG", data: { row: 3 } });
    }
    // as long as a cell holds is taken, and built right across chunk borders, "" included
    const full = `"${"y".repeat(MAX_FIELD_CHARS - 3)}""z",2`;
    const rows = await read([`a,b\n${full.slice(0, 5000)}`, full.slice(5000, 20000), `${full.slice(20000)}\n`]);
    expect(rows[1]).toEqual([`${"y".repeat(MAX_FIELD_CHARS - 3)}"z`, "2"]);
    expect(rows[1][0]).toHaveLength(MAX_FIELD_CHARS - 1);
  });

  it("takes a smaller field bound and the number of fields as options, the old call shape too", async () => {
    const source = () => Readable.from([Buffer.from("a,bcdef,c\n")]);
    const out: string[][] = [];
    for await (const r of csvRows(source(), { maxFields: 2, maxFieldChars: 5 })) out.push(r);
    expect(out).toEqual([["a", "bcdef"]]);
    const err = await (async () => {
      for await (const _ of csvRows(source(), { maxFieldChars: 4 }));
    })().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "ERR_IMPORT_FIELD_TOO_LONG", data: { row: 1 } });
  });

  it("gives the event loop a turn between chunks, even when they arrive without waiting", async () => {
    const chunks = Array.from({ length: 50 }, () => Buffer.from("Ana,5491133334444\n".repeat(500)));
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    let rows = 0;
    for await (const _ of csvRows(Readable.from(chunks))) rows++;
    counting = false;
    expect(rows).toBe(25_000);
    // other requests get the loop at least once per chunk read
    expect(turns).toBeGreaterThanOrEqual(chunks.length);
  });
});
