import type { ErrorBody } from "@charla/contracts";
import { toast } from "../lib/toast";
import { formatDate } from "../lib/company-time";
import i18n from "../i18n";
import { ApiError } from "./client";

const isoDate = /^\d{4}-\d{2}-\d{2}(T|$)/;

/** The API sends dates as ISO; the texts show them DD/MM/YYYY. `dueDate` also fills `{{date}}`. */
function interpolationOf(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    values[key] = typeof value === "string" && isoDate.test(value) ? formatDate(value) : value;
  }
  if (values.date === undefined && values.dueDate !== undefined) values.date = values.dueDate;
  return values;
}

function bodyOf(error: unknown): Partial<ErrorBody> | undefined {
  if (error instanceof ApiError) return error.body ?? undefined;
  if (typeof error === "object" && error !== null && "error" in error) return error as Partial<ErrorBody>;
  return undefined;
}

/**
 * core §8: a known code shows its translated text; otherwise `fallback` when the caller has a
 * fixed text for the situation, else the server's raw message, else a plain string, else a generic text.
 */
export function errorText(error: unknown, fallback?: string): string {
  const body = bodyOf(error);
  // a code of the catalogue has its text in the `errors` namespace (loaded before anything renders);
  // asking i18n rather than the contracts' catalogue keeps that catalogue out of the app's code
  const code = body?.error;
  if (typeof code === "string" && i18n.exists(code, { ns: "errors" })) {
    return i18n.t(code, { ns: "errors", ...interpolationOf(body?.data) });
  }
  if (fallback) return fallback;
  if (typeof body?.message === "string" && body.message) return body.message;
  if (typeof error === "string" && error) return error;
  return i18n.t("feedback.generic", { ns: "common" });
}

/** The shared error toast; the text doubles as toast id so a burst of equal failures shows once. */
export function toastError(error: unknown, fallback?: string): void {
  const text = errorText(error, fallback);
  toast.error(text, { toastId: text });
}

/** Field-level issues of an ERR_VALIDATION answer, keyed by their dotted path. */
export function validationIssues(error: unknown): { path: string; message: string }[] {
  return bodyOf(error)?.issues ?? [];
}
