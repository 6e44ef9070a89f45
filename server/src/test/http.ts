import { randomUUID } from "node:crypto";
import type { FastifyInstance, InjectOptions } from "fastify";
import { expect } from "vitest";
import { as, type Session } from "./factories.js";

export const uid = () => randomUUID().slice(0, 8);

/** `call(session, "GET", "/users")`: an API call under /api/v1 as a logged-in user. */
export function caller(app: () => FastifyInstance) {
  return (s: Pick<Session, "token">, method: InjectOptions["method"], url: string, payload?: unknown) =>
    as(app(), s, { method, url: `/api/v1${url}`, payload: payload as object });
}

/** Asserts an error response's status and catalogue code. */
export function expectError(res: { statusCode: number; json: () => { error: string } }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().error).toBe(code);
}
