import { storableText } from "@charla/contracts";
import type { proto } from "baileys";

/*
 * Messages Charla has no view for (polls, events, group invitations, catalogue products and orders)
 * are stored as a short Spanish text the agent can read in the ticket, instead of vanishing: the
 * customer did write something. A vote on a poll (pollUpdateMessage) stays ignorable: it is
 * encrypted for the poll's author, and a ticket line per vote would be noise.
 */

/** The content types that become a placeholder text. */
export const PLACEHOLDER_TYPES = new Set([
  "pollCreationMessage",
  "pollCreationMessageV2",
  "pollCreationMessageV3",
  "pollCreationMessageV5",
  "eventMessage",
  "groupInviteMessage",
  "productMessage",
  "orderMessage",
]);

const clean = (text: string | null | undefined) => storableText(text ?? "").trim();
/** "prefix: text", or the prefix alone when there is no text. */
const labelled = (prefix: string, text: string, sep = ": ") => (text ? `${prefix}${sep}${text}` : prefix);
const lines = (...parts: string[]) => parts.filter(Boolean).join("\n");

function pollBody(poll: proto.Message.IPollCreationMessage): string {
  const options = (poll.options ?? []).map((o) => clean(o.optionName)).filter(Boolean);
  return lines(labelled("📊 Encuesta", clean(poll.name)), ...options.map((o) => `- ${o}`));
}

function eventBody(event: proto.Message.IEventMessage): string {
  const prefix = event.isCanceled ? "📅 Evento cancelado" : "📅 Evento";
  return lines(labelled(prefix, clean(event.name)), clean(event.description));
}

function inviteBody(invite: proto.Message.IGroupInviteMessage): string {
  return lines(labelled("👥 Invitación al grupo", clean(invite.groupName), " "), clean(invite.caption));
}

function productBody(product: proto.Message.IProductMessage): string {
  return lines(labelled("🛍️ Producto", clean(product.product?.title)), clean(product.body));
}

function orderBody(order: proto.Message.IOrderMessage): string {
  const count = order.itemCount ?? 0;
  const items = count > 0 ? ` (${count} ${count === 1 ? "artículo" : "artículos"})` : "";
  const name = clean(order.orderTitle) || clean(order.orderId);
  return lines(`${labelled("🧾 Pedido", name, " ")}${items}`, clean(order.message));
}

/** The placeholder text of a message of one of PLACEHOLDER_TYPES (its normalised content). */
export function placeholderBody(type: string, m: proto.IMessage): string {
  if (type === "eventMessage") return eventBody(m.eventMessage ?? {});
  if (type === "groupInviteMessage") return inviteBody(m.groupInviteMessage ?? {});
  if (type === "productMessage") return productBody(m.productMessage ?? {});
  if (type === "orderMessage") return orderBody(m.orderMessage ?? {});
  const poll = m.pollCreationMessage ?? m.pollCreationMessageV2 ?? m.pollCreationMessageV3 ?? m.pollCreationMessageV5;
  return pollBody(poll ?? {});
}
