import { config } from "zod/mini";

/*
 * The rules every schema's strings share, apart from the schemas themselves: a module without
 * zod's full API, so a bundle that needs only these (the web's login page) does not carry it.
 */

/** Validation messages are i18n keys (namespace `validation`); the web translates, the API returns them. */
export const V = {
  required: "validation.required",
  tooShort: "validation.tooShort",
  tooLong: "validation.tooLong",
  invalidEmail: "validation.invalidEmail",
  invalid: "validation.invalid",
  /** A number with no known country code, or too short or long for WhatsApp. */
  invalidPhone: "validation.invalidPhone",
  /** The campaign form's own words (secondary §5): 'Muy Corto!', 'Demasiado largo'. */
  campaignShort: "validation.campaignShort",
  campaignLong: "validation.campaignLong",
  /** The contact list form's words (secondary §5), without the user form's marks: 'Demasiado corto', 'Demasiado largo'. */
  listNameShort: "validation.listNameShort",
  listNameLong: "validation.listNameLong",
  /** A key already in the list (campaign variables). */
  duplicateKey: "validation.duplicateKey",
  /** The file list form's own words (secondary §5): 'nombre muy corto'. */
  fileListNameShort: "validation.fileListNameShort",
  /** New ticket without a queue (core §5: Selecione un Area). */
  queueRequired: "validation.queueRequired",
  /** Blank message text with no file. */
  emptyMessage: "validation.emptyMessage",
  /** The words the Tags and Quick replies forms use (core §5, secondary §5): "Obligatorio", "Mensaje muy corto". */
  mandatory: "validation.mandatory",
  shortMessage: "validation.shortMessage",
  /** The chat dialog's alerts (secondary §5): no title, no participant. */
  chatTitle: "validation.chatTitle",
  chatUsers: "validation.chatUsers",
  /** A prompt saved without its area (secondary §8: 'Informar al sector'). */
  promptQueueRequired: "validation.promptQueueRequired",
  /** Text PostgreSQL cannot store: a NUL character or half of a UTF-16 surrogate pair. */
  invalidText: "validation.invalidText",
} as const;

// Every message zod produces is an i18n key, also where a schema sets none (missing body, bad query).
// One setting for zod and zod/mini alike (they share its core); it lives beside `V`, so whatever
// uses the keys has it too.
config({
  customError: (issue) => (issue.code === "invalid_type" && issue.input === undefined ? V.required : V.invalid),
});

// NUL, or a high surrogate without its low half, or a low one without its high half
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/** True when PostgreSQL can store the text: no NUL and no lone UTF-16 surrogate. */
export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);

/** The text with NUL characters dropped and lone surrogates replaced by U+FFFD (for text we receive, not refuse). */
export const storableText = (s: string): string =>
  UNSTORABLE.test(s) ? s.replace(UNSTORABLE_ALL, (c) => (c === "\u0000" ? "" : "\uFFFD")) : s;
