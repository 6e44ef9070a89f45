import type { AuthResponse, ErrorBody } from "@charla/contracts";
import { clearSession, readToken, writeToken } from "../lib/storage";

const BASE_URL = "/api/v1";

/** A non-2xx answer; `body` is the API's `{ error, message, issues?, data? }` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<ErrorBody> | null;

  constructor(status: number, body: Partial<ErrorBody> | null) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  get code(): string | undefined {
    return this.body?.error;
  }
}

type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** FormData goes out as multipart; anything else as JSON. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Login and refresh: no bearer, and their failures must not start the refresh/logout machinery. */
  anonymous?: boolean;
};

let refreshing: Promise<AuthResponse> | null = null;
const refreshListeners = new Set<(auth: AuthResponse) => void>();

// Replaced by the auth provider so the router navigates; this default only matters before it mounts.
let unauthorizedHandler: () => void = () => {
  clearSession();
  window.location.assign("/login");
};

export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

/** Called with every new session the refresh call returns (the user may have changed meanwhile). */
export function onTokenRefreshed(listener: (auth: AuthResponse) => void): () => void {
  refreshListeners.add(listener);
  return () => refreshListeners.delete(listener);
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `${BASE_URL}${path}${search ? `?${search}` : ""}`;
}

function send(path: string, options: RequestOptions): Promise<Response> {
  const headers = new Headers({ Accept: "application/json" });
  const token = options.anonymous ? null : readToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  return fetch(buildUrl(path, options.query), {
    method: options.method ?? "GET",
    headers,
    body,
    credentials: "include",
    signal: options.signal,
  });
}

async function readError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (proxy page, empty body): the status alone has to do
  }
  const isBody = typeof body === "object" && body !== null;
  return new ApiError(response.status, isBody ? (body as Partial<ErrorBody>) : null);
}

/**
 * One refresh at a time: requests failing together wait for the same call (core §4 Session).
 * A refused refresh (401) ends the session wherever it was asked for: start-up, a request, the socket.
 */
export function refreshToken(): Promise<AuthResponse> {
  refreshing ??= (async () => {
    const response = await send("/auth/refresh_token", { method: "POST", anonymous: true });
    if (response.status === 401) unauthorizedHandler();
    if (!response.ok) throw await readError(response);
    const auth = (await response.json()) as AuthResponse;
    writeToken(auth.token);
    for (const listener of refreshListeners) listener(auth);
    return auth;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

let startup: Promise<AuthResponse> | null = null;

/**
 * The start-up refresh of a stored session, begun by main.tsx before the app's code has even arrived,
 * so it runs while that code loads; the session provider then takes its answer instead of asking again.
 */
export function beginStartupRefresh(): void {
  startup ??= refreshToken();
  startup.catch(() => undefined);
}

export function startupRefresh(): Promise<AuthResponse> {
  return startup ?? refreshToken();
}

async function isTokenExpired(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const error = await readError(response.clone());
  return error.code === "ERR_TOKEN_EXPIRED";
}

async function request(path: string, options: RequestOptions): Promise<Response> {
  const usedToken = readToken();
  let response = await send(path, options);
  if (!options.anonymous && (await isTokenExpired(response))) {
    // Another request may already have renewed the token while this one was in flight.
    if (readToken() === usedToken) await refreshToken();
    response = await send(path, options);
  }
  if (!options.anonymous && response.status === 401) unauthorizedHandler();
  if (!response.ok) throw await readError(response);
  return response;
}

/** JSON call; resolves to undefined for 204 and empty bodies. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await request(path, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Binary call for protected images (logo, profile pictures), fetched with the bearer. */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await request(path, options);
  return response.blob();
}

type Answer = { status: number; body: unknown };

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return null;
  }
}

/** One multipart POST through XMLHttpRequest: unlike fetch it tells how much of the body has left. */
function sendWithProgress(path: string, body: FormData, onProgress: (sent: number) => void, signal?: AbortSignal) {
  return new Promise<Answer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", buildUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    const token = readToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parseBody(xhr.responseText) });
    // the errors fetch would throw, so callers treat both alike
    xhr.onerror = () => reject(new TypeError("Failed to fetch"));
    xhr.onabort = () => reject(new DOMException("The upload was aborted.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

const errorOf = (answer: Answer) =>
  new ApiError(
    answer.status,
    typeof answer.body === "object" && answer.body !== null ? (answer.body as Partial<ErrorBody>) : null,
  );

/**
 * A file upload that reports its progress (`sent` from 0 to 1) for a large file's bar; the answer and
 * its errors, the expired-token retry and the logout on 401 are those of `api`.
 */
export async function apiUpload<T>(
  path: string,
  body: FormData,
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  const usedToken = readToken();
  let answer = await sendWithProgress(path, body, onProgress, signal);
  if (answer.status === 403 && errorOf(answer).code === "ERR_TOKEN_EXPIRED") {
    if (readToken() === usedToken) await refreshToken();
    answer = await sendWithProgress(path, body, onProgress, signal);
  }
  if (answer.status === 401) unauthorizedHandler();
  if (answer.status < 200 || answer.status >= 300) throw errorOf(answer);
  return answer.body as T;
}
