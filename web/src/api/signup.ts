import type { AuthResponse, PlanView, SignupForm, SignupInfo } from "@charla/contracts";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { api } from "./client";

export type { SignupInfo };

const signupKey = ["signup"] as const;

/** GET /auth/signup: whether the operator lets new companies sign up (read by /signup and /login). */
export function useSignupInfo() {
  return useQuery({
    queryKey: [...signupKey, "info"],
    queryFn: ({ signal }) => api<SignupInfo>("/auth/signup", { signal, anonymous: true }),
    staleTime: 60_000,
    retry: false,
  });
}

/** GET /plans/list (public, secondary §7): the plans a new company may pick. */
export function usePublicPlans(enabled = true) {
  return useQuery({
    queryKey: [...signupKey, "plans"],
    queryFn: ({ signal }) => api<PlanView[]>("/plans/list", { signal, anonymous: true }),
    enabled,
  });
}

/** POST /auth/signup: the new company and its admin; answers as a login does (token, user, refresh cookie). */
export function signup(form: SignupForm): Promise<AuthResponse> {
  return api<AuthResponse>("/auth/signup", { method: "POST", body: form, anonymous: true });
}

/** Sign-up closed (or plans changed) since the page read them: read again, so the page says what holds now. */
export function refreshSignupInfo(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: signupKey });
}
