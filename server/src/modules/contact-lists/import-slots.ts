import { AppError } from "../../lib/app-error.js";

/** Imports a company reads at once: a second one (another tab, another admin) waits for the first. */
const PER_COMPANY = 1;
/** Imports this process reads at once, every company's together: the rest of the server keeps the CPU it needs. */
const PER_PROCESS = 4;

const byCompany = new Map<number, number>();
let running = 0;

/**
 * Runs `work`, an import of the company's, or refuses it with ERR_IMPORT_BUSY (429) when the company
 * or the process already runs as many as it may. Reading a sheet is bounded, but it is CPU that every
 * request of this process shares; refusing beats a queue no user sees. Counted per process: each node
 * of a cluster has its own.
 */
export async function withImportSlot<T>(companyId: number, work: () => Promise<T>): Promise<T> {
  const mine = byCompany.get(companyId) ?? 0;
  if (mine >= PER_COMPANY || running >= PER_PROCESS) throw new AppError("ERR_IMPORT_BUSY");
  byCompany.set(companyId, mine + 1);
  running++;
  try {
    return await work();
  } finally {
    running--;
    const left = (byCompany.get(companyId) ?? 1) - 1;
    if (left === 0) byCompany.delete(companyId);
    else byCompany.set(companyId, left);
  }
}
