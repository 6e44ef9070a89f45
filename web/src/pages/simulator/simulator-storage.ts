import { normalizeNumber } from "@charla/contracts";

/**
 * The simulator's own browser key (kept here, not in lib/storage.ts): the recently used customers
 * (localStorage, kept across sessions). The conversations themselves live on the server.
 */
export const SimulatorStorageKeys = {
  recent: "charla.simulator.recent",
  /** Per connection, the customer last played on it (issue 26: leaving the page forgot them). */
  last: "charla.simulator.last",
} as const;

const RECENT_MAX = 8;

export type RecentCustomer = { number: string; name: string };

/** A customer message this tab is sending (or failed to send), until the server's history has it. */
export type SentKind = "chat" | "image" | "audio" | "video" | "application" | "location" | "vcard";
export type SentStatus = "sending" | "sent" | "failed";
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

function readLastByConnection(): Record<string, RecentCustomer> {
  const value = read(() => localStorage, SimulatorStorageKeys.last);
  if (!isRecord(value)) return {};
  const entries = Object.entries(value).filter(
    (entry): entry is [string, RecentCustomer] =>
      isRecord(entry[1]) && typeof entry[1].number === "string" && typeof entry[1].name === "string",
  );
  return Object.fromEntries(entries);
}

/** The customer last played on this connection, to show again when the page comes back. */
export function readLastCustomer(whatsappId: number): RecentCustomer | null {
  return readLastByConnection()[String(whatsappId)] ?? null;
}

export function rememberLastCustomer(whatsappId: number, customer: RecentCustomer): void {
  write(() => localStorage, SimulatorStorageKeys.last, { ...readLastByConnection(), [String(whatsappId)]: customer });
}

/** One conversation: a connection and a customer's digits. */
export const threadKey = (whatsappId: number, digits: string) => `${whatsappId}:${digits}`;
