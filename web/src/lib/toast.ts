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

function show(kind: Kind, content: ToastContent, options?: ToastOptions): void {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  void import("react-toastify").then((module) => module.toast[kind](content, options));
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
