import type { ContactView } from "./contacts.js";
import type { QueueRef } from "./users.js";

export const TicketStatuses = ["pending", "open", "closed"] as const;
export type TicketStatus = (typeof TicketStatuses)[number];

export type TagRef = { id: number; name: string; color: string };

/** A ticket as lists, the chat header and socket events show it (core §3 Ticket). */
export type TicketView = {
  id: number;
  uuid: string;
  status: TicketStatus;
  contactId: number;
  contact: Pick<ContactView, "id" | "name" | "number" | "profilePicUrl" | "isGroup">;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  queueId: number | null;
  queue: QueueRef | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  tags: TagRef[];
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  createdAt: string;
  updatedAt: string;
};

export const MediaTypes = [
  "chat",
  "image",
  "audio",
  "video",
  "application",
  "locationMessage",
  "vcard",
  "call_log",
  "sticker",
] as const;
export type MediaType = (typeof MediaTypes)[number];

/** A message (core §3 Message); `mediaUrl` is an API path fetched with the token. */
export type MessageView = {
  id: number;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
  quotedMsg: Pick<MessageView, "id" | "body" | "fromMe" | "mediaType"> | null;
  isDeleted: boolean;
  isEdited: boolean;
  isAutomatic: boolean;
  participantName: string | null;
  createdAt: string;
  updatedAt: string;
};
