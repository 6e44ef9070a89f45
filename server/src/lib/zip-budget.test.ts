import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { MB, deflatedZeros, zipOf } from "../test/zips.js";
import { NotZip, ZipOverBudget, checkZipBudget } from "./zip-budget.js";

describe("checkZipBudget", () => {
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

  it("stops a bomb as soon as it passes the budget: 256 MB of zeros in a file of a quarter megabyte", async () => {
    const packed = await deflatedZeros(256);
    const zip = zipOf([{ name: "xl/sharedStrings.xml", packed }], true);
    expect(zip.length).toBeLessThan(MB / 4);
    await expect(checkZipBudget(zip, 64 * MB)).rejects.toBeInstanceOf(ZipOverBudget);
  });

  it("answers NotZip for a broken compressed stream or an unknown method", async () => {
    const zip = zipOf([{ name: "a.xml", data: Buffer.from("hola ".repeat(1000)) }]);
    const broken = Buffer.from(zip);
    broken.fill(0xff, 40, 60);
    await expect(checkZipBudget(broken, MB)).rejects.toBeInstanceOf(NotZip);
    const method = Buffer.from(zip);
    method.writeUInt16LE(99, 8);
    await expect(checkZipBudget(method, MB)).rejects.toBeInstanceOf(NotZip);
  });
});
