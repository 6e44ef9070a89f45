import { z } from "zod";
import { Limits } from "./limits.js";

/** Validation messages are i18n keys (namespace `validation`); the web translates, the API returns them. */
export const V = {
  required: "validation.required",
  tooShort: "validation.tooShort",
  tooLong: "validation.tooLong",
  invalidEmail: "validation.invalidEmail",
  invalid: "validation.invalid",
  /** New ticket without a queue (core §5: Selecione un Area). */
  queueRequired: "validation.queueRequired",
  /** Blank message text with no file. */
  emptyMessage: "validation.emptyMessage",
} as const;

// Every message zod produces is an i18n key, also where a schema sets none (missing body, bad query).
z.config({
  customError: (issue) => (issue.code === "invalid_type" && issue.input === undefined ? V.required : V.invalid),
});

export const requiredName = z
  .string({ error: V.required })
  .trim()
  .min(1, V.required)
  .min(Limits.name.min, V.tooShort)
  .max(Limits.name.max, V.tooLong);

export const emailField = z
  .string({ error: V.required })
  .trim()
  .toLowerCase()
  .min(1, V.required)
  .max(Limits.email.max, V.tooLong)
  .pipe(z.email({ error: V.invalidEmail }));

/** An id in a path or a body: a positive integer, given as number or numeric string. */
export const IdSchema = z.coerce.number({ error: V.invalid }).int(V.invalid).positive(V.invalid).max(2_147_483_647, V.invalid);
export const IdParams = z.object({ id: IdSchema });

export const PageQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** ISO date (YYYY-MM-DD). */
export const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, V.invalid);
