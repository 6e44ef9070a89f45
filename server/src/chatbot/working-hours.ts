import type { ScheduleEntry, WeekdayEn } from "@charla/contracts";

/**
 * Working hours (behaviours: Working hours): a week of {weekdayEn, startTime, endTime} read in the
 * schedule's own zone, never the server's or the database's. 00:00–00:00 and a missing day are closed.
 * Times are compared as the zone's wall clock in minutes since 1970-01-01 00:00 of that zone, so a
 * day's opening and closing need no conversion back to an instant.
 */

type Schedule = readonly Pick<ScheduleEntry, "weekdayEn" | "startTime" | "endTime">[];

const BY_UTC_DAY: WeekdayEn[] = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const DAY = 24 * 60;
/** How far back a closing is looked for; a week with no opening at all is one long closed period. */
const LOOK_BACK_DAYS = 8;

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: string) {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(zone, f);
  }
  return f;
}

/** The zone's wall clock at `at`, in minutes since 1970-01-01 00:00 of that zone. */
export function wallMinutes(at: Date, zone: string): number {
  const parts = formatIn(zone).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(n("year"), n("month") - 1, n("day")) / 60_000 + (n("hour") % 24) * 60 + n("minute");
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
};

/** The day's open stretch in minutes of the day, or null when the day is closed. 23:59 runs to midnight. */
function openStretch(schedule: Schedule, weekday: WeekdayEn): { start: number; end: number } | null {
  const entry = schedule.find((e) => e.weekdayEn === weekday);
  if (!entry || (entry.startTime === "00:00" && entry.endTime === "00:00")) return null;
  const start = minutesOf(entry.startTime);
  const end = entry.endTime === "23:59" ? DAY : minutesOf(entry.endTime);
  return end > start ? { start, end } : null;
}

const weekdayOf = (wall: number) => BY_UTC_DAY[new Date(Math.floor(wall / DAY) * DAY * 60_000).getUTCDay()];

/** Whether the schedule is open at `now` in `zone`. */
export function isOpen(schedule: Schedule, zone: string, now: Date): boolean {
  const wall = wallMinutes(now, zone);
  const stretch = openStretch(schedule, weekdayOf(wall));
  const minute = wall % DAY;
  return stretch !== null && minute >= stretch.start && minute < stretch.end;
}

/** When (zone wall minutes) the schedule last closed at or before `now`; null when it was not open in the last week. */
export function lastClosing(schedule: Schedule, zone: string, now: Date): number | null {
  const wall = wallMinutes(now, zone);
  const today = Math.floor(wall / DAY) * DAY;
  for (let back = 0; back <= LOOK_BACK_DAYS; back++) {
    const day = today - back * DAY;
    const stretch = openStretch(schedule, weekdayOf(day));
    if (stretch && day + stretch.end <= wall) return day + stretch.end;
  }
  return null;
}

/**
 * Whether the out-of-hours message is due: once per ticket per closed period, i.e. unless the last
 * notice was sent after the schedule last closed. A schedule closed all week is one period, noticed
 * again after a week.
 */
export function outOfHoursNoticeDue(schedule: Schedule, zone: string, now: Date, lastNotice: Date | null): boolean {
  if (!lastNotice) return true;
  const closedAt = lastClosing(schedule, zone, now);
  if (closedAt === null) return now.getTime() - lastNotice.getTime() > 7 * DAY * 60_000;
  return wallMinutes(lastNotice, zone) < closedAt;
}
