import type { AnnouncementEvent } from "./announcements.js";
import type { PaymentEventPayload } from "./billing.js";
import type { CampaignEvent } from "./campaigns.js";
import type { ChatEvent, ChatOfEvent, ChatUserEvent } from "./chats.js";
import type { ConnectionEvent, ConnectionSessionEvent } from "./connections.js";
import type { ContactListEvent, ContactListItemEvent } from "./contact-lists.js";
import type { ContactView } from "./contacts.js";
import type { FileListEvent } from "./file-lists.js";
import type { IntegrationEvent } from "./integrations.js";
import type { PromptEvent } from "./prompts.js";
import type { CompanySchedulesView, QueueEvent } from "./queues.js";
import type { QuickMessageEvent } from "./quick-messages.js";
import type { ScheduleEvent } from "./schedules.js";
import type { SettingView } from "./setting-definitions.js";
import type { AppMessageEvent, TagEvent, TicketEvent } from "./tickets.js";
import type { UserView } from "./users.js";

/** Realtime event names (core §7 Realtime channel); the server emits and the web listens through these. */
export const Events = {
  user: (companyId: number) => `company-${companyId}-user`,
  auth: (companyId: number) => `company-${companyId}-auth`,
  settings: (companyId: number) => `company-${companyId}-settings`,
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  queue: (companyId: number) => `company-${companyId}-queue`,
  /** secondary §7: the quick replies' channel, spelled as the spec spells it. */
  quickMessage: (companyId: number) => `company-${companyId}-quickemessage`,
  /** Scheduled messages (issue 28): the list and the next-24 h view follow it. */
  schedule: (companyId: number) => `company-${companyId}-schedule`,
  /** secondary §7: contact lists, and their items company-wide and per list. */
  contactList: (companyId: number) => `company-${companyId}-ContactList`,
  contactListItem: (companyId: number) => `company-${companyId}-ContactListItem`,
  contactListItemsOf: (companyId: number, listId: number) => `company-${companyId}-ContactListItem-${listId}`,
  /** secondary §7: campaigns (the list and the report follow it). */
  campaign: (companyId: number) => `company-${companyId}-campaign`,
  /** secondary §7: announcements, platform-wide: sent to every company, each on its own name. */
  announcement: (companyId: number) => `company-${companyId}-announcement`,
  /** secondary §7: file lists. */
  file: (companyId: number) => `company-${companyId}-file`,
  /** secondary §7: queue integrations (their last delivery too) and AI prompts; admins only. */
  queueIntegration: (companyId: number) => `company-${companyId}-queueIntegration`,
  prompt: (companyId: number) => `company-${companyId}-prompt`,
  /** secondary §7 internal chat: chats, the user's unread counts, one chat's messages; sent to participants only. */
  chat: (companyId: number) => `company-${companyId}-chat`,
  chatUser: (companyId: number) => `company-${companyId}-chat-user`,
  chatOf: (companyId: number, chatId: number) => `company-${companyId}-chat-${chatId}`,
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  company: (companyId: number) => `company-${companyId}-company`,
  payment: (companyId: number) => `company-${companyId}-payment`,
  /** core §4: tags react on a channel named "user" (sent to the company's room only). */
  tag: (_companyId: number) => "user",
} as const;

/** Client → server events. */
export const ClientEvents = {
  joinChatBox: "joinChatBox",
  leaveChatBox: "leaveChatBox",
  joinNotification: "joinNotification",
  joinTickets: "joinTickets",
  leaveTickets: "leaveTickets",
  userStatus: "userStatus",
} as const;

export type CrudAction = "create" | "update" | "delete";

export type UserEvent = { action: "create" | "update"; user: UserView } | { action: "delete"; userId: number };
/** Another login of the same account ended this session (the web signs out). */
export type AuthEvent = { action: "update"; user: { id: number } };
/** Secret values arrive empty: the whole company hears this. */
export type SettingsEvent = { action: "update"; setting: SettingView };
/** `reload`: many contacts changed at once (an import); lists read themselves again. */
export type ContactEvent =
  | { action: "create" | "update"; contact: ContactView }
  | { action: "delete"; contactId: number }
  | { action: "reload" };
export type CompanySchedulesEvent = { action: "update"; schedules: CompanySchedulesView };

/**
 * What each realtime channel carries, by its name in `Events`: the server's emit and the web's
 * `useSocketEvent` both take their payload type from here, so neither side chooses one by hand.
 */
export type SocketPayloads = {
  user: UserEvent;
  auth: AuthEvent;
  settings: SettingsEvent;
  whatsapp: ConnectionEvent;
  whatsappSession: ConnectionSessionEvent;
  contact: ContactEvent;
  queue: QueueEvent;
  quickMessage: QuickMessageEvent;
  schedule: ScheduleEvent;
  contactList: ContactListEvent;
  contactListItem: ContactListItemEvent;
  contactListItemsOf: ContactListItemEvent;
  campaign: CampaignEvent;
  announcement: AnnouncementEvent;
  file: FileListEvent;
  queueIntegration: IntegrationEvent;
  prompt: PromptEvent;
  chat: ChatEvent;
  chatUser: ChatUserEvent;
  chatOf: ChatOfEvent;
  ticket: TicketEvent;
  appMessage: AppMessageEvent;
  company: CompanySchedulesEvent;
  /** secondary §4 Checkout: a confirmed payment (CONCLUIDA) and the company's new due date. */
  payment: PaymentEventPayload;
  tag: TagEvent;
};
export type SocketChannel = keyof SocketPayloads;
