import type { ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router";
import { type Access, useAccess } from "../auth/permissions";
import { AppLayout } from "../layout/AppLayout";
import { registeredRoutes } from "./registry";

/** A typed URL must not open what the menu hides; the API refuses it anyway. */
function RouteAccess({ access, fallback = "/", children }: { access?: Access; fallback?: string; children: ReactNode }) {
  const allowed = useAccess(access);
  return allowed ? children : <Navigate to={fallback} replace />;
}

/**
 * The private routes inside the shell. They travel in the shell's chunk with the registry (menus,
 * icons, access rules), so the login page loads none of it.
 */
export default function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {registeredRoutes().map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={
              <RouteAccess access={route.access} fallback={route.fallback}>
                {route.element}
              </RouteAccess>
            }
          />
        ))}
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
