import type { TicketView } from "@charla/contracts";
import type { InboundMessage } from "../channels/driver.js";

/** What the inbound door and the automatic messages tell the areas that react to them. */
export type InboundEvents = {
  /**
   * A customer's (or the phone's own) message stored for the first time, after its commit and its
   * `message.created`: the bot, campaign confirmations and the profile picture listen. A replayed event
   * is never published again. `msg` comes without its media bytes (stored already, not kept in memory).
   */
  "message.received": {
    companyId: number;
    whatsappId: number;
    ticketId: number;
    messageId: number;
    msg: Omit<InboundMessage, "media">;
    /** The ticket as just presented, so a listener can tell without a query that it has nothing to do. */
    ticket: TicketView;
  };
  /**
   * Automatic messages recorded with the change that caused them, and their delivery job
   * (`message.deliver`): the job is run at once after the commit, in the ticket's order.
   */
  "automatic.queued": { companyId: number; ticketId: number; jobId: number };
  /**
   * A received message whose bot turn never ran (the process died between its commit and the turn),
   * found by the owed-turn sweep (jobs/bot-turns.ts): the bot takes it on the ticket's lane, as if live.
   */
  "chatbot.turn-owed": { companyId: number; ticketId: number; messageId: number; body: string };
};
