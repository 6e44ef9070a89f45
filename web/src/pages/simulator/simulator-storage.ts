import { normalizeNumber } from "@charla/contracts";

/**
 * The simulator's own browser keys (kept here, not in lib/storage.ts): the recently used customers
 * (localStorage, kept across sessions) and what each simulated customer sent (sessionStorage, this tab).
 */
export const SimulatorStorageKeys = {
  recent: "charla.simulator.recent",
  sent: "charla.simulator.sent",
} as const;

const RECENT_MAX = 8;
const SENT_PER_THREAD_MAX = 100;

export type RecentCustomer = { number: string; name: string };

/** What the customer sent, as this page shows it; `previewUrl` lives in memory only. */
export type SentKind = "chat" | "image" | "audio" | "video" | "application" | "location" | "vcard";
export type SentStatus = "sending" | "sent" | "failed" | "unknown";
export type SentItem = {
  key: string;
  at: string;
  kind: SentKind;
  body: string;
  fileName?: string;
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: { name: string; number: string };
  status: SentStatus;
};

/** Storage can throw (private mode, quota); the simulator then simply forgets. */
function read(storage: () => Storage, key: string): unknown {
  try {
    const raw = storage().getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: unknown): void {
  try {
    storage().setItem(key, JSON.stringify(value));
  } catch {
    // ignored on purpose, see read
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

export function readRecent(): RecentCustomer[] {
  const value = read(() => localStorage, SimulatorStorageKeys.recent);
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is RecentCustomer => isRecord(item) && typeof item.number === "string" && typeof item.name === "string")
    .slice(0, RECENT_MAX);
}

/** Puts the customer first, once per number (whatever its spacing), and returns the new list. */
export function rememberCustomer(customer: RecentCustomer): RecentCustomer[] {
  const digits = normalizeNumber(customer.number);
  const next = [customer, ...readRecent().filter((item) => normalizeNumber(item.number) !== digits)].slice(0, RECENT_MAX);
  write(() => localStorage, SimulatorStorageKeys.recent, next);
  return next;
}

export function forgetCustomer(number: string): RecentCustomer[] {
  const digits = normalizeNumber(number);
  const next = readRecent().filter((item) => normalizeNumber(item.number) !== digits);
  write(() => localStorage, SimulatorStorageKeys.recent, next);
  return next;
}

/** One conversation: a connection and a customer's digits. */
export const threadKey = (whatsappId: number, digits: string) => `${whatsappId}:${digits}`;

export type SentThreads = Record<string, SentItem[]>;

/** A message still "sending" when the tab was reloaded may or may not have arrived. */
export function readSent(): SentThreads {
  const value = read(() => sessionStorage, SimulatorStorageKeys.sent);
  if (!isRecord(value)) return {};
  const threads: SentThreads = {};
  for (const [key, items] of Object.entries(value)) {
    if (!Array.isArray(items)) continue;
    threads[key] = items
      .filter((item): item is SentItem => isRecord(item) && typeof item.key === "string" && typeof item.at === "string")
      .map((item) => (item.status === "sending" ? { ...item, status: "unknown" } : item));
  }
  return threads;
}

export function writeSent(threads: SentThreads): void {
  const trimmed: SentThreads = {};
  for (const [key, items] of Object.entries(threads)) trimmed[key] = items.slice(-SENT_PER_THREAD_MAX);
  write(() => sessionStorage, SimulatorStorageKeys.sent, trimmed);
}
