import { useCallback, useState } from "react";
import { StorageKeys, writeItem } from "../../lib/storage";
import { readStoredQueueIds, readStoredShowAll } from "./ticket-preferences";

/** The queue filter, remembered in the browser (core §2); nothing chosen means every queue. */
export function useStoredQueueIds(): [number[], (ids: number[]) => void] {
  const [ids, setIds] = useState(readStoredQueueIds);
  const update = useCallback((next: number[]) => {
    setIds(next);
    writeItem(StorageKeys.ticketQueues, next.length ? JSON.stringify(next) : null);
  }, []);
  return [ids, update];
}

/** The admin's show-all switch, remembered in the browser. */
export function useStoredShowAll(): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(readStoredShowAll);
  const update = useCallback((next: boolean) => {
    setValue(next);
    writeItem(StorageKeys.ticketShowAll, next ? "true" : null);
  }, []);
  return [value, update];
}
