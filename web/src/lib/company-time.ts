import { useSyncExternalStore } from "react";

/*
 * Every date and hour the web shows or takes, in ONE zone: the company's (the session's
 * company.timeZone, America/Noronha unless Settings → Horarios sets another), whatever the browser's
 * own zone (issue 40: the schedules list said 01:11 where the chat said 03:11). Formats are the spec's
 * in every language: DD/MM/YYYY, HH:mm, DD/MM/YYYY HH:mm (core §1). No date library: one cached
 * Intl.DateTimeFormat per zone gives the wall-clock parts.
 *
 * Values: an ISO instant (with Z or an offset), epoch milliseconds or a Date are that instant; a bare
 * date ("YYYY-MM-DD", a due date) is a calendar day, shown as it is; a date and time without a zone
 * is read as the company's wall time.
 */

export type DateInput = string | number | Date | null | undefined;

type Parts = { year: string; month: string; day: string; hour: string; minute: string; second: string };

/**
 * contracts' DEFAULT_TIME_ZONE (the test holds them equal), written out: importing it drew the
 * contracts' schemas into the first screen's chunks (+25 KB compressed), for a value the session
 * replaces before any date is drawn.
 */
const DEFAULT_TIME_ZONE = "America/Noronha";

let zone: string = DEFAULT_TIME_ZONE;
const listeners = new Set<() => void>();
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

function isZone(value: string): boolean {
  try {
    formatterOf(value);
    return true;
  } catch {
    return false;
  }
}

/** The zone the web shows times in; set from the session (login, refresh, a zone saved in Horarios). */
export function setCompanyZone(next: string | null | undefined): void {
  const wanted = next && isZone(next) ? next : DEFAULT_TIME_ZONE;
  if (wanted === zone) return;
  zone = wanted;
  for (const listener of listeners) listener();
}

