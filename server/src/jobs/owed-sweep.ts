import type { Services } from "../context.js";
import type { Sweep } from "./sweep.js";

/**
 * One company's work only: tests share their database with other files' rows, which a test's sweep
 * must not take.
 */
export type OnlyCompany = { companyId: number };

/**
 * Where work is owed, as a window over the age of its cause: older than `owedAfterSec` (its live
 * listener had time to do it) and no older than `staleAfterSec` (too late to be worth doing).
 */
export type OwedWindow = { owedAfterSec: number; staleAfterSec: number };

/** A window's bounds at one moment, as timestamps a query compares its causes' time with. */
export type OwedBounds = { since: string; owedBefore: string };

export type OwedSweepOf<T> = {
  name: string;
  everyMs?: number;
  window: OwedWindow;
  /** At most `limit` owed items whose cause falls within `bounds`, oldest first; `only`'s company alone when given. */
  find: (s: Services, bounds: OwedBounds, limit: number, only?: OnlyCompany) => Promise<T[]>;
  /** Does the found items' work again (each must be safe to do twice); returns how many it did. */
  run: (s: Services, owed: T[], now: Date, only?: OnlyCompany) => Promise<number>;
};

export type OwedSweep<T> = {
  /** What is owed at `now`. */
  owed: (s: Services, now: Date, limit: number, only?: OnlyCompany) => Promise<T[]>;
  /** One round: what is owed at `now`, done. */
  take: (s: Services, now: Date, limit: number, only?: OnlyCompany) => Promise<number>;
  /** The round as the job runner's sweep, over every company. */
  sweep: Sweep;
};

/** The bounds of `window` at `now`. */
export function owedBounds(window: OwedWindow, now: Date): OwedBounds {
  return {
    since: new Date(now.getTime() - window.staleAfterSec * 1000).toISOString(),
    owedBefore: new Date(now.getTime() - window.owedAfterSec * 1000).toISOString(),
  };
}

/**
 * A sweep for detached work lost with its process (docs/events.md): where the cause is a statement no
 * one can join (the inbound batch writer), no job row can be written with it, so its detached listener
 * does the work right after the commit and this sweep finds, a while later, what is still missing. The
 * work must be idempotent (a conditional write, a deterministic key): a slow listener and the sweep, or
 * two nodes' sweeps, may both find the same item.
 */
export function owedSweep<T>(def: OwedSweepOf<T>): OwedSweep<T> {
  const owed = (s: Services, now: Date, limit: number, only?: OnlyCompany) =>
    def.find(s, owedBounds(def.window, now), limit, only);
  const take = async (s: Services, now: Date, limit: number, only?: OnlyCompany) =>
    def.run(s, await owed(s, now, limit, only), now, only);
  return { owed, take, sweep: { name: def.name, everyMs: def.everyMs, batch: (s, now, limit) => take(s, now, limit) } };
}
