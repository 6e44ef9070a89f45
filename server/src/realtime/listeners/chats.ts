import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send, sendToChat } from "../send.js";

/**
 * Internal chat (secondary §7: `chat`, `chat-user`, `chat-{id}`). Only ever to the participants' own
 * rooms, never the company's: a user not in a chat must not hear its title or messages, and the chat's
 * channel name is guessable, so a room per chat would not keep them out either.
 */
export function chatPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("chat.changed", { id: "realtime.chat-changed", phase: "commit" }, (e) => {
    const to = rt.toUsers(e.companyId, e.audience);
    send(to, "chat", e.companyId, { action: e.action, record: e.chat });
    if (e.action === "update") sendToChat(to, e.companyId, e.chat.id, { action: "update", chat: e.chat });
    if (e.lost.length) send(rt.toUsers(e.companyId, e.lost), "chat", e.companyId, { action: "delete", id: e.chat.id });
  });
  bus.on("chat.deleted", { id: "realtime.chat-deleted", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.audience), "chat", e.companyId, { action: "delete", id: e.chatId });
  });
  bus.on("chat.message", { id: "realtime.chat-message", phase: "commit" }, (e) => {
    const to = rt.toUsers(e.companyId, e.audience);
    // the list first (last message, order), then the open chat's message
    send(to, "chat", e.companyId, { action: "update", record: e.chat });
    sendToChat(to, e.companyId, e.chat.id, { action: "new-message", message: e.message, chat: e.chat });
  });
  bus.on("chat.unreads", { id: "realtime.chat-unreads", phase: "commit" }, (e) => {
    // each participant hears their own counts only
    for (const c of e.counts) {
      send(rt.toUsers(e.companyId, [c.userId]), "chatUser", e.companyId, {
        action: "update",
        chatId: e.chatId,
        unreads: c.unreads,
        total: c.total,
      });
    }
  });
}
