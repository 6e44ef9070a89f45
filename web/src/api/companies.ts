import type { AuthResponse, CompanyBrandingForm, CompanyCreateForm, CompanyUpdateForm, CompanyView } from "@charla/contracts";
import { useMutation } from "@tanstack/react-query";
import { api, apiBlob, refreshToken } from "./client";
import { defineCollection } from "./collection";

export type { CompanyView };

/** secondary §7 Companies (super users): 20 a page in id order, searched by name. */
export const companyCollection = defineCollection<CompanyView, CompanyCreateForm | CompanyUpdateForm>({
  name: "companies",
  path: "/companies",
  pageField: "companies",
  matches: (company, search) => {
    const needle = search.trim().toLowerCase();
    return !needle || company.name.toLowerCase().includes(needle);
  },
  order: (a, b) => a.id - b.id,
});

/**
 * core §4 company swap: the super user is moved to the company (PUT /users-company/{myId}), then the
 * session is renewed so the token names the new company; the answer is that new session.
 */
export async function swapCompany(userId: number, companyId: number): Promise<AuthResponse> {
  await api<unknown>(`/users-company/${userId}`, { method: "PUT", body: { companyId } });
  return refreshToken();
}

/** PUT /companies/{id}/branding: a company admin's colours and page title. */
export function useSaveBranding() {
  return useMutation({
    mutationFn: ({ companyId, form }: { companyId: number; form: CompanyBrandingForm }) =>
      api<CompanyView>(`/companies/${companyId}/branding`, { method: "PUT", body: form }),
  });
}

/** POST /companies/{id}/logo (multipart `logo`, PNG) or DELETE it (`file` null). */
export function setCompanyLogo(companyId: number, file: Blob | null): Promise<unknown> {
  if (!file) return api<void>(`/companies/${companyId}/logo`, { method: "DELETE" });
  const body = new FormData();
  body.append("logo", file, "logo.png");
  return api<CompanyView>(`/companies/${companyId}/logo`, { method: "POST", body });
}

/** The company's stored logo (PNG), when it has one. */
export function readCompanyLogo(companyId: number): Promise<Blob> {
  return apiBlob(`/companies/${companyId}/logo`);
}
