import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvRows } from "./csv-rows.js";

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
});
