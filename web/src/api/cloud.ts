import type { ChatWindow, CloudTemplatesList, MessageView, TemplateSendForm } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { addMessageToCache } from "./messages";

export const cloudKeys = {
  window: (ticketId: number) => ["tickets", "window", ticketId] as const,
  templates: (whatsappId: number) => ["whatsapps", "templates", whatsappId] as const,
};

/**
 * Meta's 24-hour window of a ticket (GET /tickets/{id}/window). Asked again when the customer writes
 * (use-chat-events) and every few minutes while shown, so a chat left open does not trust an old answer.
 */
export function useChatWindow(ticketId: number, enabled: boolean) {
  return useQuery({
    queryKey: cloudKeys.window(ticketId),
    queryFn: ({ signal }) => api<ChatWindow>(`/tickets/${ticketId}/window`, { signal }),
    enabled,
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.applies ? 5 * 60_000 : false),
  });
}

/** The business account's templates (cached by the server for a while; `refresh` asks Meta again). */
export function useCloudTemplates(whatsappId: number | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: cloudKeys.templates(whatsappId ?? 0),
    queryFn: ({ signal }) => api<CloudTemplatesList>(`/whatsapp/${whatsappId}/templates`, { signal }),
    enabled: whatsappId !== null,
    staleTime: 60_000,
  });
  const refresh = useMutation({
    mutationFn: () => api<CloudTemplatesList>(`/whatsapp/${whatsappId}/templates`, { query: { refresh: 1 } }),
    onSuccess: (list) => client.setQueryData(cloudKeys.templates(whatsappId ?? 0), list),
  });
  return { query, refresh };
}

/** POST /messages/{ticketId}/template: recorded like any message, which the answer (or the live event) adds to the chat. */
export function useSendTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, form }: { ticketId: number; form: TemplateSendForm }) =>
      api<MessageView | MessageView[]>(`/messages/${ticketId}/template`, { method: "POST", body: form }),
    onSuccess: (sent) => {
      for (const message of Array.isArray(sent) ? sent : [sent]) if (message?.id) addMessageToCache(client, message);
    },
  });
}
