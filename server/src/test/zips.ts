import { crc32, createDeflateRaw, deflateRawSync } from "node:zlib";

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

export type ZipEntry = { name: string; data?: Buffer; packed?: Buffer; size?: number };

/**
 * A zip of deflated entries with its central directory; `descriptor` writes the sizes after the data,
 * as streaming writers do (the directory still states them). `size` states what a `packed` entry
 * inflates to (its data's length otherwise, 0 when neither is given).
 */
export function zipOf(entries: ZipEntry[], descriptor = false): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const packed = e.packed ?? deflateRawSync(e.data ?? Buffer.alloc(0));
    const size = e.size ?? e.data?.length ?? 0;
    const name = Buffer.from(e.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(descriptor ? 0x08 : 0, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(descriptor ? 0 : packed.length, 18);
    header.writeUInt32LE(descriptor ? 0 : size, 22);
    header.writeUInt16LE(name.length, 26);
    parts.push(header, name, packed);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(descriptor ? 0x08 : 0, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += 30 + name.length + packed.length;
    if (descriptor) {
      const d = Buffer.alloc(16);
      d.writeUInt32LE(0x08074b50, 0);
      d.writeUInt32LE(packed.length, 8);
      d.writeUInt32LE(size, 12);
      parts.push(d);
      offset += 16;
    }
  }
  return Buffer.concat([...parts, ...central, endOfDirectory(entries.length, central, offset)]);
}

function endOfDirectory(count: number, central: Buffer[], offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(
    central.reduce((n, b) => n + b.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  return end;
}

/** What `deflated` made: the raw deflate stream, the bytes it inflates to and their CRC-32. */
export type Packed = { packed: Buffer; size: number; crc: number };

/** `head`, then `unit` `times` over, then `tail`, deflated as it is made (a bomb never whole in memory). */
export async function deflated(head: string, unit: string, times: number, tail: string): Promise<Packed> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  let size = 0;
  let crc = 0;
  const put = async (b: Buffer) => {
    size += b.length;
    crc = crc32(b, crc);
    if (!deflate.write(b)) await new Promise((r) => deflate.once("drain", r));
  };
  await put(Buffer.from(head));
  // a megabyte of units a write: the stream's bookkeeping per write stays small
  const perWrite = Math.max(1, Math.floor(MB / Buffer.byteLength(unit)));
  const block = Buffer.from(unit.repeat(perWrite));
  for (let left = times; left > 0; left -= perWrite) await put(left >= perWrite ? block : Buffer.from(unit.repeat(left)));
  await put(Buffer.from(tail));
  deflate.end();
  await done;
  return { packed: Buffer.concat(out), size, crc };
}

/** A small text entry, deflated. */
export function packedText(text: string): Packed {
  const data = Buffer.from(text);
  return { packed: deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * A zip as archivers write it: local entries, then the central directory and its end record. `pad`
 * junk bytes follow an entry's data inside its compressed size (in both headers), as in issue 26's
 * budget bypass.
 */
export function zipWithDirectory(entries: (Packed & { name: string; pad?: number })[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const compressed = e.packed.length + (e.pad ?? 0);
    const fields = (h: Buffer, at: number) => {
      h.writeUInt16LE(20, at);
      h.writeUInt16LE(0, at + 2);
      h.writeUInt16LE(8, at + 4);
      h.writeUInt32LE(0, at + 6);
      h.writeUInt32LE(e.crc >>> 0, at + 10);
      h.writeUInt32LE(compressed, at + 14);
      h.writeUInt32LE(e.size, at + 18);
      h.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    fields(dir, 6);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    const pad = Buffer.alloc(e.pad ?? 0, 0x20);
    parts.push(local, name, e.packed, pad);
    offset += 30 + name.length + compressed;
  }
  return Buffer.concat([...parts, ...central, endOfDirectory(entries.length, central, offset)]);
}
