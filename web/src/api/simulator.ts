import type { SimulatorInboundForm, SimulatorReadResult, SimulatorThreadItem } from "@charla/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useObjectUrl } from "../hooks/use-object-url";
import { api, apiBlob } from "./client";
import type { WhatsappRef } from "./lookups";

/** GET /whatsapp; `provider` is read when the server sends it (the foundation list does not yet). */
export type SimulatorConnection = WhatsappRef & { provider?: string };

/** What POST /simulator/{id}/inbound answers (201 stored, 200 a replayed id). */
export type SimulatorInboundResult = {
  channelId: string;
  stored: boolean;
  messageId: number | null;
  ticketId: number | null;
};

/** The fallback poll of the conversation, besides the socket's appMessage events. */
export const THREAD_REFRESH_MS = 3000;

export const simulatorKeys = {
  all: ["simulator"] as const,
  threads: ["simulator", "thread"] as const,
  thread: (whatsappId: number, number: string) => ["simulator", "thread", whatsappId, number] as const,
  media: (path: string) => ["simulator", "media", path] as const,
};

/**
 * Simulator connections first: those the server marks `provider: "simulator"`. A list without any
 * provider field cannot tell them apart, so every connection stays (default first) and the API
 * answers ERR_WAPP_NOT_SIMULATOR for a wrong pick.
 */
export function simulatorConnectionsOf(list: SimulatorConnection[]): SimulatorConnection[] {
  if (list.some((wa) => wa.provider !== undefined)) return list.filter((wa) => wa.provider === "simulator");
  return [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
}

export function useSimulatorConnections() {
  return useQuery({
    // Same call and key as the pickers' list; only the selection differs.
    queryKey: ["whatsapps", "list"],
    queryFn: ({ signal }) => api<SimulatorConnection[]>("/whatsapp", { signal }),
    select: simulatorConnectionsOf,
  });
}

/**
 * The phone's conversation with `number` (digits only), both directions, oldest first, as the server
 * keeps it: any tab, or another browser, shows the same history.
 */
export function useSimulatorThread(whatsappId: number | null, number: string) {
  return useQuery({
    queryKey: simulatorKeys.thread(whatsappId ?? 0, number),
    queryFn: ({ signal }) => api<SimulatorThreadItem[]>(`/simulator/${whatsappId}/messages`, { query: { number }, signal }),
    enabled: whatsappId !== null && number !== "",
    // A refused call (another provider, no rights) is not asked again every 3 s; socket events still refetch.
    refetchInterval: (query) => (query.state.status === "error" ? false : THREAD_REFRESH_MS),
    retry: false,
  });
}

/** The customer reads the conversation: agents' messages turn blue (POST /simulator/{id}/read). */
export function useMarkThreadRead() {
  return useMutation({
    mutationFn: ({ whatsappId, number }: { whatsappId: number; number: string }) =>
      api<SimulatorReadResult>(`/simulator/${whatsappId}/read`, { method: "POST", body: { number } }),
  });
}

export type SendInboundInput = { whatsappId: number; message: SimulatorInboundForm };

export function useSendInbound() {
  return useMutation({
    mutationFn: ({ whatsappId, message }: SendInboundInput) =>
      api<SimulatorInboundResult>(`/simulator/${whatsappId}/inbound`, { method: "POST", body: message }),
  });
}

/** `mediaUrl` is a full API path ("/api/v1/messages/7/media"); the client adds the prefix itself. */
export function apiPathOf(mediaUrl: string): string {
  return mediaUrl.replace(/^\/api\/v1(?=\/)/, "");
}

/** A message's media (its `mediaUrl`), fetched with the bearer, as an object URL. */
export function useMediaUrl(mediaUrl: string | null) {
  const path = mediaUrl === null ? null : apiPathOf(mediaUrl);
  const query = useQuery({
    queryKey: simulatorKeys.media(path ?? ""),
    queryFn: ({ signal }) => apiBlob(path ?? "", { signal }),
    enabled: path !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { url: useObjectUrl(query.data), type: query.data?.type ?? "", failed: query.isError, loading: query.isLoading };
}
