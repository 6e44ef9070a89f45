import type { ErrorCode } from "@charla/contracts";
import { AppError } from "../../lib/app-error.js";

/** How much of Meta's own words a reason keeps (it is shown on the message and in the answer). */
const REASON_MAX = 300;

const RATE_LIMITED = new Set([130429, 131048, 131056, 80007, 4]);
/** Token expired or revoked (190), API unknown (0), permission denied (10, 200–299). */
const AUTH = new Set([0, 10, 190]);

/**
 * A Graph API error code (Meta's `error.code`, or a failed status's `errors[].code`) as the catalogue's
 * code. Meta gives nearly every error the type "OAuthException", so the type counts only when there is
 * no code to go by; the HTTP status 401 always means the token.
 */
export function cloudErrorCode(code: number | null | undefined, opts: { type?: string; httpStatus?: number } = {}): ErrorCode {
  if (opts.httpStatus === 401) return "ERR_CLOUD_AUTH";
  if (code === null || code === undefined || !Number.isFinite(code))
    return opts.type === "OAuthException" ? "ERR_CLOUD_AUTH" : "ERR_CLOUD_API";
  if (code === 131047) return "ERR_CLOUD_REENGAGEMENT";
  if (code === 131026) return "ERR_CLOUD_UNDELIVERABLE";
  if (RATE_LIMITED.has(code)) return "ERR_CLOUD_RATE_LIMITED";
  if (AUTH.has(code) || (code >= 200 && code <= 299)) return "ERR_CLOUD_AUTH";
  if (code === 131052 || code === 131053) return "ERR_CLOUD_MEDIA";
  if (code >= 132000 && code <= 132016) return "ERR_CLOUD_TEMPLATE_REJECTED";
  return "ERR_CLOUD_API";
}

/**
 * A refusal or failure of the Graph API, as the other drivers' errors: `code` is the catalogue's (the
 * send paths store it on the message), `data.reason` Meta's words for ERR_CLOUD_API's text.
 * `graphCode` is Meta's number (none for a network failure or time-out).
 */
export class CloudError extends AppError {
  constructor(
    code: ErrorCode,
    readonly reason: string,
    readonly graphCode: number | null = null,
    readonly httpStatus: number | null = null,
  ) {
    super(code, { data: { reason } });
  }
}

type GraphErrorBody = {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  error_subcode?: unknown;
  error_user_msg?: unknown;
  error_data?: { details?: unknown } | unknown;
};

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Meta's reason, most specific first (error_data.details says which parameter; message is generic). */
function reasonOf(e: GraphErrorBody, fallback: string): string {
  const details = text((e.error_data as { details?: unknown } | undefined)?.details);
  const reason = details || text(e.error_user_msg) || text(e.message) || fallback;
  return reason.slice(0, REASON_MAX);
}

/** An error answer of the Graph API (`{error:{…}}`, or anything else with its HTTP status) as a CloudError. */
export function graphError(httpStatus: number, body: unknown): CloudError {
  const e = ((body as { error?: unknown } | null)?.error ?? {}) as GraphErrorBody;
  const code =
    typeof e.code === "number"
      ? e.code
      : Number.isFinite(Number(e.code)) && e.code !== "" && e.code !== undefined
        ? Number(e.code)
        : null;
  const type = text(e.type);
  const reason = reasonOf(e, `HTTP ${httpStatus}`);
  // Meta's message often names its code already, "(#131047) Re-engagement message"
  const said = code === null || reason.startsWith("(#") ? reason : `(#${code}) ${reason}`.slice(0, REASON_MAX);
  return new CloudError(cloudErrorCode(code, { type, httpStatus }), said, code, httpStatus);
}

/** A call that got no answer: the network failed or the time-out ran out. */
export function unreachable(err: unknown, timeoutMs: number): CloudError {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError")
    return new CloudError(
      "ERR_CLOUD_API",
      `no answer from the Graph API within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`,
    );
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail =
    text(cause?.code) || text(cause?.message) || text((err as { message?: unknown } | null)?.message) || "network error";
  return new CloudError("ERR_CLOUD_API", `the Graph API could not be reached (${detail})`.slice(0, REASON_MAX));
}
