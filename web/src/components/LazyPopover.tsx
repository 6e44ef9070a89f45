import type { PopoverProps } from "@mui/material/Popover";
import { Suspense } from "react";
import { useOpenedOnce } from "../hooks/use-opened-once";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";

/*
 * The top bar's popovers (bells, volume) are closed on every page load: MUI's Popover (with Modal and
 * its transitions) is fetched when the pointer or the focus reaches their button (`preloadPopovers`)
 * or when one first opens, not with the shell (issue 9). Once opened it stays mounted, so closing
 * still animates.
 */
const loadPopover = loader(() => import("@mui/material/Popover"));
const Popover = lazyLoaded(loadPopover);

export function preloadPopovers(): void {
  void loadPopover().catch(() => undefined);
}

export function LazyPopover(props: PopoverProps) {
  const shown = useOpenedOnce(props.open);
  return shown ? (
    <Suspense fallback={null}>
      <Popover {...props} />
    </Suspense>
  ) : null;
}
