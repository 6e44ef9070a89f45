import type { AuthResponse, LoginForm, SessionUser } from "@charla/contracts";
import { createContext, useContext } from "react";

export type AuthStatus = "loading" | "authenticated" | "anonymous";

export type AuthContextValue = {
  status: AuthStatus;
  user: SessionUser | null;
  login: (form: LoginForm) => Promise<void>;
  /** Takes in a session the API opened another way (sign-up answers as a login does). */
  startSession: (auth: AuthResponse) => void;
  logout: () => Promise<void>;
  /** Merges changes to the logged-in user (own profile edits, live updates). */
  updateUser: (patch: Partial<SessionUser>) => void;
};

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth outside AuthProvider");
  return value;
}

/** For screens behind the route guard, where a user is always present. */
export function useSessionUser(): SessionUser {
  const { user } = useAuth();
  if (!user) throw new Error("useSessionUser without a session");
  return user;
}
