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

/*
 * Loose optional values. The web clients of the product family send an optional value in whichever
 * form their form library left it: a switch as `true`, `1` or `"true"` (`"on"` from a plain form), a
 * cleared select as `null`, `""` or `false`, an untouched text as `""` or `null`. The helpers below accept those forms for
 * every route in one place, so a value that means "none" is never refused as invalid.
 */

const isNone = (v: unknown) => v === null || v === "" || v === false || v === "null" || v === "false";
// "on"/"off": what an HTML checkbox posts in a form (a multipart message's `sign`)
const truthy = new Set<unknown>([true, 1, "true", "1", "on"]);
const falsy = new Set<unknown>([false, 0, "false", "0", "off"]);

type LooseBoolIn = boolean | number | string | null;
const boolOf = (fallback: boolean | undefined) => (v: LooseBoolIn) =>
  v === null || v === "" ? fallback : truthy.has(v) ? true : falsy.has(v) ? false : v;

/** An optional boolean: `true/false`, `1/0` and their strings, `on/off`; `null` or `""` is absent. */
export const looseBool = () => z.preprocess(boolOf(undefined), z.boolean({ error: V.invalid }).optional()).optional();

/** The same with a value for absent, `null` and `""`. */
export const looseBoolOr = (fallback: boolean) =>
  z.preprocess(boolOf(fallback), z.boolean({ error: V.invalid })).default(fallback);

type LooseIdIn = number | string | boolean | null;
// `true` is no id (coercion would read it as 1)
const idOf = (v: LooseIdIn) => (isNone(v) ? null : v === true ? Number.NaN : v);

/**
 * An optional id that may be cleared: a positive integer (number or numeric string), or "none" as
 * `null`, `""`, `false` (and `"null"`, `"false"` in a query), read as `null`. Absent stays absent.
 */
export const looseId = () => z.preprocess(idOf, IdSchema.nullable()).optional();

/** The same, absent read as `null` too. */
export const looseIdOrNull = () => z.preprocess(idOf, IdSchema.nullable()).default(null);

const emptyText = (v: unknown) => v === null || (typeof v === "string" && v.trim() === "");

/**
 * An optional text whose empty form means absent: `""`, blank or `null` is not given, so the field's
 * own rules (an email, a colour, a date) apply only to a real value. With `fallback`, absent and
 * empty read as it.
 */
export const looseText = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v: z.input<S> | null) => (emptyText(v) ? undefined : v), schema.optional()).optional();

export const looseTextOr = <S extends z.ZodType>(schema: S, fallback: z.output<S> & z.input<S>) =>
  z.preprocess((v: z.input<S> | null) => (emptyText(v) ? fallback : v), schema).default(fallback as never);
