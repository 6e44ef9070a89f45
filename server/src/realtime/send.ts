import { Events, type SocketChannel, type SocketPayloads } from "@charla/contracts";

type Emitter = { emit: (event: string, payload: unknown) => void };
type CompanyChannel = Exclude<SocketChannel, "contactListItemsOf" | "chatOf">;

/**
 * How a listener puts an event on the wire: the channel's name and its payload's type both come from
 * the contracts (`Events`, `SocketPayloads`), which the web's `useSocketEvent` reads too.
 */
export function send<C extends CompanyChannel>(to: Emitter, channel: C, companyId: number, payload: SocketPayloads[C]): void {
  to.emit(Events[channel](companyId), payload);
}

/** A contact list's own item channel (secondary §7: `company-{id}-ContactListItem-{listId}`). */
export function sendToList(to: Emitter, companyId: number, listId: number, payload: SocketPayloads["contactListItemsOf"]): void {
  to.emit(Events.contactListItemsOf(companyId, listId), payload);
}

/** One internal chat's own channel (secondary §7: `company-{id}-chat-{chatId}`). */
export function sendToChat(to: Emitter, companyId: number, chatId: number, payload: SocketPayloads["chatOf"]): void {
  to.emit(Events.chatOf(companyId, chatId), payload);
}
