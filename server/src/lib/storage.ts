import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";

/**
 * Files under DATA_DIR/files, always below a company's folder, so a path can never point at
 * another company's files or outside the store.
 */
export class Storage {
  constructor(private readonly root: string) {}

  private resolve(companyId: number, relative: string): string {
    const base = join(this.root, "files", `company${companyId}`);
    const full = normalize(join(base, relative));
    if (!full.startsWith(base + sep)) throw new Error("path escapes the company folder");
    return full;
  }

  async write(companyId: number, relative: string, data: Buffer): Promise<string> {
    const full = this.resolve(companyId, relative);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, data);
    return relative;
  }

  read(companyId: number, relative: string): Promise<Buffer> {
    return readFile(this.resolve(companyId, relative));
  }

  async remove(companyId: number, relative: string): Promise<void> {
    await rm(this.resolve(companyId, relative), { force: true });
  }

  async removeCompany(companyId: number): Promise<void> {
    await rm(join(this.root, "files", `company${companyId}`), { recursive: true, force: true });
  }
}

/** Magic numbers: the declared mimetype is the client's word, the bytes are the truth. */
export const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
export const isPng = (b: Buffer) =>
  b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
