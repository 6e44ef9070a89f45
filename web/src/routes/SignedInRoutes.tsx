import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes } from "react-router";
import { type Access, useAccess } from "../auth/permissions";
import { AppLayout } from "../layout/AppLayout";
import { NotFoundPage } from "../layout/NotFoundPage";
import { toast } from "../lib/toast";
import { registeredRoutes } from "./registry";

const ACCESS_DENIED_TOAST = "access-denied";

/** secondary §8: a page the plan or the profile does not allow says so before the user is sent to /. */
function Refused() {
  const { t } = useTranslation("layout");
  useEffect(() => {
    void toast.error(t("accessDenied"), { toastId: ACCESS_DENIED_TOAST });
  }, [t]);
  return <Navigate to="/" replace />;
}

/**
 * A typed URL must not open what the menu hides; the API refuses it anyway. A route with its own
 * fallback (the dashboard's: agents start at /tickets) moves there quietly, as a landing, not a refusal.
 */
function RouteAccess({ access, fallback, children }: { access?: Access; fallback?: string; children: ReactNode }) {
  const allowed = useAccess(access);
  if (allowed) return children;
  return fallback ? <Navigate to={fallback} replace /> : <Refused />;
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
        {/* a path the app does not have (nor one of the spec's areas not built yet): said, inside the shell */}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
