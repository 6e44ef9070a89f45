import type { TicketView } from "@charla/contracts";
import type { messages } from "../db/schema/index.js";
import { presentMessage } from "../modules/messages/presenter.js";
import { ticketViewFrom } from "../modules/tickets/presenter.js";
import { audienceFrom } from "../policies/tickets.js";
import type { WrittenRow } from "./writer.js";

type MessageRow = typeof messages.$inferSelect;

/** The ticket as the list presents it, from the row and relations the inbound statement returned. */
export function ticketViewOf(r: WrittenRow): TicketView {
  return ticketViewFrom(
    {
      id: r.t_id,
      uuid: r.t_uuid,
      status: r.t_status,
      contactId: r.t_contact_id,
      whatsappId: r.t_whatsapp_id,
      queueId: r.t_queue_id,
      userId: r.t_user_id,
      lastMessage: r.t_last_message,
      unreadMessages: r.t_unread_messages,
      isGroup: r.t_is_group,
      chatbot: r.t_chatbot,
      useIntegration: r.t_use_integration,
      promptId: r.t_prompt_id,
      integrationId: r.t_integration_id,
      createdAt: r.t_created_at,
      updatedAt: r.t_updated_at,
    },
    {
      contactName: r.c_name,
      contactNumber: r.c_number,
      contactPicture: r.c_profile_pic_url,
      contactIsGroup: r.c_is_group,
      whatsappName: r.w_name,
      queueName: r.q_name,
      queueColor: r.q_color,
      userName: r.u_name,
      tags: r.tags,
    },
  );
}

/** The stored message as a row of the messages table (what the message presenter takes). */
export function messageRowOf(r: WrittenRow, companyId: number, whatsappId: number): MessageRow {
  return {
    id: Number(r.m_id),
    companyId,
    ticketId: r.t_id,
    contactId: r.m_contact_id,
    whatsappId,
    channelId: r.m_channel_id,
    // received messages carry no channel content of ours
    channelContent: null,
    channelKey: r.m_channel_key,
    body: r.m_body,
    fromMe: r.m_from_me,
    read: r.m_read,
    ack: r.m_ack,
    ackError: r.m_ack_error,
    mediaType: r.m_media_type,
    mediaPath: r.m_media_path,
    mediaName: r.m_media_name,
    quotedMsgId: r.m_quoted_msg_id,
    isDeleted: r.m_is_deleted,
    isEdited: r.m_is_edited,
    participant: r.m_participant,
    participantName: r.m_participant_name,
    isAutomatic: r.m_is_automatic,
    userId: r.m_user_id,
    // the driver's payload is not part of any view, and inbound rows carry none
    data: null,
    clientId: null,
    createdAt: r.m_created_at,
    updatedAt: r.m_updated_at,
  };
}

export function messageViewOf(r: WrittenRow, companyId: number, whatsappId: number) {
  const quoted =
    r.m_quoted_msg_id !== null && r.qm_body !== null
      ? { id: r.m_quoted_msg_id, body: r.qm_body, fromMe: r.qm_from_me ?? false, mediaType: r.qm_media_type ?? "chat" }
      : null;
  return presentMessage(messageRowOf(r, companyId, whatsappId), quoted as MessageRow | null);
}

/** The users who may see the ticket: the statement narrowed the candidates, the policy decides (as ticketAudience does). */
export function audienceOf(r: WrittenRow): number[] {
  return audienceFrom(r.candidates, {
    userId: r.t_user_id,
    queueId: r.t_queue_id,
    status: r.t_status,
    chatbot: r.t_chatbot,
    whatsappId: r.t_whatsapp_id,
  });
}
