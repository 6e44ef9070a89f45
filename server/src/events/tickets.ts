import type { MessageView, TicketView } from "@charla/contracts";

/** Tickets and their messages; `audience` is the users the ticket policy lets see the ticket now. */
export type TicketEvents = {
  /** A message stored in a ticket (received, or sent by an agent, the bot or a rule). */
  "message.created": { companyId: number; ticketId: number; message: MessageView; ticket: TicketView; audience: number[] };
  /** A stored message changed (ack, edit, deletion). */
  "message.changed": { companyId: number; message: MessageView; ticket: TicketView; audience: number[] };
  /** A ticket changed: `audience` may see it now, `lost` could see it before and no longer can. */
  "ticket.changed": { companyId: number; ticket: TicketView; audience: number[]; lost: number[] };
  /** A ticket handed to another agent (published beside its `ticket.changed`): that agent is told. */
  "ticket.transferred": { companyId: number; ticket: TicketView; toUserId: number };
  /** A ticket gone (deleted, or merged into another one): `audience` could see it. */
  "ticket.deleted": { companyId: number; ticketId: number; audience: number[] };
  /** A ticket's messages were read: its unread counter is zero. */
  "ticket.read": { companyId: number; ticketId: number; audience: number[] };
};