export function companyZone(): string {
  return zone;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The company's zone for a component that must draw again when it changes (forms, the zone hint). */
export function useCompanyZone(): string {
  return useSyncExternalStore(subscribe, companyZone, companyZone);
}

export function browserZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function partsIn(at: Date, timeZone: string): Parts {
  const parts = formatterOf(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

const two = (n: number) => String(n).padStart(2, "0");

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetMinutes(at: Date, timeZone: string = zone): number {
  const p = partsIn(at, timeZone);
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** "UTC−2", "UTC+5:30", "UTC": how far the zone is from UTC now, for the hints beside the times. */
export function formatOffset(timeZone: string = zone, at: Date = new Date()): string {
  const offset = offsetMinutes(at, timeZone);
  if (offset === 0) return "UTC";
  const abs = Math.abs(offset);
  const minutes = abs % 60 ? `:${two(abs % 60)}` : "";
  return `UTC${offset < 0 ? "\u2212" : "+"}${Math.floor(abs / 60)}${minutes}`;
}

/** Whether the browser's clock reads differently from the company's now (then the web says so). */
export function zoneDiffersFromBrowser(timeZone: string = zone, at: Date = new Date()): boolean {
  return offsetMinutes(at, timeZone) !== offsetMinutes(at, browserZone());
}

/** "YYYY-MM-DD" and "HH:mm" read in the zone, as an ISO instant with that zone's offset. */
export function zonedToIso(date: string, time: string, timeZone: string = zone): string {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  // twice: the offset in force at the wall time, not at the UTC reading of it
  let offset = offsetMinutes(new Date(asUtc), timeZone);
  offset = offsetMinutes(new Date(asUtc - offset * 60_000), timeZone);
  const abs = Math.abs(offset);
  return `${date}T${time}:00${offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** An instant as the date ("YYYY-MM-DD") and time ("HH:mm") it reads in the zone; empty for a bad one. */
export function isoToZoned(value: DateInput, timeZone: string = zone): { date: string; time: string } {
  const p = wallParts(value, timeZone);
  return p ? { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` } : { date: "", time: "" };
}

const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T\s](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** The wall-clock parts of a value in the zone, or null for a missing or bad one. */
function wallParts(value: DateInput, timeZone: string): Parts | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "string") {
    const bare = BARE_DATE.exec(value);
    if (bare) return { year: bare[1], month: bare[2], day: bare[3], hour: "00", minute: "00", second: "00" };
    const wall = WALL_TIME.exec(value);
    if (wall) return { year: wall[1], month: wall[2], day: wall[3], hour: wall[4], minute: wall[5], second: wall[6] ?? "00" };
  }
  const at = value instanceof Date ? value : new Date(value);
  return Number.isNaN(at.getTime()) ? null : partsIn(at, timeZone);
}

/** DD/MM/YYYY in the company's zone; "" for a missing or bad value. */
export function formatDate(value: DateInput): string {
  const p = wallParts(value, zone);
  return p ? `${p.day}/${p.month}/${p.year}` : "";
}

/** HH:mm in the company's zone. */
export function formatTime(value: DateInput): string {
  const p = wallParts(value, zone);
  return p ? `${p.hour}:${p.minute}` : "";
}

/** DD/MM/YYYY HH:mm in the company's zone. */
export function formatDateTime(value: DateInput): string {
  const p = wallParts(value, zone);
  return p ? `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}` : "";
}

/** DD/MM/YY HH:mm, the connections table's "last update" (core §2). */
export function formatShortDateTime(value: DateInput): string {
  const p = wallParts(value, zone);
  return p ? `${p.day}/${p.month}/${p.year.slice(-2)} ${p.hour}:${p.minute}` : "";
}

/** "YYYYMMDD-HHmmss" in the company's zone, for file names (a recorded voice note). */
export function fileStamp(value: DateInput = Date.now()): string {
  const p = wallParts(value, zone);
  return p ? `${p.year}${p.month}${p.day}-${p.hour}${p.minute}${p.second}` : "";
}

/** The company's calendar day of a value, "YYYY-MM-DD"; "" for a missing or bad one. */
export function dayOf(value: DateInput): string {
  const p = wallParts(value, zone);
  return p ? `${p.year}-${p.month}-${p.day}` : "";
}

/** The company's today, "YYYY-MM-DD". */
export function today(now: DateInput = Date.now()): string {
  return dayOf(now);
}

export function sameDay(a: DateInput, b: DateInput): boolean {
  const day = dayOf(a);
  return day !== "" && day === dayOf(b);
}

const dayNumber = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;

/** Whole calendar days (the company's) from today to the value, negative once past; null for a bad one. */
export function daysFromToday(value: DateInput, now: DateInput = Date.now()): number | null {
  const day = dayOf(value);
  return day ? dayNumber(day) - dayNumber(today(now)) : null;
}

/** HH:mm for today's (the company's today), else DD/MM/YYYY: the tickets list (core §2). */
export function formatTimeOrDate(value: DateInput, now: DateInput = Date.now()): string {
  return daysFromToday(value, now) === 0 ? formatTime(value) : formatDate(value);
}

/** HH:mm for today's, else DD/MM/YYYY HH:mm: chat bubbles and search results. */
export function formatTimeOrDateTime(value: DateInput, now: DateInput = Date.now()): string {
  return daysFromToday(value, now) === 0 ? formatTime(value) : formatDateTime(value);
}

const weekdays = new Map<string, Intl.DateTimeFormat>();

/** The weekday's name in the language ("Martes"), of the value's day in the company's zone. */
export function weekdayName(value: DateInput, language: string): string {
  const day = dayOf(value);
  if (!day) return "";
  let fmt = weekdays.get(language);
  if (!fmt) {
    // the day is already the company's: read at noon UTC it is that same day everywhere
    fmt = new Intl.DateTimeFormat(language, { weekday: "long", timeZone: "UTC" });
    weekdays.set(language, fmt);
  }
  const name = fmt.format(new Date(`${day}T12:00:00Z`));
  return name.charAt(0).toUpperCase() + name.slice(1);
}
