import type { Theme } from "@mui/material/styles";
import { formatTimeOrDate } from "../../lib/company-time";

/** core §2: the list shows HH:mm for today's activity, else the day as DD/MM/YYYY (the company's clock). */
export const listTime = (value: string): string => formatTimeOrDate(value);

/** The last message on one line: line breaks and runs of spaces become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Readable text on a queue's or tag's colour; colours the theme cannot parse fall back to neutral. */
export function tagColors(theme: Theme, color: string | null | undefined): { bg: string; fg: string } {
  const neutral = { bg: theme.palette.action.selected, fg: theme.palette.text.primary };
  if (!color) return neutral;
  try {
    return { bg: color, fg: theme.palette.getContrastText(color) };
  } catch {
    return neutral;
  }
}

/** The contact's name, or the number when it has none. */
export function contactLabel(contact: { name: string; number: string }): string {
  return contact.name.trim() || contact.number;
}
