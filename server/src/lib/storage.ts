import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { companies } from "../db/schema/index.js";
import { AppError } from "./app-error.js";

/**
 * Each company's stored bytes, counted in `companies.storage_bytes`. Uploads by users must fit the
 * quota (`reserve`); what arrives from customers is counted but never refused (`add`).
 */
export type StorageUsage = {
  /** Counts `bytes` if the company stays within its quota, else ERR_STORAGE_QUOTA and nothing counted. */
  reserve(companyId: number, bytes: number): Promise<void>;
  /** Counts `bytes` (negative when files go) with no limit. */
  add(companyId: number, bytes: number): Promise<void>;
};

/** Usage kept in the companies table; `quotaBytes` 0 means no limit. */
export function databaseUsage(db: Db, quotaBytes: number): StorageUsage {
  return {
    async reserve(companyId, bytes) {
      if (bytes <= 0) return this.add(companyId, bytes);
      // one statement: parallel uploads of one company cannot both squeeze under the quota
      const rows = await db
        .update(companies)
        .set({ storageBytes: sql`${companies.storageBytes} + ${bytes}` })
        .where(
          quotaBytes > 0
            ? sql`${companies.id} = ${companyId} and ${companies.storageBytes} + ${bytes} <= ${quotaBytes}`
            : sql`${companies.id} = ${companyId}`,
        )
        .returning({ id: companies.id });
      if (rows.length === 0) throw new AppError("ERR_STORAGE_QUOTA");
    },
    async add(companyId, bytes) {
      if (bytes === 0) return;
      await db
        .update(companies)
        .set({ storageBytes: sql`greatest(0, ${companies.storageBytes} + ${bytes})` })
        .where(sql`${companies.id} = ${companyId}`);
    },
  };
}

const noUsage: StorageUsage = { reserve: async () => undefined, add: async () => undefined };

/** A file an upload wrote to the store: its path under the company and its size. */
export type StoredFile = { path: string; size: number };

/**
 * Files under DATA_DIR/files, always below a company's folder, so a path can never point at
 * another company's files or outside the store. Every write and removal is counted in the
 * company's usage.
 */
export class Storage {
  constructor(
    private readonly root: string,
    private readonly usage: StorageUsage = noUsage,
  ) {}

  private resolve(companyId: number, relative: string): string {
    const base = join(this.root, "files", `company${companyId}`);
    const full = normalize(join(base, relative));
    if (!full.startsWith(base + sep)) throw new Error("path escapes the company folder");
    return full;
  }

  private async sizeOf(full: string): Promise<number> {
    return stat(full).then(
      (s) => (s.isFile() ? s.size : 0),
      () => 0,
    );
  }

  /** Bytes Charla received (a customer's media): stored and counted, never refused for the quota. */
  async write(companyId: number, relative: string, data: Buffer): Promise<string> {
    const full = this.resolve(companyId, relative);
    await mkdir(dirname(full), { recursive: true });
    const before = await this.sizeOf(full);
    await writeFile(full, data);
    await this.usage.add(companyId, data.length - before);
    return relative;
  }

  /**
   * A user's upload, streamed to disk as it arrives: never more than `maxBytes` (ERR_FILE_TOO_LARGE)
   * and within the company's quota (ERR_STORAGE_QUOTA); a body that ends before the file does is
   * ERR_UPLOAD_INCOMPLETE. Refused or broken, no partial file stays.
   */
  async writeUpload(companyId: number, relative: string, source: Readable, maxBytes: number): Promise<StoredFile> {
    // whose failure came first: the client's body (cut, dropped: 400) or our disk (a 500). The body
    // may have broken already (busboy ends a cut form before the handler gets the part), and once
    // one stream fails the pipeline destroys the other with the same error.
    let failed: "client" | "disk" | null = source.errored ? "client" : null;
    source.once("error", () => {
      failed ??= "client";
    });
    const full = this.resolve(companyId, relative);
    const partial = `${full}.${randomUUID()}.part`;
    await mkdir(dirname(full), { recursive: true });
    let size = 0;
    let reserved = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) done(new AppError("ERR_FILE_TOO_LARGE"));
        else done(null, chunk);
      },
    });
    const sink = createWriteStream(partial).once("error", () => {
      failed ??= "disk";
    });
    try {
      await pipeline(source, limit, sink);
      // a multipart file cut at its size limit ends quietly: busboy marks it truncated
      if ((source as Readable & { truncated?: boolean }).truncated) throw new AppError("ERR_FILE_TOO_LARGE");
      const before = await this.sizeOf(full);
      await this.usage.reserve(companyId, size - before);
      reserved = size - before;
      await rename(partial, full);
    } catch (err) {
      // a body broken at once ends the pipeline while the partial's open is still under way: removed
      // before the stream closed, the open could still create it afterwards
      if (!sink.closed) await new Promise<void>((closed) => sink.once("close", () => closed()));
      await rm(partial, { force: true });
      if (reserved) await this.usage.add(companyId, -reserved);
      if (err instanceof AppError) throw err;
      if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("ERR_FILE_TOO_LARGE");
      // the client's body ended before its file did ("Unexpected end of multipart data") or its
      // connection dropped: the request's fault, not ours; a failing disk stays a 500
      if (failed === "client") throw new AppError("ERR_UPLOAD_INCOMPLETE");
      throw err;
    }
    return { path: relative, size };
  }

  /** The first `bytes` of a stored file (to check its magic number without reading it whole). */
  async head(companyId: number, relative: string, bytes: number): Promise<Buffer> {
    const file = await open(this.resolve(companyId, relative), "r");
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await file.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  /** A stored file as a stream (a large one is never whole in memory). */
  stream(companyId: number, relative: string): Readable {
    return createReadStream(this.resolve(companyId, relative));
  }

  read(companyId: number, relative: string): Promise<Buffer> {
    return readFile(this.resolve(companyId, relative));
  }

  async remove(companyId: number, relative: string): Promise<void> {
    const full = this.resolve(companyId, relative);
    const size = await this.sizeOf(full);
    await rm(full, { force: true });
    await this.usage.add(companyId, -size);
  }

  async removeCompany(companyId: number): Promise<void> {
    await rm(join(this.root, "files", `company${companyId}`), { recursive: true, force: true });
  }
}

/** Magic numbers: the declared mimetype is the client's word, the bytes are the truth. */
export const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
export const isPng = (b: Buffer) =>
  b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
