/** Digits only: how numbers are stored and compared (WhatsApp ids are digits). Without zod, for the web's lists. */
export const normalizeNumber = (raw: string) => raw.replace(/\D/g, "");
