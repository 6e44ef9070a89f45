import { type BotWorld, NOTHING, type QueueRow, type Step, fill } from "./state.js";
import { isOpen, outOfHoursNoticeDue } from "./working-hours.js";

/**
 * Whether the bot must stay out of the conversation for the hours (behaviours: Working hours), and
 * its notice: scheduleType company reads the company's week, queue the ticket's queue's once it has
 * one, disabled is always open. Null: open, the bot goes on.
 */
export function outOfHours(w: BotWorld, queue: QueueRow | null): Step | null {
  if (w.scheduleType === "company") {
    if (isOpen(w.company.schedules, w.company.timeZone, w.now)) return null;
    return notice(w, w.company.schedules, w.company.timeZone, w.connection.outOfHoursMessage, queue);
  }
  if (w.scheduleType === "queue" && queue) {
    if (isOpen(queue.schedules, queue.timeZone, w.now)) return null;
    return notice(w, queue.schedules, queue.timeZone, queue.outOfHoursMessage || w.connection.outOfHoursMessage, queue);
  }
  return null;
}

/** The out-of-hours message, once per ticket per closed period (outOfHoursAt remembers the last one). */
function notice(w: BotWorld, schedule: QueueRow["schedules"], zone: string, message: string, queue: QueueRow | null): Step {
  if (!outOfHoursNoticeDue(schedule, zone, w.now, w.ticket.outOfHoursAt)) return NOTHING;
  return { patch: { outOfHoursAt: w.now }, texts: [fill(w, message, queue)] };
}
