import type { DeliveriesPage, DeliveryView, IntegrationForm, IntegrationView } from "@charla/contracts";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../realtime/context";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { DeliveryView, IntegrationView };

/** secondary §7 queue integrations: 20 a page by name, searched by name; `company-{id}-queueIntegration` keeps it live. */
export const integrationCollection = defineCollection<IntegrationView, IntegrationForm>({
  name: "queueIntegration",
  path: "/queueIntegration",
  pageField: "queueIntegrations",
  matches: (i, search) => i.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id,
  live: { channel: "queueIntegration", item: "queueIntegration", idField: "integrationId" },
});

const deliveriesKey = (id: number) => ["queueIntegration", "deliveries", id] as const;

/**
 * GET /queueIntegration/{id}/deliveries, newest first, page after page; read again whenever the
 * integration's event says it changed (each attempt of a delivery tells it).
 */
export function useDeliveries(integrationId: number) {
  const client = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: deliveriesKey(integrationId),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api<DeliveriesPage>(`/queueIntegration/${integrationId}/deliveries?pageNumber=${pageParam}`),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  useSocketEvent("queueIntegration", (event) => {
    const id = event.action === "delete" ? event.integrationId : event.queueIntegration.id;
    if (id === integrationId) void client.invalidateQueries({ queryKey: deliveriesKey(integrationId) });
  });
  return query;
}

/** POST /queueIntegration/{id}/test: a test event, written and sent; its row goes to the log at once. */
export function useTestEvent(integrationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<DeliveryView>(`/queueIntegration/${integrationId}/test`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveriesKey(integrationId) }),
  });
}
