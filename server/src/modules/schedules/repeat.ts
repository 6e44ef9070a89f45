import type { ScheduleRepeatName } from "@charla/contracts";

/** A wall-clock time in a zone: the fields a person typed, read back from an instant. */
type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number };

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function wallOf(at: Date, zone: string): Wall {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return {
    year: Number(get("year")),
    month: Number(get("month")),
    day: Number(get("day")),
    hour: Number(get("hour")),
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday: WEEKDAYS.indexOf(get("weekday")),
  };
}

/**
 * The instant a wall-clock time names in `zone`: the UTC reading corrected by the zone's offset, twice,
 * so a time next to a daylight-saving change lands on the offset in force then.
 */
function instantOf(w: Omit<Wall, "weekday">, zone: string): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = wallOf(new Date(guess), zone);
    const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
    guess = asUtc - (seenUtc - guess);
  }
  return new Date(guess);
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `w` moved by whole days on the calendar (the time of day kept). */
function addDays(w: Wall, n: number): Wall {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + n));
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}

/** The month after `w`'s on `anchorDay`, or that month's last day when it is shorter (31 → 30, 28 or 29). */
function nextMonth(w: Wall, anchorDay: number): Wall {
  const month = w.month === 12 ? 1 : w.month + 1;
  const year = w.month === 12 ? w.year + 1 : w.year;
  return { ...w, year, month, day: Math.min(anchorDay, daysIn(year, month)) };
}

export type RepeatRule = {
  repeat: ScheduleRepeatName;
  /** Weekly: 0 Sunday … 6 Saturday. */
  repeatDays: number[];
  zone: string;
  /** Monthly: the day of the month the series began on, so a 31st clamped to the 30th goes back to the 31st. */
  anchorDay?: number;
};

/**
 * The next occurrence after one due at `sendAt`, at the same wall-clock time in the schedule's zone:
 * the first one after both `sendAt` and `notBefore` (a series sent late after downtime goes on from
 * now, not with a burst of the occurrences it missed). null when the schedule does not repeat.
 */
export function nextOccurrence(sendAt: Date, rule: RepeatRule, notBefore: Date): Date | null {
  if (rule.repeat === "none") return null;
  if (rule.repeat === "weekly" && rule.repeatDays.length === 0) return null;
  let w = wallOf(sendAt, rule.zone);
  const anchor = rule.anchorDay ?? w.day;
  // at most a few years of steps: a daily series resumed after a long downtime still ends quickly
  for (let i = 0; i < 5000; i++) {
    w = rule.repeat === "monthly" ? nextMonth(w, anchor) : addDays(w, 1);
    if (rule.repeat === "weekly" && !rule.repeatDays.includes(w.weekday)) continue;
    // the wall clock reads whole seconds; the milliseconds are the same in every zone
    const at = new Date(instantOf(w, rule.zone).getTime() + sendAt.getUTCMilliseconds());
    if (at.getTime() > sendAt.getTime() && at.getTime() > notBefore.getTime()) return at;
  }
  return null;
}

/** The day of the month `at` falls on in `zone` (a monthly series' anchor). */
export const dayOfMonthIn = (at: Date, zone: string): number => wallOf(at, zone).day;
