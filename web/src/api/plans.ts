import type { PlanForm, PlanView } from "@charla/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { PlanView };

/** secondary §7 Plans (super users): a short list read whole (GET /plans), POST / PUT / DELETE /plans/{id}. */
export const planCollection = defineCollection<PlanView, PlanForm>({
  name: "plans",
  path: "/plans",
  matches: (plan, search) => {
    const needle = search.trim().toLowerCase();
    return !needle || plan.name.toLowerCase().includes(needle);
  },
  order: (a, b) => a.id - b.id,
});

/** GET /plans/all: the Empresas form's plan choices; under the collection's key, so a saved plan shows at once. */
export function usePlanOptions(enabled = true) {
  return useQuery({
    queryKey: [...planCollection.keys.all, "all"],
    queryFn: ({ signal }) => api<PlanView[]>("/plans/all", { signal }),
    enabled,
  });
}
