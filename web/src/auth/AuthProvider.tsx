import type { AuthResponse, LoginForm, SessionUser } from "@charla/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, startTransition, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "../lib/toast";
import { ApiError, api, onTokenRefreshed, setUnauthorizedHandler, startupRefresh } from "../api/client";
import { toastError } from "../api/errors";
import { setCompanyZone } from "../lib/company-time";
import { clearSession, readToken, StorageKeys, writeItem, writeToken } from "../lib/storage";
import { prefetchPageData } from "../routes/page-data";
import { loginDestination, preloadSignedIn } from "../routes/pages";
import { saveCompanyLook } from "../theme/preferences";
import { AuthContext, type AuthContextValue, type AuthStatus } from "./context";
import { warnSubscription } from "./subscription";

type State = { status: AuthStatus; user: SessionUser | null };

function storeSession(auth: AuthResponse): void {
  writeToken(auth.token);
  writeItem(StorageKeys.companyId, String(auth.user.companyId));
  // before the signed-in screens draw: every date they show is on the company's clock
  setCompanyZone(auth.user.company.timeZone);
  const { primaryColor, headerColor, pageTitle } = auth.user.company;
  saveCompanyLook({ primaryColor, headerColor, pageTitle });
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation("login");
  // A stored token is refreshed before any private screen renders (core §4 Session).
  const [state, setState] = useState<State>(() => ({
    status: readToken() ? "loading" : "anonymous",
    user: null,
  }));

  /**
   * A refreshed session (the page load's, or a renewal later on), stored. Not a transition: measured on
   * a busy machine, rendering the signed-in shell in slices only spread it over more time, the first row
   * came later. The refresh listener and the page load's own wait both see the first answer: one render.
   */
  const signedIn = useCallback((auth: AuthResponse) => {
    storeSession(auth);
    setState((current) =>
      current.status === "authenticated" && current.user === auth.user ? current : { status: "authenticated", user: auth.user },
    );
  }, []);

  const endSession = useCallback(() => {
    clearSession();
    queryClient.clear();
    setState({ status: "anonymous", user: null });
    navigate("/login", { replace: true });
  }, [navigate, queryClient]);

  useEffect(() => setUnauthorizedHandler(endSession), [endSession]);

  useEffect(() => onTokenRefreshed(signedIn), [signedIn]);

  useEffect(() => {
    if (!readToken()) return;
    startupRefresh()
      .then(signedIn)
      .catch((error: unknown) => {
        // A 401 already ended the session; anything else (server down) keeps the token for the next try.
        if (!(error instanceof ApiError && error.status === 401)) toastError(error);
        setState({ status: "anonymous", user: null });
      });
  }, [signedIn]);

  /** A session the API has just opened (a login, a sign-up): stored, and the user taken in. */
  const startSession = useCallback(
    (auth: AuthResponse) => {
      storeSession(auth);
      // the login page shows the logo of the company last signed in here (loaded apart: not on the login page's bundle)
      void import("../pages/settings/company-look")
        .then((look) => look.storeLogoOf(auth.user.companyId, auth.user.company.logo))
        .catch(() => undefined);
      preloadSignedIn(loginDestination);
      prefetchPageData(loginDestination, Promise.resolve(auth));
      // The router moves inside a transition: the session joins it, so the login page never renders
      // authenticated at /login (its guard would send the user to / instead of the destination).
      startTransition(() => {
        setState({ status: "authenticated", user: auth.user });
        navigate(loginDestination, { replace: true });
      });
      toast.success(t("success"));
      warnSubscription(auth.user.company.dueDate);
    },
    [navigate, t],
  );

  const login = useCallback(
    async (form: LoginForm) => {
      startSession(await api<AuthResponse>("/auth/login", { method: "POST", body: form, anonymous: true }));
    },
    [startSession],
  );

  const logout = useCallback(async () => {
    try {
      await api<void>("/auth/logout", { method: "DELETE" });
    } catch {
      // The server may already consider the session gone; the local session ends regardless.
    }
    endSession();
  }, [endSession]);

  const updateUser = useCallback((patch: Partial<SessionUser>) => {
    if (patch.company) setCompanyZone(patch.company.timeZone);
    setState((current) => (current.user ? { ...current, user: { ...current.user, ...patch } } : current));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, login, startSession, logout, updateUser }),
    [state, login, startSession, logout, updateUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
