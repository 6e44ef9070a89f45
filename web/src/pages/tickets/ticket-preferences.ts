import { readItem, StorageKeys } from "../../lib/storage";

// The tickets screen's remembered choices as stored; read without React by the page-load prefetch
// (prefetch.ts) too. The hooks that change them are in use-ticket-preferences.ts.

export function readStoredQueueIds(): number[] {
  try {
    const value: unknown = JSON.parse(readItem(StorageKeys.ticketQueues) ?? "[]");
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

export function readStoredShowAll(): boolean {
  return readItem(StorageKeys.ticketShowAll) === "true";
}
