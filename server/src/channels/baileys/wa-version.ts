import { fetchLatestWaWebVersion } from "baileys";

export type WaVersion = [number, number, number];
type Fetch = (options: { signal: AbortSignal }) => Promise<{ version: number[]; isLatest: boolean }>;

/** How long a fetched version is used before asking again; WhatsApp retires versions over weeks. */
const FRESH_MS = 6 * 60 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * The WhatsApp Web version sockets announce. The one baked into Baileys gets retired by WhatsApp
 * (the server then answers 405 and never shows a QR), so the current one is read from WhatsApp Web
 * at start, kept for a few hours and shared by every session of the process. Offline, the last one
 * fetched or, before any, Baileys' own (undefined) is used.
 */
export function waVersionSource(fetchVersion: Fetch = fetchLatestWaWebVersion as Fetch) {
  let known: { version: WaVersion; at: number } | null = null;
  let inFlight: Promise<WaVersion | undefined> | null = null;
  const fetchNow = async (): Promise<WaVersion | undefined> => {
    try {
      const r = await fetchVersion({ signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (r.isLatest && r.version.length === 3 && r.version.every((n) => Number.isInteger(n) && n >= 0)) {
        known = { version: r.version as WaVersion, at: Date.now() };
      }
    } catch {
      // offline or blocked: the fallback below
    }
    return known?.version;
  };
  /** `refresh`: the version in use was just refused (405); ask WhatsApp Web again. */
  return (refresh = false): Promise<WaVersion | undefined> => {
    if (!refresh && known && Date.now() - known.at < FRESH_MS) return Promise.resolve(known.version);
    inFlight ??= fetchNow().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
