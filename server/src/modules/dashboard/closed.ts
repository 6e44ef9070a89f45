import type { DashboardClosedPage } from "@charla/contracts";
import { and, gte, lt } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { ticketTracking } from "../../db/schema/index.js";
import { pageFinishedEpisodes } from "../tickets/finished-episodes.js";
import type { Period } from "./period.js";

/** The history table: episodes finished in the period, newest first, 20 a page, with ticket and closer. */
export function pageClosedTickets(q: Scoped, p: Period, pageNumber: number): Promise<DashboardClosedPage> {
  return pageFinishedEpisodes(q, and(gte(ticketTracking.finishedAt, p.start), lt(ticketTracking.finishedAt, p.end)), pageNumber);
}
