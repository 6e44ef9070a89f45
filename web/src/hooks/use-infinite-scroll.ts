import { type UIEvent, useCallback, useEffect, useRef } from "react";

// core §9: the next page loads within about 100 px of the bottom.
const THRESHOLD_PX = 100;

type Options = { hasMore: boolean; loading: boolean; loadMore: () => void };

/**
 * Scroll handler and container ref for a list that loads pages at the bottom. A first page too short
 * to scroll would never trigger it, so the container is also checked after each load.
 */
export function useInfiniteScroll<T extends HTMLElement>({ hasMore, loading, loadMore }: Options) {
  const ref = useRef<T>(null);

  const check = useCallback(
    (element: HTMLElement | null) => {
      if (!element || !hasMore || loading) return;
      if (element.scrollHeight - element.scrollTop - element.clientHeight < THRESHOLD_PX) loadMore();
    },
    [hasMore, loading, loadMore],
  );

  useEffect(() => check(ref.current), [check]);

  const onScroll = useCallback((event: UIEvent<T>) => check(event.currentTarget), [check]);
  return { ref, onScroll };
}
