/** Postgres error codes surfaced by both drivers (node-postgres and PGlite put them on `code`). */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === "string" ? e.code : typeof e?.cause?.code === "string" ? e.cause.code : undefined;
  return code && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function pgConstraint(err: unknown): string | undefined {
  const e = err as { constraint?: string; cause?: { constraint?: string } };
  return e?.constraint ?? e?.cause?.constraint;
}

export const PG_UNIQUE_VIOLATION = "23505";
export const PG_FK_VIOLATION = "23503";

/** Text the database cannot store in its encoding (a NUL byte, a character outside UTF-8). */
export const PG_TEXT_ENCODING = ["22021" /* character_not_in_repertoire */, "22P05" /* untranslatable_character */];
/** A statement cancelled by `statement_timeout` (or by an operator). */
export const PG_QUERY_CANCELED = "57014";

/** A database error the client caused or may retry, as a catalogue code; undefined for real faults. */
export function pgClientErrorCode(err: unknown): "ERR_INVALID_TEXT" | "ERR_QUERY_TIMEOUT" | undefined {
  const code = pgErrorCode(err);
  if (!code) {
    // PGlite and node-postgres refuse a NUL in a parameter before the server sees it, with no code
    const message = `${(err as Error)?.message ?? ""} ${(err as { cause?: Error })?.cause?.message ?? ""}`;
    return /invalid byte sequence|0x00|null character/i.test(message) ? "ERR_INVALID_TEXT" : undefined;
  }
  if (PG_TEXT_ENCODING.includes(code)) return "ERR_INVALID_TEXT";
  if (code === PG_QUERY_CANCELED) return "ERR_QUERY_TIMEOUT";
  return undefined;
}
