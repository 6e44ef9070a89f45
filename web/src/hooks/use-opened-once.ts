import { useState } from "react";

/**
 * True from the first time `open` is true. A dialog whose code loads on demand mounts then (its chunk
 * is fetched on first use, not with the page) and stays mounted afterwards, so closing it still
 * animates and reopening keeps what it kept before.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
