import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NotWorkbook, readXls, type XlsCell } from "./workbook.js";

// written by xlwt and LibreOffice (fixtures/make-fixtures.sh), not by us
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** Rows with their holes as undefined, comparable with toEqual. */
const plain = (rows: [number, XlsCell[]][]) => rows.map(([n, cells]) => [n, Array.from(cells)]);

const COMMON: [number, (XlsCell | undefined)[]][] = [
  [1, ["Nombre", "Número", "Email"]],
  [2, ["Lucía Fernández", 5491133334444, "lucia@example.com"]],
  [3, ["Carlos Ramírez", "+55 11 98765-4321"]],
  [5, ["Sin número", undefined, "x@example.com"]],
  [6, ["Números", 1, 2, 3.25, -4, 1e15]],
];

describe("the .xls reader", () => {
  it("reads the first sheet's strings, numbers and booleans as xlwt writes them", () => {
    expect(plain(readXls(fixture("cells-xlwt.xls")))).toEqual([
      ...COMMON,
      [7, ["Verdadero", true, false]],
      [8, ["中文 Ωμέγα", "5491100000001", "zoe@example.com"]],
    ]);
  });

  it("reads LibreOffice's BIFF8 too: number runs, booleans stored as numbers, formulas by their results", () => {
    expect(plain(readXls(fixture("cells-libreoffice.xls")))).toEqual([
      ...COMMON,
      [7, ["Verdadero", 1, 0]],
      [8, ["中文 Ωμέγα", "5491100000001", "zoe@example.com"]],
      [9, ["Fórmula", 5491100000002, "ana@example.com", true]],
    ]);
  });

  it("reads a shared-string table that runs into CONTINUE records, strings split mid-way in either width", () => {
    const rows = readXls(fixture("contacts-1500-xlwt.xls"));
    expect(rows).toHaveLength(1501);
    expect(rows[0]).toEqual([1, ["Nombre", "Número", "Email"]]);
    for (let i = 1; i <= 1500; i++) {
      const who = ["José Pérez", "李小龍", "Zoë Ωμέγα"][i % 3];
      const email = i % 250 === 0 ? "no-es-un-correo" : `contacto${i}@example.com`;
      expect(plain([rows[i] as [number, XlsCell[]]])).toEqual([
        [i + 1, [`${who} ${i}`, i % 100 === 0 ? undefined : 5491100000000 + i, email]],
      ]);
    }
  });

  it("answers NotWorkbook, never anything else, for what is not a readable workbook", () => {
    const good = fixture("cells-libreoffice.xls");
    const notWorkbook = (file: Buffer) => expect(() => readXls(file)).toThrow(NotWorkbook);
    notWorkbook(Buffer.from("not a compound file at all, just text"));
    notWorkbook(good.subarray(0, 1024)); // cut short
    // the stream renamed: a compound file with no workbook in it, as a .doc is
    notWorkbook(Buffer.from(good.toString("latin1").replace("W\0o\0r\0k\0b\0o\0o\0k", "W\0o\0r\0d\0D\0o\0c\0!"), "latin1"));
    // the directory's first sector chained to itself: bounded, not an endless loop
    const looped = Buffer.from(good);
    const firstDirSector = looped.readUInt32LE(0x30);
    const fatSector = looped.readUInt32LE(0x4c);
    looped.writeUInt32LE(firstDirSector, 512 + fatSector * 512 + firstDirSector * 4);
    notWorkbook(looped);
  });

  it("a file whose FAT names one sector over and over is refused at once, not grown to gigabytes", () => {
    // 4 KB sectors; the header and 200 DIFAT sectors each list sector 0 as a FAT sector, 1,023 times
    const SS = 4096;
    const K = 200;
    const file = Buffer.alloc(SS * (K + 2));
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
    file.writeUInt16LE(12, 0x1e);
    file.writeUInt16LE(6, 0x20);
    file.writeUInt32LE(0x30, 0x2c);
    file.writeUInt32LE(4096, 0x38);
    file.writeUInt32LE(1, 0x44);
    for (let k = 0; k < K; k++) {
      const base = (k + 2) * SS;
      file.writeUInt32LE(k + 1 < K ? k + 2 : 0xfffffffe, base + 1023 * 4);
    }
    for (const fatCount of [0xffffffff, 1]) {
      file.writeUInt32LE(fatCount, 0x2c);
      expect(() => readXls(file)).toThrow(NotWorkbook);
    }
  });

  it("a damaged file either reads or answers NotWorkbook: 300 copies with bytes overwritten at random", () => {
    const good = fixture("contacts-1500-xlwt.xls");
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let refused = 0;
    for (let n = 0; n < 300; n++) {
      const copy = Buffer.from(good);
      // the header, the directory and the workbook's first records are where damage matters most
      for (let k = 0; k < 8; k++) {
        const at = random() < 0.5 ? Math.floor(random() * 4096) : Math.floor(random() * copy.length);
        copy[at] = Math.floor(random() * 256);
      }
      try {
        readXls(copy);
      } catch (err) {
        expect(err).toBeInstanceOf(NotWorkbook);
        refused++;
      }
    }
    // some of the damage must have mattered, or the test damaged nothing that is read
    expect(refused).toBeGreaterThan(0);
  });
});
