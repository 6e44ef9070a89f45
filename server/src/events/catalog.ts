import type { MessageView, TicketView } from "@charla/contracts";

/**
 * Every domain event by name, with what it carries. Publishers (services, the pipeline, jobs) describe
 * what happened; listeners decide what follows (a socket event, a job row, the bot's turn). An event
 * carries what its listeners need already presented (views, the users who may see them), read in the
 * publisher's transaction, so listeners in the lower layers (realtime/) never reach into modules.
 * Areas add their events here.
 */
export interface DomainEvents {
  /** A message stored in a ticket (received, or sent by an agent, the bot or a rule). */
  "message.created": { companyId: number; ticketId: number; message: MessageView; ticket: TicketView; audience: number[] };
  /** A stored message changed (ack, edit, deletion). */
  "message.changed": { companyId: number; message: MessageView; ticket: TicketView; audience: number[] };
  /** A ticket changed: `audience` may see it now, `lost` could see it before and no longer can. */
  "ticket.changed": { companyId: number; ticket: TicketView; audience: number[]; lost: number[] };
}

export type EventName = keyof DomainEvents;
/** One event: its name in `type`, and what it carries. */
export type DomainEvent<K extends EventName = EventName> = { [P in K]: { type: P } & DomainEvents[P] }[K];
