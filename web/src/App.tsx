import { Limits } from "@charla/contracts";
import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense } from "react";
import { BrowserRouter } from "react-router";
import { ToastContainer } from "react-toastify";
import { queryClient } from "./api/query-client";
import { AuthProvider } from "./auth/AuthProvider";
import { FullPageLoader } from "./components/FullPageLoader";
import { SocketProvider } from "./realtime/SocketProvider";
import { AppRouter } from "./routes/AppRouter";
import { AppThemeProvider } from "./theme/AppThemeProvider";
import { useThemePreferences } from "./theme/preferences";

function Toasts() {
  const { mode } = useThemePreferences();
  return <ToastContainer position="top-right" autoClose={Limits.toastMs} theme={mode} newestOnTop />;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppThemeProvider>
        <BrowserRouter>
          <AuthProvider>
            <SocketProvider>
              <Suspense fallback={<FullPageLoader />}>
                <AppRouter />
              </Suspense>
            </SocketProvider>
          </AuthProvider>
        </BrowserRouter>
        <Toasts />
      </AppThemeProvider>
    </QueryClientProvider>
  );
}
