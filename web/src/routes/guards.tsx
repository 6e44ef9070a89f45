import { Navigate, Outlet } from "react-router";
import { useAuth } from "../auth/context";
import { FullPageLoader } from "../components/FullPageLoader";

/** core §2: an unauthenticated visit to a private route goes to /login. */
export function RequireAuth() {
  const { status } = useAuth();
  if (status === "loading") return <FullPageLoader />;
  if (status === "anonymous") return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** core §2: an authenticated visit to a public route goes to /. */
export function PublicOnly() {
  const { status } = useAuth();
  if (status === "loading") return <FullPageLoader />;
  if (status === "authenticated") return <Navigate to="/" replace />;
  return <Outlet />;
}
