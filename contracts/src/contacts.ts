import { z } from "zod";
import { V, emailField, requiredName, text, looseTextOr } from "./common.js";
import { Limits } from "./limits.js";
import { normalizeNumber } from "./numbers.js";

const number = z
  .string()
  .trim()
  .transform(normalizeNumber)
  .pipe(z.union([z.literal(""), text().min(Limits.contactNumber.min, V.tooShort).max(Limits.contactNumber.max, V.tooLong)]));

export const ExtraInfoItem = z.object({
  name: text().trim().min(1, V.required).max(100, V.tooLong),
  value: text().trim().max(1000, V.tooLong),
});

/** Contact modal (core §5): name 2–50, number optional 8–50 digits, email valid when given. */
export const ContactForm = z.object({
  name: requiredName,
  number: looseTextOr(number, ""),
  email: looseTextOr(z.union([z.literal(""), emailField]), ""),
  extraInfo: z.array(ExtraInfoItem).max(50).optional().default([]),
});
export type ContactForm = z.input<typeof ContactForm>;

export type ExtraInfo = z.infer<typeof ExtraInfoItem>;

export type ContactView = {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  extraInfo: ExtraInfo[];
  whatsapp: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
};

export type ContactsPage = { contacts: ContactView[]; count: number; hasMore: boolean };
