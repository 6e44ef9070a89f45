import type { HelpForm, HelpView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";

export type { HelpView };

const helpsKey = ["helps"] as const;
const tableKey = ["helps", "list"] as const;

/** GET /helps: every help video, for the /helps page (every user of every company). */
export function useHelps() {
  return useQuery({ queryKey: [...helpsKey, "all"], queryFn: ({ signal }) => api<HelpView[]>("/helps", { signal }) });
}

/** GET /helps/list: the Ayuda tab's table (super users). */
export function useHelpsTable() {
  return useQuery({ queryKey: tableKey, queryFn: ({ signal }) => api<HelpView[]>("/helps/list", { signal }) });
}

/** Any change is read again by both lists: they are short and no socket event carries helps. */
function useRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: helpsKey });
}

export function useSaveHelp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: HelpForm }) =>
      api<HelpView>(id === null ? "/helps" : `/helps/${id}`, { method: id === null ? "POST" : "PUT", body: form }),
    onSuccess: refresh,
  });
}

export function useDeleteHelp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/helps/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}
