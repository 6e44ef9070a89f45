import type { AccessEvents } from "./access.js";
import type { AnnouncementEvents } from "./announcements.js";
import type { ChatEvents } from "./chats.js";
import type { InboundEvents } from "./inbound.js";
import type { PaymentEvents } from "./payments.js";
import type { RecordEvents } from "./records.js";
import type { TicketEvents } from "./tickets.js";

/**
 * Every domain event by name, with what it carries. Publishers (services, the pipeline, jobs) describe
 * what happened; listeners decide what follows (a socket event, a job row, the bot's turn). An event
 * carries what its listeners need already presented (views, the users who may see them), read in the
 * publisher's transaction, so listeners in the lower layers (realtime/) never reach into modules.
 * Areas add their events in their own file here.
 */
export interface DomainEvents
  extends TicketEvents,
    RecordEvents,
    AccessEvents,
    InboundEvents,
    ChatEvents,
    AnnouncementEvents,
    PaymentEvents {}

export type EventName = keyof DomainEvents;
/** One event: its name in `type`, and what it carries. */
export type DomainEvent<K extends EventName = EventName> = { [P in K]: { type: P } & DomainEvents[P] }[K];
