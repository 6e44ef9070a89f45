import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Storage } from "../../lib/storage.js";

/** No import runs this long: a stored upload older than this lost its import with the process. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Removes the stored uploads imports left when their process died mid-read (an import removes its
 * own upload whatever happens otherwise): files under each company's `imports/` older than an hour,
 * since another node sharing DATA_DIR may be reading a younger one. A finished upload goes through
 * `storage` so the company's usage gives its bytes back; a half-received one (`.part`) was never
 * counted. Answers how many files went.
 */
export async function sweepImportLeftovers(dataDir: string, storage: Storage, now = Date.now()): Promise<number> {
  const root = join(dataDir, "files");
  let removed = 0;
  for (const company of await readdir(root).catch(() => [] as string[])) {
    const id = /^company(\d+)$/.exec(company)?.[1];
    if (!id) continue;
    const folder = join(root, company, "imports");
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      const info = await stat(join(folder, name)).catch(() => null);
      if (!info?.isFile() || now - info.mtimeMs < STALE_MS) continue;
      if (name.endsWith(".part")) await rm(join(folder, name), { force: true });
      else await storage.remove(Number(id), `imports/${name}`);
      removed++;
    }
  }
  return removed;
}
