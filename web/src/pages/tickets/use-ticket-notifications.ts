import type { MessageView, TicketView } from "@charla/contracts";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { matchPath, useLocation, useNavigate } from "react-router";
import { useAuth } from "../../auth/context";
import { readItem, StorageKeys, writeItem } from "../../lib/storage";
import { readVolume } from "../../lib/volume";
import { useSocketEvent } from "../../realtime/context";
import { playNotificationSound, unlockNotificationSound } from "./notification-sound";

const canNotify = () => typeof window !== "undefined" && "Notification" in window;

/** Only web pictures become the notification's icon. */
const iconOf = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined);

/** One line for the notification body: the text, or what kind of media arrived. */
function bodyOf(message: MessageView, mediaLabel: (type: string) => string): string {
  const text = message.body.replace(/\s+/g, " ").trim();
  if (message.mediaType === "chat") return text;
  if (message.mediaType === "locationMessage" || message.mediaType === "vcard") return mediaLabel(message.mediaType);
  return text || mediaLabel(message.mediaType);
}

/**
 * core §1, §6: a customer message for a ticket that is not the one on screen (or with the tab hidden)
 * plays the notification sound and, when allowed, shows a browser notification. Tickets of other
 * users stay quiet; pending ones only reach users whose allTicket is enabled. A transfer to this user
 * notifies as well. The browser's permission is asked for once, on the first interaction.
 */
export function useTicketNotifications(): void {
  const { user } = useAuth();
  const { t } = useTranslation("tickets");
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const openUuid = useRef<string | null>(null);
  openUuid.current = matchPath("/tickets/:ticketId", pathname)?.params.ticketId ?? null;

  useEffect(() => {
    const onFirstInteraction = () => {
      unlockNotificationSound();
      if (canNotify() && Notification.permission === "default" && !readItem(StorageKeys.notificationsAsked)) {
        writeItem(StorageKeys.notificationsAsked, "1");
        void Notification.requestPermission().catch(() => undefined);
      }
      window.removeEventListener("pointerdown", onFirstInteraction);
      window.removeEventListener("keydown", onFirstInteraction);
    };
    window.addEventListener("pointerdown", onFirstInteraction);
    window.addEventListener("keydown", onFirstInteraction);
    return () => {
      window.removeEventListener("pointerdown", onFirstInteraction);
      window.removeEventListener("keydown", onFirstInteraction);
    };
  }, []);

  const notify = (ticket: TicketView, title: string, body: string) => {
    playNotificationSound(readVolume());
    if (!canNotify() || Notification.permission !== "granted") return;
    try {
      const notification = new Notification(title, {
        body,
        tag: `ticket-${ticket.id}`,
        icon: iconOf(ticket.contact.profilePicUrl),
      });
      notification.onclick = () => {
        window.focus();
        notification.close();
        if (ticket.status !== "pending") navigate(`/tickets/${ticket.uuid}`);
        else navigate("/tickets");
      };
    } catch {
      // some mobile browsers only allow notifications from a service worker
    }
  };

  useSocketEvent("appMessage", (event) => {
    if (!user || event.action !== "create" || event.message.fromMe) return;
    const { ticket, message } = event;
    if (ticket.userId !== null && ticket.userId !== user.id) return;
    if (ticket.status === "pending" && user.allTicket !== "enable") return;
    if (ticket.uuid === openUuid.current && document.visibilityState === "visible") return;
    const name = ticket.contact.name || ticket.contact.number;
    const label = (type: string) => t(`media.${type}`, { defaultValue: t("media.file") });
    notify(ticket, t("notifications.message", { name }), bodyOf(message, label));
  });

  useSocketEvent("ticket", (event) => {
    if (!user || event.action !== "transfer" || event.toUserId !== user.id) return;
    const name = event.ticket.contact.name || event.ticket.contact.number;
    notify(event.ticket, t("notifications.transferred"), name);
  });
}
