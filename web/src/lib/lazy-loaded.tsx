import { type ComponentType, lazy } from "react";
import type { Loader } from "./loader";

/**
 * React.lazy, but rendered at once when its chunk has already arrived (preloaded at start-up, or
 * shown before). lazy() suspends on its first render even then, and once a Suspense boundary has
 * shown its fallback React holds the content back for up to 300 ms: the shell and the page a reload
 * preloaded would wait for nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props, as React.lazy takes them
export function lazyLoaded<P extends Record<string, any>>(get: Loader<{ default: ComponentType<P> }>): ComponentType<P> {
  const Lazy = lazy(get);
  return function Loaded(props: P) {
    const Component = get.value?.default ?? Lazy;
    return <Component {...props} />;
  };
}
