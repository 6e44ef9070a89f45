import { isErrorCode, type MediaType, type MessageView } from "@charla/contracts";
import { inArray } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { messages } from "../../db/schema/index.js";

type MessageRow = typeof messages.$inferSelect;
/** The columns a message's view is made of (not its driver payload, `data`). */
export type PresentableMessage = Omit<
  MessageRow,
  "data" | "channelId" | "channelContent" | "channelKey" | "clientId" | "participant" | "userId" | "whatsappId"
>;
export type QuotedFacts = Pick<MessageRow, "id" | "body" | "fromMe" | "mediaType">;

export function presentMessage(m: PresentableMessage, quoted: QuotedFacts | null): MessageView {
  return {
    id: m.id,
    ticketId: m.ticketId,
    contactId: m.contactId,
    body: m.body,
    fromMe: m.fromMe,
    read: m.read,
    ack: m.ack,
    ackError: isErrorCode(m.ackError) ? m.ackError : null,
    mediaType: m.mediaType as MediaType,
    // served only to the owning company's users, fetched as a blob with the token
    mediaUrl: m.mediaPath ? `/api/v1/messages/${m.id}/media` : null,
    mediaName: m.mediaName,
    quotedMsg: quoted
      ? { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType as MediaType }
      : null,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited,
    isAutomatic: m.isAutomatic,
    participantName: m.participantName,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** Messages with their quoted messages, in one extra query. */
export async function presentMessages(q: Scoped, rows: MessageRow[]): Promise<MessageView[]> {
  const quotedIds = [...new Set(rows.map((r) => r.quotedMsgId).filter((x): x is number => x !== null))];
  const quoted = quotedIds.length
    ? await q.db
        .select()
        .from(messages)
        .where(q.messages.where(inArray(messages.id, quotedIds)))
    : [];
  const byId = new Map(quoted.map((m) => [m.id, m]));
  return rows.map((m) => presentMessage(m, m.quotedMsgId ? (byId.get(m.quotedMsgId) ?? null) : null));
}
