import { SimulatorInboundForm, V } from "@charla/contracts";
import { z } from "zod";

/**
 * The customer and the text box: the contract's own fields, with an empty number reading "required"
 * rather than "invalid". Everything else a message can carry is added when it is sent.
 */
export const CustomerMessageSchema = SimulatorInboundForm.pick({ name: true, body: true }).extend({
  number: z.string().trim().min(1, V.required).pipe(SimulatorInboundForm.shape.number),
});
export type CustomerMessageValues = z.input<typeof CustomerMessageSchema>;
export type CustomerMessageOutput = z.output<typeof CustomerMessageSchema>;

export const emptyCustomerMessage: CustomerMessageValues = { number: "", name: "", body: "" };

/** Files above this are refused before reading them (the API takes about 9 MB once decoded). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type FileMediaType = "image" | "audio" | "video" | "application";

export function mediaTypeOfMime(mimetype: string): FileMediaType {
  const kind = mimetype.split("/")[0];
  return kind === "image" || kind === "audio" || kind === "video" ? kind : "application";
}

/** The file as plain base64 (no `data:…;base64,` prefix), as the API expects. */
export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = String(reader.result ?? "");
      resolve(result.slice(result.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}

const coordinate = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(1, V.required)
    .refine((value) => {
      const n = toCoordinate(value);
      return Number.isFinite(n) && n >= min && n <= max;
    }, V.invalid);

/** A typed coordinate ("19.43" or "19,43") as a number; NaN when it is none. */
export const toCoordinate = (value: string) => (value.trim() === "" ? Number.NaN : Number(value.trim().replace(",", ".")));

/** The location dialog types text (converted with `toCoordinate` when sent). */
export const LocationSchema = z.object({
  latitude: coordinate(-90, 90),
  longitude: coordinate(-180, 180),
  description: z.string().trim().max(300, V.tooLong),
});
export type LocationValues = z.input<typeof LocationSchema>;
export type SharedLocation = { latitude: number; longitude: number; description?: string };

/** A contact card, as the contract takes it, with readable messages for the empty fields. */
export const VcardSchema = z.object({
  name: z.string().trim().min(1, V.required).max(100, V.tooLong),
  number: z.string().trim().min(1, V.required).min(3, V.tooShort).max(30, V.tooLong),
});
export type VcardValues = z.input<typeof VcardSchema>;

/** Only web links become `href`s: a body is contact-controlled text. */
export function safeHref(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

export const mapsUrl = (latitude: number, longitude: number) => `https://maps.google.com/maps?q=${latitude},${longitude}&z=17`;

/** core §2: a location body is "image|link|description". */
export function parseLocationBody(body: string): { link: string | null; description: string } {
  const [, link, ...rest] = body.split("|");
  return { link: safeHref(link), description: rest.join("|") };
}

/** The name and first number of a vCard body, for a readable card. */
export function parseVcardBody(body: string): { name: string; number: string } {
  const lines = body.split(/\r?\n/);
  const name = lines.find((line) => line.startsWith("FN:"))?.slice(3) ?? "";
  const tel = lines.find((line) => line.startsWith("TEL"));
  const number = tel ? tel.slice(tel.lastIndexOf(":") + 1) : "";
  return { name, number };
}
