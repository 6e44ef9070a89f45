import type { ConnectionForm, ConnectionSessionEvent, ConnectionView } from "@charla/contracts";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { useSocketEvent } from "../realtime/context";
import { api } from "./client";

/** The list shares its key with the pickers' `useWhatsapps` (same call): one cache, kept live for both. */
export const connectionKeys = {
  all: ["whatsapps"] as const,
  list: () => ["whatsapps", "list"] as const,
  details: () => ["whatsapps", "detail"] as const,
  detail: (id: number) => ["whatsapps", "detail", id] as const,
};

export type ConnectionSession = ConnectionSessionEvent["session"];
export type ConnectionPayload = z.output<typeof ConnectionForm>;
export type SessionAction = "retry" | "newQr" | "disconnect";

export function useConnections(enabled = true) {
  return useQuery({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => api<ConnectionView[]>("/whatsapp", { signal }),
    enabled,
  });
}

export function useConnection(id: number | null) {
  return useQuery({
    queryKey: connectionKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api<ConnectionView>(`/whatsapp/${id}`, { query: { session: 0 }, signal }),
    enabled: id !== null,
    // the modal must open on the saved values, not on what was cached 30 s ago
    staleTime: 0,
  });
}

const byName = (a: ConnectionView, b: ConnectionView) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;

/**
 * A created or changed connection in the list (the server's order: by name) and its detail. A company
 * has one default: the server unsets the others without telling, so the cache does it too.
 */
export function upsertConnectionInCache(client: QueryClient, connection: ConnectionView): void {
  client.setQueryData(connectionKeys.detail(connection.id), connection);
  if (connection.isDefault) {
    client.setQueriesData<ConnectionView>({ queryKey: connectionKeys.details() }, (item) =>
      item && item.id !== connection.id && item.isDefault ? { ...item, isDefault: false } : item,
    );
  }
  client.setQueryData<ConnectionView[]>(connectionKeys.list(), (list) => {
    if (!list) return list;
    const others = list
      .filter((item) => item.id !== connection.id)
      .map((item) => (connection.isDefault && item.isDefault ? { ...item, isDefault: false } : item));
    return [...others, connection].sort(byName);
  });
}

export function removeConnectionFromCache(client: QueryClient, connectionId: number): void {
  client.removeQueries({ queryKey: connectionKeys.detail(connectionId) });
  client.setQueryData<ConnectionView[]>(connectionKeys.list(), (list) => list?.filter((item) => item.id !== connectionId));
}

/** core §4 Live updates: status, updatedAt, qrcode and retries change in place. */
export function applySessionToCache(client: QueryClient, session: ConnectionSession): void {
  const patch = (item: ConnectionView): ConnectionView =>
    item.id === session.id
      ? {
          ...item,
          status: session.status,
          statusReason: session.statusReason,
          qrcode: session.qrcode,
          retries: session.retries,
          updatedAt: session.updatedAt,
        }
      : item;
  client.setQueryData<ConnectionView[]>(connectionKeys.list(), (list) => list?.map(patch));
  client.setQueryData<ConnectionView>(connectionKeys.detail(session.id), (item) => (item ? patch(item) : item));
}

/** The company's connection channels; mounted once with the other company-wide listeners. */
export function useConnectionEvents(): void {
  const client = useQueryClient();

  useSocketEvent("whatsapp", (event) => {
    if (event.action === "delete") removeConnectionFromCache(client, event.whatsappId);
    else if (event.action === "update") upsertConnectionInCache(client, event.whatsapp);
  });

  useSocketEvent("whatsappSession", (event) => {
    if (event.action === "update") applySessionToCache(client, event.session);
  });
}

export type SaveConnectionInput = { id: number | null; values: ConnectionPayload };

export function useSaveConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: SaveConnectionInput) =>
      id === null
        ? api<ConnectionView>("/whatsapp", { method: "POST", body: values })
        : api<ConnectionView>(`/whatsapp/${id}`, { method: "PUT", body: values }),
    onSuccess: (connection) => upsertConnectionInCache(client, connection),
  });
}

export function useDeleteConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/whatsapp/${id}`, { method: "DELETE" }),
    onSuccess: (_, id) => removeConnectionFromCache(client, id),
  });
}

const sessionMethods = { retry: "POST", newQr: "PUT", disconnect: "DELETE" } as const;

/** Link with a phone number: the session answers PAIRING with the code to type on the phone (live, by event). */
export function usePairingCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, number }: { id: number; number?: string }) =>
      api<ConnectionView>(`/whatsappsession/${id}/pairing-code`, { method: "POST", body: number ? { number } : {} }),
    onSuccess: (connection) => {
      const cached = client.getQueryData<ConnectionView[]>(connectionKeys.list())?.find((c) => c.id === connection.id);
      if (cached && cached.updatedAt > connection.updatedAt) return;
      upsertConnectionInCache(client, connection);
    },
  });
}

/** core §4 session buttons: retry (POST), new QR (PUT), disconnect (DELETE) on /whatsappsession/{id}. */
export function useSessionAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: SessionAction }) =>
      api<ConnectionView>(`/whatsappsession/${id}`, { method: sessionMethods[action] }),
    // the answer may be older than a session event that overtook it: only the session fields are
    // taken when the cache already holds a newer update
    onSuccess: (connection) => {
      const cached = client.getQueryData<ConnectionView[]>(connectionKeys.list())?.find((c) => c.id === connection.id);
      if (cached && cached.updatedAt > connection.updatedAt) return;
      upsertConnectionInCache(client, connection);
    },
  });
}
