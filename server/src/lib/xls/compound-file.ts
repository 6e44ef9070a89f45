/**
 * Reads one stream out of an OLE compound file (MS-CFB), the container of the old binary .xls.
 * Only what reading a workbook needs: the FAT and mini FAT chains and the directory. Every sector
 * number is checked and every chain is bounded, so a crafted file ends in NotCompoundFile, never in
 * a loop or an out-of-range read.
 */

export class NotCompoundFile extends Error {}

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const HEADER_DIFAT = 109;
const STREAM = 2;
const ROOT = 5;

export const isCompoundFile = (head: Buffer) => head.length >= 8 && head.subarray(0, 8).equals(SIGNATURE);

function fail(why: string): never {
  throw new NotCompoundFile(why);
}

/** The named streams of the file's root storage (names compared without case, as MS-CFB says). */
export function readStream(file: Buffer, names: string[]): Buffer | null {
  if (file.length < 512 || !isCompoundFile(file)) fail("signature");
  const sectorShift = file.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) fail("sector size");
  const sectorSize = 1 << sectorShift;
  if (file.readUInt16LE(0x20) !== 6) fail("mini sector size");
  const miniSectorSize = 64;
  const miniCutoff = file.readUInt32LE(0x38);
  const sectorCount = Math.floor((file.length - sectorSize + sectorSize - 1) / sectorSize);

  const sector = (n: number) => {
    if (n >= sectorCount) fail("sector out of range");
    const start = (n + 1) * sectorSize;
    return file.subarray(start, Math.min(start + sectorSize, file.length));
  };

  // the FAT's own sectors: 109 in the header, the rest in the DIFAT chain. A FAT never needs more
  // sectors than it takes to number the file's, and each is a different one: a file that claims
  // more, or names one sector many times, would otherwise grow the table far past the file's size.
  const fatCount = file.readUInt32LE(0x2c);
  if (fatCount > Math.ceil(sectorCount / (sectorSize / 4))) fail("FAT larger than the file");
  const fatSectors: number[] = [];
  for (let i = 0; i < HEADER_DIFAT && fatSectors.length < fatCount; i++) fatSectors.push(file.readUInt32LE(0x4c + i * 4));
  let difat = file.readUInt32LE(0x44);
  for (let hops = 0; fatSectors.length < fatCount && difat !== END_OF_CHAIN && difat !== FREE; hops++) {
    if (hops > sectorCount) fail("DIFAT loop");
    const s = sector(difat);
    const perSector = sectorSize / 4 - 1;
    for (let i = 0; i < perSector && fatSectors.length < fatCount; i++) fatSectors.push(s.readUInt32LE(i * 4));
    difat = s.readUInt32LE(perSector * 4);
  }
  const seen = new Set<number>();
  const fat: number[] = [];
  for (const n of fatSectors) {
    if (n === FREE || n === END_OF_CHAIN) continue;
    if (seen.has(n)) fail("FAT sector named twice");
    seen.add(n);
    const s = sector(n);
    for (let i = 0; i + 4 <= s.length; i += 4) fat.push(s.readUInt32LE(i));
  }

  const chain = (start: number, table: number[], limit: number): number[] => {
    const out: number[] = [];
    for (let n = start; n !== END_OF_CHAIN && n !== FREE; n = table[n] ?? fail("chain out of range")) {
      if (out.length > limit) fail("chain loop");
      out.push(n);
    }
    return out;
  };
  const bigStream = (start: number, size?: number) => {
    const data = Buffer.concat(chain(start, fat, sectorCount).map(sector));
    return size === undefined ? data : data.subarray(0, size);
  };

  const directory = bigStream(file.readUInt32LE(0x30));
  const entries = [] as { name: string; type: number; start: number; size: number }[];
  for (let at = 0; at + 128 <= directory.length; at += 128) {
    const nameLength = Math.min(directory.readUInt16LE(at + 0x40), 64);
    entries.push({
      name: directory.toString("utf16le", at, at + Math.max(0, nameLength - 2)),
      type: directory[at + 0x42] ?? 0,
      start: directory.readUInt32LE(at + 0x74),
      // a version 3 file's high size word may hold garbage (MS-CFB 2.6.3)
      size: sectorShift === 9 ? directory.readUInt32LE(at + 0x78) : Number(directory.readBigUInt64LE(at + 0x78)),
    });
  }
  const root = entries[0];
  if (!root || root.type !== ROOT) fail("no root entry");

  const wanted = names.map((n) => n.toLowerCase());
  const entry = entries.find((e) => e.type === STREAM && wanted.includes(e.name.toLowerCase()));
  if (!entry) return null;
  if (entry.size > file.length) fail("stream larger than the file");
  if (entry.size >= miniCutoff) return bigStream(entry.start, entry.size);

  // a small stream lives in the mini stream, 64-byte sectors chained by the mini FAT
  const miniStream = bigStream(root.start, root.size);
  const miniFatData = bigStream(file.readUInt32LE(0x3c));
  const miniFat: number[] = [];
  for (let i = 0; i + 4 <= miniFatData.length; i += 4) miniFat.push(miniFatData.readUInt32LE(i));
  const miniCount = Math.ceil(miniStream.length / miniSectorSize);
  const parts = chain(entry.start, miniFat, miniCount).map((n) => {
    if (n >= miniCount) fail("mini sector out of range");
    return miniStream.subarray(n * miniSectorSize, (n + 1) * miniSectorSize);
  });
  return Buffer.concat(parts).subarray(0, entry.size);
}
