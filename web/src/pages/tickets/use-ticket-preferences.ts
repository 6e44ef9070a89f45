import { useCallback, useState } from "react";
import { readItem, StorageKeys, writeItem } from "../../lib/storage";

function readIds(): number[] {
  try {
    const value: unknown = JSON.parse(readItem(StorageKeys.ticketQueues) ?? "[]");
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

/** The queue filter, remembered in the browser (core §2); nothing chosen means every queue. */
export function useStoredQueueIds(): [number[], (ids: number[]) => void] {
  const [ids, setIds] = useState(readIds);
  const update = useCallback((next: number[]) => {
    setIds(next);
    writeItem(StorageKeys.ticketQueues, next.length ? JSON.stringify(next) : null);
  }, []);
  return [ids, update];
}

/** The admin's show-all switch, remembered in the browser. */
export function useStoredShowAll(): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => readItem(StorageKeys.ticketShowAll) === "true");
  const update = useCallback((next: boolean) => {
    setValue(next);
    writeItem(StorageKeys.ticketShowAll, next ? "true" : null);
  }, []);
  return [value, update];
}
