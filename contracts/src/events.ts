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
  /** secondary §7: contact lists, and their items company-wide and per list. */
  contactList: (companyId: number) => `company-${companyId}-ContactList`,
  contactListItem: (companyId: number) => `company-${companyId}-ContactListItem`,
  contactListItemsOf: (companyId: number, listId: number) => `company-${companyId}-ContactListItem-${listId}`,
  /** secondary §7: campaigns (the list and the report follow it). */
  campaign: (companyId: number) => `company-${companyId}-campaign`,
  /** secondary §7: file lists. */
  file: (companyId: number) => `company-${companyId}-file`,
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
