import { parsePhoneNumberFromString } from "libphonenumber-js";

/** E.164 allows 15 digits at most; a WhatsApp number has its country code and at least 8 digits. */
const MIN_DIGITS = 8;
const MAX_DIGITS = 15;

/**
 * A number as typed in a spreadsheet or a form ("+55 (11) 98765-4321", "0054 9 11 …") as the digits
 * WhatsApp addresses it by, or null when it cannot be one: no known country code, or too short or long.
 * Numbers libphonenumber calls impossible but that carry a known country code are kept as typed: WhatsApp
 * still addresses Mexican mobiles as 521…, which the national plan no longer has; the background check
 * asks WhatsApp itself.
 */
export function normalizePhone(raw: string): string | null {
  let digits = raw.replace(/\D/g, "");
  if (!raw.trim().startsWith("+") && digits.startsWith("00")) digits = digits.slice(2);
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS) return null;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed) return null;
  return parsed.isPossible() ? parsed.number.slice(1) : digits;
}
