import i18n from "../i18n";

/**
 * Contract schemas and the API use i18n keys (`validation.*`) as messages; anything else is
 * already a sentence. Keys are looked up explicitly so a sentence with ":" is never read as a namespace.
 */
export function validationText(message: string | undefined): string | undefined {
  if (!message) return undefined;
  return message.startsWith("validation.") ? i18n.t(message, { ns: "common" }) : message;
}
