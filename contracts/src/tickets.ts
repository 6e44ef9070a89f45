import { z } from "zod";
import { DateOnly, IdSchema, looseText, SearchParam, V, text, looseBool, looseBoolOr, looseId } from "./common.js";
import type { ContactView } from "./contacts.js";
import type { ErrorCode } from "./errors.js";
import { Limits } from "./limits.js";
import { ContactCard, SharedLocation } from "./shares.js";
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
  /** WhatsApp's status scale, see `Ack` (docs/acks.md). */
  ack: number;
  /** Why the message failed (ack -1): a catalogue code; null otherwise. */
  ackError: ErrorCode | null;
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

/** A JSON array of ids in a query string (core §7: `queueIds` is JSON text), or a comma list. */
export const IdListParam = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .transform((raw, ctx) => {
    if (!raw) return undefined;
    let values: unknown;
    try {
      values = raw.startsWith("[") ? JSON.parse(raw) : raw.split(",");
    } catch {
      ctx.addIssue({ code: "custom", message: V.invalid });
      return z.NEVER;
    }
    const parsed = z.array(IdSchema).max(500).safeParse(values);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: V.invalid });
      return z.NEVER;
    }
    return parsed.data;
  });

const flag = looseBoolOr(false);

/** GET /tickets (core §7): every filter of the list and search tabs. */
export const TicketListQuery = z.object({
  searchParam: SearchParam,
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  status: z.enum(TicketStatuses).optional(),
  tags: IdListParam,
  users: IdListParam,
  queueIds: IdListParam,
  showAll: flag,
  withUnreadMessages: flag,
  date: looseText(DateOnly),
  updatedAt: looseText(DateOnly),
});
export type TicketListQuery = z.input<typeof TicketListQuery>;

export type TicketsPage = { tickets: TicketView[]; count: number; hasMore: boolean; userQueues: QueueRef[] };

/** New-ticket modal (core §4, §5): a contact; a queue unless the user is admin (checked by the API). */
export const TicketCreateForm = z.object({
  contactId: IdSchema,
  queueId: looseId(),
  whatsappId: looseId(),
  userId: looseId(),
  status: z.literal("open").optional().default("open"),
});
export type TicketCreateForm = z.input<typeof TicketCreateForm>;

/**
 * PUT /tickets/{id} (core §4): accept / return / resolve / reopen are status changes; a transfer sets
 * queueId (and optionally userId, whatsappId). Fields absent are left as they are.
 */
export const TicketUpdateForm = z.object({
  status: z.enum(TicketStatuses).optional(),
  userId: looseId(),
  queueId: looseId(),
  whatsappId: looseId(),
  useIntegration: looseBool(),
  promptId: looseId(),
  integrationId: looseId(),
  /** The status the screen showed: a ticket that moved meanwhile answers 409 ERR_TICKET_STATUS_CHANGED. */
  expectedStatus: z.enum(TicketStatuses).optional(),
});
export type TicketUpdateForm = z.input<typeof TicketUpdateForm>;

/** ERR_OTHER_OPEN_TICKET carries the ticket that is already open, so the modal can name or open it. */
export type OtherOpenTicketData = {
  ticketId: number;
  uuid: string;
  userId: number | null;
  userName: string | null;
  queueName: string | null;
};

export type ClosedTicketRecord = {
  id: number;
  finishedAt: string;
  ticket: TicketView;
  user: { id: number; name: string } | null;
};
export type ClosedTicketsPage = { tickets: ClosedTicketRecord[]; hasMore: boolean };

/** Live ticket events (`company-{id}-ticket`). */
export type TicketEvent =
  | { action: "update"; ticket: TicketView }
  | { action: "delete"; ticketId: number }
  | { action: "updateUnread"; ticketId: number }
  | { action: "transfer"; ticket: TicketView; toUserId: number | null };

/** Live message events (`company-{id}-appMessage`). */
export type AppMessageEvent = { action: "create" | "update"; message: MessageView; ticket: TicketView };

export type MessagesPage = { messages: MessageView[]; ticket: TicketView; count: number; hasMore: boolean };

/** POST /messages/{ticketId} as JSON; multipart sends `medias` files and the same fields as text. */
export const MessageSendForm = z
  .object({
    body: text().max(Limits.messageBody.max, V.tooLong).optional().default(""),
    quotedMsg: z.object({ id: IdSchema }).nullable().optional(),
    /** Admins' sign option (core §5): prefixes the text with the user's name in bold. */
    sign: looseBoolOr(false),
    read: looseBool(),
    fromMe: looseBool(),
    mediaUrl: text().max(500).optional(),
    /**
     * The sender's own id for this message (idempotency key, e.g. a UUID): repeating the request with
     * it returns the message already recorded instead of sending it twice; a failed one is sent again.
     */
    clientId: text()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, V.invalid)
      .optional(),
    /** A location instead of text (JSON only): the body is ignored, the description goes with the pin. */
    location: SharedLocation.optional(),
    /** A contact card instead of text (JSON only). */
    contact: ContactCard.optional(),
  })
  .refine((form) => !(form.location && form.contact), { path: ["contact"], message: V.invalid });
export type MessageSendForm = z.input<typeof MessageSendForm>;

/** POST /messages/{ticketId}/typing: the contact's phone shows "typing…" while an agent writes the answer. */
export const TypingForm = z.object({ typing: z.boolean({ error: V.invalid }) });
export type TypingForm = z.input<typeof TypingForm>;

export const MessagesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** Ticket note (core §5): at least 2 characters. */
export const TicketNoteForm = z.object({
  note: z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .min(Limits.note.min, V.tooShort)
    .max(Limits.note.max, V.tooLong),
  ticketId: IdSchema,
  contactId: IdSchema,
});
export type TicketNoteForm = z.input<typeof TicketNoteForm>;

export const TicketNoteListQuery = z.object({ ticketId: IdSchema.optional(), contactId: IdSchema });

export type TicketNoteView = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  user: { id: number; name: string } | null;
  createdAt: string;
};

/** POST /tags/sync: the complete set of tags of a ticket. */
export const TagsSyncForm = z.object({
  ticketId: IdSchema,
  tags: z.array(z.object({ id: IdSchema })).max(100),
});
export type TagsSyncForm = z.input<typeof TagsSyncForm>;

/**
 * Tag form (core §5): name at least 3 characters (Obligatorio / Mensaje muy corto). core §7 creates a
 * tag with its name alone: without a colour (absent, `""`, `null`) the server picks one.
 */
export const TagForm = z.object({
  name: z
    .string({ error: V.mandatory })
    .trim()
    .min(1, V.mandatory)
    .min(Limits.tagName.min, V.shortMessage)
    .max(Limits.tagName.max, V.tooLong),
  color: looseText(
    text()
      .trim()
      .regex(/^#[0-9a-fA-F]{3,8}$/, V.invalid),
  ),
  kanban: z
    .union([z.literal(0), z.literal(1)])
    .optional()
    .default(0),
});
export type TagForm = z.input<typeof TagForm>;

export type TagView = TagRef & { kanban: number; ticketsCount: number; userId: number | null };
/** `user` (core §4: the tags' channel). */
export type TagEvent = { action: "create" | "update"; tag: TagView } | { action: "delete"; tagId: number };
export type TagsPage = { tags: TagView[]; count: number; hasMore: boolean };
