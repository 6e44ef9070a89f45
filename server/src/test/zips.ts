import { createDeflateRaw, deflateRawSync } from "node:zlib";

export const MB = 1024 * 1024;

/** `megabytes` of zeros, deflated a megabyte at a time (never whole in memory). */
export async function deflatedZeros(megabytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = Buffer.alloc(MB);
  for (let i = 0; i < megabytes; i++) if (!deflate.write(zeros)) await new Promise((r) => deflate.once("drain", r));
  deflate.end();
  await done;
  return Buffer.concat(out);
}

export type ZipEntry = { name: string; data?: Buffer; packed?: Buffer };

/** A zip of local entries only, deflated; `descriptor` writes the sizes after the data, as streaming writers do. */
export function zipOf(entries: ZipEntry[], descriptor = false): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const packed = e.packed ?? deflateRawSync(e.data ?? Buffer.alloc(0));
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(descriptor ? 0x08 : 0, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(descriptor ? 0 : packed.length, 18);
    header.writeUInt32LE(0, 22);
    header.writeUInt16LE(Buffer.byteLength(e.name), 26);
    parts.push(header, Buffer.from(e.name), packed);
    if (descriptor) {
      const d = Buffer.alloc(16);
      d.writeUInt32LE(0x08074b50, 0);
      d.writeUInt32LE(packed.length, 8);
      parts.push(d);
    }
  }
  // what follows the entries (a central directory) is not read
  parts.push(Buffer.from([0x50, 0x4b, 0x01, 0x02, 0, 0, 0, 0]));
  return Buffer.concat(parts);
}
