import { readItem, StorageKeys, writeItem } from "./storage";

/** Notification volume, 0 to 1 in steps of 0.1 (core §1); sounds read it when they play. */
export function readVolume(): number {
  const value = Number.parseFloat(readItem(StorageKeys.volume) ?? "");
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
}

export function writeVolume(volume: number): void {
  writeItem(StorageKeys.volume, String(Math.round(volume * 10) / 10));
}
