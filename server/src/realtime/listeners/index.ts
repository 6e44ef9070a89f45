import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { accessPresenters } from "./access.js";
import { announcementPresenters } from "./announcements.js";
import { chatPresenters } from "./chats.js";
import { paymentPresenters } from "./payments.js";
import { recordPresenters } from "./records.js";
import { ticketPresenters } from "./tickets.js";

/**
 * The only place that puts events on the wire: one presenter per domain event, in `commit` phase so
 * the wire's order is the order things were committed in. Names and payloads are the spec's (core §7).
 */
export function registerRealtimeListeners(bus: EventBus, rt: Realtime): void {
  ticketPresenters(bus, rt);
  recordPresenters(bus, rt);
  accessPresenters(bus, rt);
  announcementPresenters(bus, rt);
  chatPresenters(bus, rt);
  paymentPresenters(bus, rt);
}
