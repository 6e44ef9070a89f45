import { Readable, Transform, pipeline } from "node:stream";
import { createInflateRaw } from "node:zlib";

/** The zip holds more than the budget once inflated (a zip bomb, or a sheet far past any limit). */
export class ZipOverBudget extends Error {}
/** Not a zip a reader could walk: a header, a size or a compressed stream that does not hold together. */
export class NotZip extends Error {}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const STORED = 0;
const DEFLATED = 8;
/** Inflated data is handed on in pieces of this size: what a refused entry may have cost past its size. */
const PIECE = 64 * 1024;

/** One entry as the central directory states it, its data located through its local header. */
export type ZipEntry = { name: string; method: number; compressedSize: number; size: number; dataStart: number };

/**
 * The entries of a zip held in memory, from its central directory (where readers that seek look),
 * each checked against its local header (where streaming readers look): names, methods and sizes must
 * agree, and every entry's data must lie before the directory without overlapping another's. A zip
 * that two readers would read differently is refused (NotZip), so what is counted is what is read.
 */
export function zipEntries(zip: Buffer): ZipEntry[] {
  const end = findEnd(zip);
  const count = zip.readUInt16LE(end + 10);
  const dirSize = zip.readUInt32LE(end + 12);
  const dirStart = zip.readUInt32LE(end + 16);
  // Zip64 markers: no spreadsheet within the upload limit needs them
  if (count === 0xffff || dirStart === 0xffffffff || dirStart + dirSize > end) throw new NotZip("directory");
  const entries: ZipEntry[] = [];
  const spans: [number, number][] = [];
  let at = dirStart;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new NotZip("directory entry");
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (flags & 0x01) throw new NotZip("encrypted entry");
    if (method === STORED && compressedSize !== size) throw new NotZip("stored sizes");
    const dataStart = checkLocal(zip, offset, { name, method, compressedSize, size });
    if (dataStart + compressedSize > dirStart) throw new NotZip("entry past its place");
    spans.push([offset, dataStart + compressedSize]);
    entries.push({ name, method, compressedSize, size, dataStart });
  }
  if (at > dirStart + dirSize || new Set(entries.map((e) => e.name)).size !== entries.length) {
    throw new NotZip("directory");
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) throw new NotZip("overlapping entries");
  return entries;
}

function findEnd(zip: Buffer): number {
  // the end record is the last 22 bytes, unless a comment (at most 64 KB) follows it
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY && at + 22 + zip.readUInt16LE(at + 20) === zip.length) return at;
  }
  throw new NotZip("no directory");
}

/** Where the entry's data starts, once its local header agrees with the directory. */
function checkLocal(zip: Buffer, at: number, e: Omit<ZipEntry, "dataStart">): number {
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) throw new NotZip("local header");
  const nameLength = zip.readUInt16LE(at + 26);
  const sizesAfter = (zip.readUInt16LE(at + 6) & 0x08) !== 0;
  const agrees =
    zip.readUInt16LE(at + 8) === e.method &&
    zip.toString("utf8", at + 30, at + 30 + nameLength) === e.name &&
    // sizes written after the data leave these zero (or repeat them)
    ((sizesAfter && zip.readUInt32LE(at + 18) === 0 && zip.readUInt32LE(at + 22) === 0) ||
      (zip.readUInt32LE(at + 18) === e.compressedSize && zip.readUInt32LE(at + 22) === e.size));
  if (!agrees) throw new NotZip("local header disagrees with the directory");
  return at + 30 + nameLength + zip.readUInt16LE(at + 28);
}

/** What the entries opened through it may inflate to, together. */
export class InflateBudget {
  /** Bytes the opened entries state they hold (each is held to it while inflating). */
  used = 0;
  constructor(readonly limit: number) {}
  reserve(bytes: number) {
    if (this.used + bytes > this.limit) throw new ZipOverBudget();
    this.used += bytes;
  }
}

/**
 * An entry's bytes as they inflate. Its stated size is taken from the budget before anything is
 * inflated (a bomb that states its size costs nothing), and the entry is held to it: the stream fails
 * with NotZip as soon as it gives more, or at its end if it gave less or its deflate stream did not
 * use exactly its compressed bytes (padding that another reader would read on from). Memory stays at
 * zlib's window and a piece or two, whatever the file says.
 */
export function entryStream(zip: Buffer, entry: ZipEntry, budget: InflateBudget): Readable {
  if (entry.method !== STORED && entry.method !== DEFLATED) throw new NotZip("compression method");
  budget.reserve(entry.size);
  const data = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const pieces = Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += PIECE) yield data.subarray(at, at + PIECE);
    })(),
  );
  if (entry.method === STORED) return pieces;
  const inflate = createInflateRaw({ chunkSize: PIECE });
  let produced = 0;
  const held = new Transform({
    transform(chunk: Buffer, _enc, done) {
      produced += chunk.length;
      done(produced > entry.size ? new NotZip("entry larger than stated") : null, chunk);
    },
    flush(done) {
      const exact = produced === entry.size && inflate.bytesWritten === data.length;
      done(exact ? null : new NotZip("entry sizes disagree"));
    },
  });
  // a failure anywhere reaches the reader through `held`; zlib's own (a broken stream) is not a NotZip,
  // and readers treat any error as a file they cannot read
  return pipeline(pieces, inflate, held, () => undefined);
}
