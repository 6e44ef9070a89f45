import dayjs from "dayjs";
import "dayjs/locale/es-mx";
import "dayjs/locale/pt-br";

/** core §1: es-MX unless the interface is Portuguese (pt-BR) or English. */
const dayjsLocales: Record<string, string> = { es: "es-mx", pt: "pt-br", en: "en" };

export const DATE_FORMAT = "DD/MM/YYYY";
export const DATE_TIME_FORMAT = "DD/MM/YYYY HH:mm";

type DateInput = string | number | Date | null | undefined;

export function applyDateLocale(language: string): void {
  dayjs.locale(dayjsLocales[language.slice(0, 2)] ?? dayjsLocales.es);
}

function format(value: DateInput, pattern: string): string {
  if (value === null || value === undefined || value === "") return "";
  const date = dayjs(value);
  return date.isValid() ? date.format(pattern) : "";
}

export function formatDate(value: DateInput): string {
  return format(value, DATE_FORMAT);
}

export function formatDateTime(value: DateInput): string {
  return format(value, DATE_TIME_FORMAT);
}

/** Whole calendar days from today to `value` (negative once past); null for a missing or bad date. */
export function daysFromToday(value: DateInput): number | null {
  if (value === null || value === undefined || value === "") return null;
  const date = dayjs(value);
  if (!date.isValid()) return null;
  return date.startOf("day").diff(dayjs().startOf("day"), "day");
}
