import { ErrorCatalogue, type ErrorCode, fillErrorText } from "@charla/contracts";

/** The one error type handlers throw; the error plugin turns it into `{error, message}` with its status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly data?: Record<string, unknown>;
  readonly issues?: { path: string; message: string }[];

  constructor(
    code: ErrorCode,
    opts: { data?: Record<string, unknown>; issues?: { path: string; message: string }[]; status?: number } = {},
  ) {
    super(fillErrorText(ErrorCatalogue[code].es, opts.data));
    this.code = code;
    this.status = opts.status ?? ErrorCatalogue[code].status;
    this.data = opts.data;
    this.issues = opts.issues;
  }
}

/** Throws the not-found code when a scoped lookup found nothing (foreign ids included). */
export function found<T>(row: T | null | undefined, code: ErrorCode): T {
  if (row === null || row === undefined) throw new AppError(code);
  return row;
}
