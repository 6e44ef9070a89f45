/** A chunk's import() with what it gave: `value` is set once it has arrived (see lazyLoaded). */
export type Loader<T> = (() => Promise<T>) & { value?: T };

/**
 * Wraps a chunk's import() so it is asked for once, and remembers the module. Without React in it:
 * main.tsx starts the shell's and the page's chunks with these before the rest of the app has arrived.
 */
export function loader<T>(load: () => Promise<T>): Loader<T> {
  let pending: Promise<T> | null = null;
  const get: Loader<T> = () => {
    pending ??= load().then(
      (module) => {
        get.value = module;
        return module;
      },
      (error: unknown) => {
        // a chunk that failed to arrive (network) is asked for again next time
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return get;
}
