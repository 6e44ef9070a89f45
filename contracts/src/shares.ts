import { z } from "zod";
import { text, V } from "./common.js";
import { normalizeNumber } from "./numbers.js";

/**
 * Locations and contact cards, both ways: what a phone shares with Charla (the simulator's customer,
 * a real phone through a driver) and what an agent sends. Stored as text in the message body, in the
 * formats of core §2, so any reader of a message (list, quote, export) needs no second column.
 */

export const SharedLocation = z.object({
  latitude: z.number({ error: V.invalid }).min(-90, V.invalid).max(90, V.invalid),
  longitude: z.number({ error: V.invalid }).min(-180, V.invalid).max(180, V.invalid),
  description: text().trim().max(300, V.tooLong).optional(),
});
export type SharedLocation = z.output<typeof SharedLocation>;

export const ContactCard = z.object({
  name: text({ error: V.required }).trim().min(1, V.required).max(100, V.tooLong),
  number: text({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(30, V.tooLong)
    .refine((raw) => /^\+?[\d\s().-]+$/.test(raw) && normalizeNumber(raw).length >= 3, V.invalid),
});
export type ContactCard = z.output<typeof ContactCard>;

export const mapsLink = (latitude: number, longitude: number) => `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`;

/** core §2: `imageUrl|mapsLink|description`; `image` a data URL of the thumbnail when there is one. */
export function locationBody(location: SharedLocation, image = ""): string {
  return `${image}|${mapsLink(location.latitude, location.longitude)}|${location.description ?? ""}`;
}

/** The coordinates and description back from a location body; null when its link carries none. */
export function locationOfBody(body: string): SharedLocation | null {
  const [, link = "", ...rest] = body.split("|");
  const match = /[?&]q=(-?\d+(?:\.\d+)?)(?:,|%2C)(-?\d+(?:\.\d+)?)/i.exec(link);
  if (!match) return null;
  const description = rest.join("|").trim();
  return { latitude: Number(match[1]), longitude: Number(match[2]), ...(description ? { description } : {}) };
}

/** A vCard 3.0 for a card; line breaks and separators in the name would forge fields. */
export function vcardBody(card: ContactCard): string {
  const name = card.name.replace(/[\r\n;\\]/g, " ").trim();
  const digits = normalizeNumber(card.number);
  return [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:;${name};;;`,
    `FN:${name}`,
    `TEL;type=CELL;waid=${digits}:+${digits}`,
    "END:VCARD",
  ].join("\n");
}

/** The first name and phone number of a vCard body; empty strings for what it does not say. */
export function parseVcard(body: string): { name: string; number: string } {
  const lines = body.split(/\r?\n/);
  const field = (prefix: RegExp) => lines.find((line) => prefix.test(line));
  const fn = field(/^FN[:;]/i)?.replace(/^FN[^:]*:/i, "");
  const n = field(/^N[:;]/i)
    ?.replace(/^N[^:]*:/i, "")
    .split(";")
    .filter(Boolean)
    .reverse()
    .join(" ");
  const tel = field(/^(item\d+\.)?TEL/i);
  const waid = tel ? /waid=(\d+)/i.exec(tel)?.[1] : undefined;
  const number = waid ?? tel?.replace(/^[^:]*:/, "").trim() ?? "";
  return { name: (fn || n || "").trim(), number };
}
