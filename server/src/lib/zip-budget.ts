import { createInflateRaw } from "node:zlib";

/** The zip holds more than the budget once inflated (a zip bomb, or a sheet far past any limit). */
export class ZipOverBudget extends Error {}
/** Not a zip a reader could walk: a header or a compressed stream that does not hold together. */
export class NotZip extends Error {}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * Walks a zip's entries as a streaming reader does (local headers, from the start) and inflates each,
 * counting and dropping what comes out, so that the whole is known to inflate to at most `budget`
 * bytes before a parser that holds it in memory or on disk (exceljs) is given it. Memory stays at
 * zlib's window whatever the file says.
 */
export async function checkZipBudget(zip: Buffer, budget: number): Promise<void> {
  let at = 0;
  let total = 0;
  while (at + 4 <= zip.length && zip.readUInt32LE(at) === LOCAL_HEADER) {
    if (at + 30 > zip.length) throw new NotZip("short header");
    const flags = zip.readUInt16LE(at + 6);
    const method = zip.readUInt16LE(at + 8);
    const compressed = zip.readUInt32LE(at + 18);
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const sizesAfter = (flags & 0x08) !== 0;
    if (start > zip.length) throw new NotZip("short entry");
    let consumed: number;
    if (method === STORED) {
      if (sizesAfter) throw new NotZip("stored entry without sizes");
      consumed = compressed;
      total += compressed;
    } else if (method === DEFLATED) {
      const data = sizesAfter ? zip.subarray(start) : zip.subarray(start, start + compressed);
      const inflated = await inflateCounting(data, budget - total);
      consumed = inflated.consumed;
      total += inflated.produced;
    } else throw new NotZip("compression method");
    if (total > budget) throw new ZipOverBudget();
    at = start + consumed;
    if (sizesAfter) at += at + 4 <= zip.length && zip.readUInt32LE(at) === DATA_DESCRIPTOR ? 16 : 12;
  }
}

/** Inflates `data` (raw deflate, possibly followed by other bytes) without keeping the output. */
function inflateCounting(data: Buffer, allowed: number): Promise<{ produced: number; consumed: number }> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    let produced = 0;
    inflate.on("data", (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > allowed) {
        inflate.destroy();
        reject(new ZipOverBudget());
      }
    });
    inflate.on("error", () => reject(new NotZip("deflate stream")));
    inflate.on("end", () => resolve({ produced, consumed: inflate.bytesWritten }));
    inflate.end(data);
  });
}
