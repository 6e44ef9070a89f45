import type { ChannelEvents } from "./driver.js";

/** One running session as the inbox sees it: whose it is, and what only the session registry knows. */
export type InboxSession = {
  companyId: number;
  whatsappId: number;
  /** An ack that found no row: the send writing that row takes it (Sessions.takeEarlyAck). */
  rememberEarlyAck(channelId: string, ack: number): void;
  /** False while this process closes or hands the session to another: its last words must not change the row. */
  speaks(): boolean;
};

/**
 * The one door every driver's events come in by (today's session drivers, tomorrow's webhook driver):
 * pipeline/channel-inbox.ts implements it, Sessions is given it, so channels/ reaches nothing above it.
 */
export type ChannelInbox = (session: InboxSession) => ChannelEvents;
