import { sendDueSchedules } from "../modules/schedules/sender.js";
import type { Sweep } from "./sweep.js";

/** Scheduled messages (behaviours: Schedules): due ones, and ones a dead node was sending, are sent. */
export const scheduleSends: Sweep = { name: "schedule-sends", batch: sendDueSchedules };
