import { useCallback, useState } from "react";
import { readItem, StorageKeys, writeItem } from "../../../lib/storage";

/** core §5 sign option: on by default and kept in the browser. */
export function useSignPreference(): [boolean, (value: boolean) => void] {
  const [sign, setSign] = useState(() => readItem(StorageKeys.signMessage) !== "false");
  const update = useCallback((value: boolean) => {
    setSign(value);
    writeItem(StorageKeys.signMessage, String(value));
  }, []);
  return [sign, update];
}
