import type { ToastContent, ToastOptions } from "react-toastify";

/*
 * react-toastify's toast(), fetched with its container the first time something is shown: no page
 * needs the library to draw itself (issue 9: ~5 KB less on every first load). A toast asked for
 * before the library has arrived shows once it has (the library queues toasts until its container
 * mounts, and App mounts the container on the first request).
 */
type Kind = "success" | "error" | "info" | "warn";

let requested = false;
const listeners = new Set<() => void>();

/** Resolves once the toast is on screen (the library fetched, the toast handed to it, a frame drawn). */
function show(kind: Kind, content: ToastContent, options?: ToastOptions): Promise<void> {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  return import("react-toastify")
    .then(
      (module) =>
        new Promise<void>((resolve) => {
          module.toast[kind](content, options);
          requestAnimationFrame(() => resolve());
        }),
    )
    .catch(() => undefined); // a chunk that failed to load: nothing to show, nothing to wait for
}

export const toast = {
  success: (content: ToastContent, options?: ToastOptions) => show("success", content, options),
  error: (content: ToastContent, options?: ToastOptions) => show("error", content, options),
  info: (content: ToastContent, options?: ToastOptions) => show("info", content, options),
  warn: (content: ToastContent, options?: ToastOptions) => show("warn", content, options),
};

/** For App: whether a toast was asked for yet (then the container is mounted), as a store to subscribe to. */
export const toastsRequested = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => requested,
};
