import { ClientEvents, type TicketView } from "@charla/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "../../../lib/toast";
import { api } from "../../../api/client";
import { cloudKeys } from "../../../api/cloud";
import { addMessageToCache, updateMessageInCache } from "../../../api/messages";
import { putTicketInCache } from "../../../api/ticket-actions";
import { ticketKeys } from "../../../api/tickets";
import { useSocket, useSocketEvent } from "../../../realtime/context";

/** One toast however many times the deletion is heard (own click and the live event). */
export const TICKET_DELETED_TOAST = "ticket-deleted";

const READ_DELAY_MS = 1500;

/**
 * Live updates of the open chat (core §4, §7 Realtime): joins the ticket's room while shown, appends
 * and updates messages, follows the header, and leaves when the ticket is deleted.
 */
export function useChatEvents(ticket: TicketView): void {
  const socket = useSocket();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation("chat");
  const ticketId = ticket.id;
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(readTimer.current), []);

  // Messages arriving while the conversation is on screen are read: page 1 (no peek) marks them so.
  const markRead = () => {
    clearTimeout(readTimer.current);
    readTimer.current = setTimeout(() => {
      if (document.visibilityState !== "visible") return;
      void api(`/messages/${ticketId}`, { query: { pageNumber: 1 } }).catch(() => undefined);
    }, READ_DELAY_MS);
  };

  useEffect(() => {
    if (!socket) return;
    const join = () => socket.emit(ClientEvents.joinChatBox, String(ticketId));
    // After a reconnection: join again, and read what may have been missed meanwhile.
    const rejoin = () => {
      join();
      void client.invalidateQueries({ queryKey: ticketKeys.messages(ticketId) });
    };
    if (socket.connected) join();
    socket.on("connect", rejoin);
    return () => {
      socket.off("connect", rejoin);
      socket.emit(ClientEvents.leaveChatBox, String(ticketId));
    };
  }, [socket, ticketId, client]);

  useSocketEvent("appMessage", (event) => {
    if (event.message.ticketId !== ticketId) return;
    if (event.action === "create") {
      addMessageToCache(client, event.message);
      if (!event.message.fromMe) {
        markRead();
        // the customer wrote: Meta's 24-hour window (re)opens, stored before the message reached us
        void client.invalidateQueries({ queryKey: cloudKeys.window(ticketId) });
      }
    } else {
      updateMessageInCache(client, event.message);
    }
    if (event.ticket?.id === ticketId) putTicketInCache(client, event.ticket);
  });

  useSocketEvent("ticket", (event) => {
    if (event.action === "update" && event.ticket.id === ticketId) {
      putTicketInCache(client, event.ticket);
      return;
    }
    if (event.action === "delete" && event.ticketId === ticketId) {
      // core §8 fixed text
      toast.success(t("ticket.deletedLive"), { toastId: TICKET_DELETED_TOAST });
      client.removeQueries({ queryKey: ticketKeys.messages(ticketId) });
      navigate("/tickets");
    }
  });
}
