import type { CompanySchedulesForm, CompanySchedulesView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";

const key = (companyId: number) => ["company-schedules", companyId] as const;

/** The company's week and zone (core §7), used when scheduleType is "company". */
export function useCompanySchedules(companyId: number) {
  return useQuery({
    queryKey: key(companyId),
    queryFn: ({ signal }) => api<CompanySchedulesView>(`/companies/${companyId}/schedules`, { signal }),
  });
}

export function useSaveCompanySchedules(companyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: CompanySchedulesForm) =>
      api<CompanySchedulesView>(`/companies/${companyId}/schedules`, { method: "PUT", body: { id: companyId, ...values } }),
    onSuccess: (view) => client.setQueryData(key(companyId), view),
  });
}
