import type { FastifyInstance } from "fastify";
import { afterEach } from "vitest";

export type Emitted = { companyId: number; event: string; payload: unknown; to?: number[]; except?: number[] };

/**
 * Records what the app broadcasts instead of sending it: whole-company emits, and per-user ones with
 * the users they went to (or were kept from). `restore` puts the real emitters back.
 */
export function captureEvents(app: FastifyInstance) {
  const rt = app.charla.realtime;
  const saved = { toCompany: rt.toCompany, toUsers: rt.toUsers, toCompanyExcept: rt.toCompanyExcept };
  const events: Emitted[] = [];
  const record = (companyId: number, extra: Pick<Emitted, "to" | "except"> = {}) => ({
    emit: (event: string, payload: unknown) => void events.push({ companyId, event, payload, ...extra }),
  });
  rt.toCompany = (companyId) => record(companyId);
  rt.toUsers = (companyId, to) => record(companyId, { to });
  rt.toCompanyExcept = (companyId, except) => record(companyId, { except });
  return {
    events,
    /** The payloads sent on one event name. */
    on: (event: string) => events.filter((e) => e.event === event).map((e) => e.payload),
    restore: () => Object.assign(rt, saved),
  };
}

/**
 * A test file's `listen()`: starts recording the app's broadcasts (see captureEvents), and puts the real
 * emitters back after each test.
 */
export function eventListener(app: () => FastifyInstance) {
  let capture: ReturnType<typeof captureEvents> | null = null;
  afterEach(() => {
    capture?.restore();
    capture = null;
  });
  return () => {
    capture?.restore();
    capture = captureEvents(app());
    return capture;
  };
}
