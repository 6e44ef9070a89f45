import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useEffect, useSyncExternalStore } from "react";
import { BrowserRouter } from "react-router";
import { queryClient } from "./api/query-client";
import { AuthProvider } from "./auth/AuthProvider";
import { FullPageLoader } from "./components/FullPageLoader";
import { AppRouter } from "./routes/AppRouter";
import { lazyLoaded } from "./lib/lazy-loaded";
import { loader } from "./lib/loader";
import { toastsRequested } from "./lib/toast";
import { AppThemeProvider } from "./theme/AppThemeProvider";

// The toasts' container (and react-toastify) is mounted on the first toast (lib/toast.ts); its code is
// fetched on the user's first click or key, before the toasts that answer them, or with that first toast.
const loadToasts = loader(() => import("./components/Toasts"));
const Toasts = lazyLoaded(loadToasts);

function LazyToasts() {
  const requested = useSyncExternalStore(toastsRequested.subscribe, toastsRequested.get);
  useEffect(() => {
    const preload = () => void loadToasts().catch(() => undefined);
    const options = { once: true, capture: true, passive: true };
    window.addEventListener("pointerdown", preload, options);
    window.addEventListener("keydown", preload, options);
    return () => {
      window.removeEventListener("pointerdown", preload, options);
      window.removeEventListener("keydown", preload, options);
    };
  }, []);
  return requested ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppThemeProvider>
        <BrowserRouter>
          <AuthProvider>
            <Suspense fallback={<FullPageLoader />}>
              <AppRouter />
            </Suspense>
          </AuthProvider>
        </BrowserRouter>
        <LazyToasts />
      </AppThemeProvider>
    </QueryClientProvider>
  );
}
