import { z } from "zod";
import { Limits } from "./limits.js";
import { isStorableText, V } from "./text-rules.js";

export { isStorableText, storableText, V } from "./text-rules.js";

/**
 * Every string of a form, query or path: `z.string` that refuses what PostgreSQL cannot store, so a
 * NUL answers 400 ERR_VALIDATION instead of reaching the database. Chain `.trim()`, `.max()` as usual.
 */
export const text = (params?: Parameters<typeof z.string>[0]) => z.string(params).refine(isStorableText, V.invalidText);

/** A required name of 2 to 50 characters, with the words its form uses when it is too short or long. */
export const boundedName = (tooShort: string, tooLong: string) =>
  text({ error: V.required }).trim().min(1, V.required).min(Limits.name.min, tooShort).max(Limits.name.max, tooLong);

export const requiredName = boundedName(V.tooShort, V.tooLong);

export const emailField = text({ error: V.required })
  .trim()
  .toLowerCase()
  .min(1, V.required)
  .max(Limits.email.max, V.tooLong)
  .pipe(z.email({ error: V.invalidEmail }));

/** An id in a path or a body: a positive integer, given as number or numeric string. */
export const IdSchema = z.coerce.number({ error: V.invalid }).int(V.invalid).positive(V.invalid).max(2_147_483_647, V.invalid);
export const IdParams = z.object({ id: IdSchema });

/**
 * A list's `searchParam`: a search begins at 3 characters (core §4, §9). Fewer is no search at all,
 * as the screens treat it, so one typed letter never makes the server scan a whole table.
 */
export const SearchParam = text()
  .trim()
  .max(200)
  .optional()
  .default("")
  .transform((s) => (Array.from(s).length < Limits.searchMin ? "" : s));

export const PageQuery = z.object({
  searchParam: SearchParam,
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** ISO date (YYYY-MM-DD). */
export const DateOnly = text().regex(/^\d{4}-\d{2}-\d{2}$/, V.invalid);
