import { lazy } from "react";
import { Navigate, Route, Routes } from "react-router";
import { PublicOnly, RequireAuth, RouteAccess } from "./guards";
import { appRoutes, preloadPage } from "./registry";

const LoginPage = lazy(() => import("../pages/login/LoginPage"));
// the logged-in shell (menus, live socket, inbox events) is its own chunk: the login page never loads it
const loadAppLayout = () => import("../layout/AppLayout");
const AppLayout = lazy(() => loadAppLayout().then((m) => ({ default: m.AppLayout })));

/**
 * A reload with a stored session: the shell and the page's chunks load while the token is being
 * refreshed, instead of one after the other once it is back.
 */
export function preloadSignedIn(pathname: string): void {
  void loadAppLayout().catch(() => undefined);
  preloadPage(pathname);
}

export function AppRouter() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          {appRoutes.map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={<RouteAccess access={route.access}>{route.element}</RouteAccess>}
            />
          ))}
        </Route>
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
