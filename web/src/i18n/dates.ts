/*
 * The interface's dates, DD/MM/YYYY and DD/MM/YYYY HH:mm in every language (core §1), drawn without a
 * date library: the login page and the inbox's first rows need only these, so dayjs (lib/dayjs.ts)
 * comes with the screens that do more with dates. Values are read the way dayjs reads them: an ISO
 * instant (with Z or an offset) as that instant, a date or date-time without a zone as local time.
 */

type DateInput = string | number | Date | null | undefined;

// a date, or a date and time, without a zone: local time (dayjs's reading; Date would take a bare date as UTC)
const LOCAL = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** The value as a Date, or null for a missing or bad one. */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  let date: Date;
  const local = typeof value === "string" ? LOCAL.exec(value) : null;
  if (local) {
    const [, year, month, day, hours = "0", minutes = "0", seconds = "0", ms = "0"] = local;
    date = new Date(+year, +month - 1, +day, +hours, +minutes, +seconds, +ms.padEnd(3, "0"));
  } else {
    date = new Date(value);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

const two = (n: number) => String(n).padStart(2, "0");
const dayOf = (date: Date) => `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
const timeOf = (date: Date) => `${two(date.getHours())}:${two(date.getMinutes())}`;
const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return date ? dayOf(date) : "";
}

export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? `${dayOf(date)} ${timeOf(date)}` : "";
}

/** HH:mm of the value, "" for a missing or bad one. */
export function formatTime(value: DateInput): string {
  const date = toDate(value);
  return date ? timeOf(date) : "";
}

/** Whole calendar days from today to `value` (negative once past); null for a missing or bad date. */
export function daysFromToday(value: DateInput): number | null {
  const date = toDate(value);
  // rounded: a day across a daylight-saving change is 23 or 25 hours long
  return date ? Math.round((startOfDay(date) - startOfDay(new Date())) / 86_400_000) : null;
}
