import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { paddedBomb } from "../test/crafted-sheets.js";
import { MB, deflatedZeros, packedText, zipOf, zipWithDirectory } from "../test/zips.js";
import { InflateBudget, NotZip, ZipOverBudget, entryStream, zipEntries } from "./zip-budget.js";

/** Inflates an entry through `budget`, counting what actually came out. */
async function drain(zip: Buffer, name: string, budget: InflateBudget) {
  const entry = zipEntries(zip).find((e) => e.name === name);
  if (!entry) throw new Error(`no ${name}`);
  let out = 0;
  try {
    for await (const c of entryStream(zip, entry, budget)) out += (c as Buffer).length;
    return { out };
  } catch (error) {
    return { out, error };
  }
}

/** Inflates every entry through one budget, keeping nothing; a broken deflate stream is a NotZip. */
async function checkZipBudget(zip: Buffer, bytes: number): Promise<void> {
  const budget = new InflateBudget(bytes);
  for (const entry of zipEntries(zip)) {
    try {
      for await (const _ of entryStream(zip, entry, budget));
    } catch (err) {
      if (err instanceof ZipOverBudget || err instanceof NotZip) throw err;
      throw new NotZip("deflate stream");
    }
  }
}

describe("zip entries within a budget", () => {
  it("lets a real .xlsx through", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Contactos");
    for (let i = 0; i < 2000; i++) ws.addRow([`Cliente ${i}`, `54911${String(i).padStart(8, "0")}`, `c${i}@example.com`]);
    await expect(checkZipBudget(Buffer.from(await wb.xlsx.writeBuffer()), 4 * MB)).resolves.toBeUndefined();
  });

  it("counts every entry, sizes before or after the data, and refuses past the budget", async () => {
    const entries = [
      { name: "a.xml", data: Buffer.alloc(3 * MB, 0x61) },
      { name: "b.xml", data: Buffer.alloc(3 * MB, 0x62) },
    ];
    for (const descriptor of [false, true]) {
      const zip = zipOf(entries, descriptor);
      await expect(checkZipBudget(zip, 6 * MB)).resolves.toBeUndefined();
      await expect(checkZipBudget(zip, 6 * MB - 1)).rejects.toBeInstanceOf(ZipOverBudget);
    }
  });

  it("refuses a bomb that states its size before inflating any of it, and stops one that understates it", async () => {
    const packed = await deflatedZeros(256);
    const honest = zipOf([{ name: "xl/sharedStrings.xml", packed, size: 256 * MB }], true);
    expect(honest.length).toBeLessThan(MB / 4);
    expect(await drain(honest, "xl/sharedStrings.xml", new InflateBudget(64 * MB))).toEqual({
      out: 0,
      error: expect.any(ZipOverBudget),
    });
    const lying = zipOf([{ name: "xl/sharedStrings.xml", packed, size: 1000 }], true);
    const { out, error } = await drain(lying, "xl/sharedStrings.xml", new InflateBudget(64 * MB));
    expect(error).toBeInstanceOf(NotZip);
    expect(out).toBeLessThanOrEqual(1000);
    await expect(checkZipBudget(lying, 64 * MB)).rejects.toBeInstanceOf(NotZip);
  });

  it("issue 26: an entry whose compressed size covers padding is refused, and what follows it is counted", async () => {
    // the old walk of local headers stopped at the padding and passed this file, 200 MB of XML inside
    const zip = await paddedBomb(100);
    expect(zip.length).toBeLessThan(MB);
    const padded = await drain(zip, "[Content_Types].xml", new InflateBudget(64 * MB));
    expect(padded.error).toBeInstanceOf(NotZip);
    await expect(checkZipBudget(zip, 64 * MB)).rejects.toBeInstanceOf(NotZip);
    const budget = new InflateBudget(64 * MB);
    expect((await drain(zip, "xl/worksheets/sheet1.xml", budget)).error).toBeInstanceOf(ZipOverBudget);
    expect(budget.used).toBe(0);
  });

  it("refuses a zip whose local headers and central directory disagree, or whose entries overlap", async () => {
    const good = zipWithDirectory([
      { name: "a.xml", ...packedText("hola ".repeat(100)) },
      { name: "b.xml", ...packedText("chau ".repeat(100)) },
    ]);
    expect(zipEntries(good).map((e) => [e.name, e.size])).toEqual([
      ["a.xml", 500],
      ["b.xml", 500],
    ]);
    const renamed = Buffer.from(good);
    renamed.write("c", 30); // the first local header's name
    expect(() => zipEntries(renamed)).toThrow(NotZip);
    const resized = Buffer.from(good);
    resized.writeUInt32LE(400, 22); // the first local header's size
    expect(() => zipEntries(resized)).toThrow(NotZip);
    const overlapping = Buffer.from(good);
    const secondInDirectory = overlapping.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    overlapping.writeUInt32LE(0, secondInDirectory + 42); // b.xml's data said to start at a.xml
    expect(() => zipEntries(overlapping)).toThrow(NotZip);
    expect(() => zipEntries(good.subarray(0, good.length - 10))).toThrow(NotZip);
  });

  it("answers NotZip for a broken compressed stream or an unknown method", async () => {
    const zip = zipOf([{ name: "a.xml", data: Buffer.from("hola ".repeat(1000)) }]);
    const broken = Buffer.from(zip);
    broken.fill(0xff, 40, 60);
    await expect(checkZipBudget(broken, MB)).rejects.toBeInstanceOf(NotZip);
    const method = Buffer.from(zip);
    method.writeUInt16LE(99, 8);
    method.writeUInt16LE(99, method.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    await expect(checkZipBudget(method, MB)).rejects.toBeInstanceOf(NotZip);
  });
});
