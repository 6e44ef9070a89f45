import { z } from "zod";
import { DateOnly, text, V, looseText } from "./common.js";
import type { ClosedTicketsPage } from "./tickets.js";

/** Dashboard period presets in days (core §9). */
export const DashboardPeriods = [3, 7, 15, 30, 60, 90] as const;
export type DashboardPeriod = (typeof DashboardPeriods)[number];

/**
 * The days a filter may name. A period ends where the day after its last one begins, and that instant
 * must still have a four-digit year for PostgreSQL to read it back (9999-12-31 answered 500).
 */
export const DashboardDateBounds = { min: "1970-01-01", max: "9999-12-30" } as const;

/** A calendar date that exists (2026-02-30 does not), within the bounds. */
const RealDate = DateOnly.refine((s) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, V.invalid).refine((s) => s >= DashboardDateBounds.min && s <= DashboardDateBounds.max, V.invalid);

/** Within the bounds: an instant between the bounds' days, one zone either side. */
const instantMin = Date.parse(`${DashboardDateBounds.min}T14:00:00Z`);
const instantMax = Date.parse(`${DashboardDateBounds.max}T00:00:00Z`) - 14 * 3_600_000;

/**
 * A day as `YYYY-MM-DD`, or a full ISO timestamp as the family's clients send (`date.toISOString()`):
 * the server reads the company-zone day that instant falls on.
 */
export const DashboardDay = z.union([
  RealDate,
  text()
    .pipe(z.iso.datetime({ offset: true, error: V.invalid }))
    .refine((s) => {
      const t = Date.parse(s);
      return t >= instantMin && t <= instantMax;
    }, V.invalid),
]);

/**
 * The dashboard filter (core §5): `days` (the last N days including today) or `date_from` / `date_to`
 * (inclusive, in the company's time zone). With none of them the API answers 400 ERR_DASHBOARD_FILTER;
 * `days` wins when both kinds are given.
 */
const FilterFields = z.object({
  days: looseText(
    z.coerce
      .number()
      .int()
      .refine((n) => (DashboardPeriods as readonly number[]).includes(n), V.invalid),
  ),
  date_from: looseText(DashboardDay),
  date_to: looseText(DashboardDay),
});
/** Two plain days are ordered here; an instant is a day only in the company's zone (the server checks those). */
const ordered = (f: { date_from?: string; date_to?: string }) =>
  !f.date_from || !f.date_to || f.date_from.length > 10 || f.date_to.length > 10 || f.date_from <= f.date_to;
const orderIssue = { message: V.invalid, path: ["date_to"] };

export const DashboardFilter = FilterFields.refine(ordered, orderIssue);
export type DashboardFilter = z.infer<typeof DashboardFilter>;

export const DashboardClosedQuery = FilterFields.extend({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
}).refine(ordered, orderIssue);
export type DashboardClosedQuery = z.infer<typeof DashboardClosedQuery>;

export const TicketsPerHourQuery = z.object({ date: looseText(DashboardDay) });

/** One agent's row of the attendants table, for the selected period. */
export type DashboardAttendant = {
  id: number;
  name: string;
  /** Mean of the contacts' ratings (1–3) of this agent in the period; null without any. */
  rating: number | null;
  /** Mean minutes startedAt → finishedAt of this agent's episodes finished in the period; 0 without any. */
  avgSupportTime: number;
  /** Episodes this agent finished in the period. */
  finished: number;
  online: boolean;
};

/** The period's counters (behaviours: Dashboard counters). Times are minutes. */
export type DashboardCounters = {
  supportPending: number;
  supportHappening: number;
  supportFinished: number;
  leads: number;
  avgSupportTime: number;
  avgWaitTime: number;
};

/** GET /dashboard: `counters` and `attendants` as core §7 names them, and the period they cover. */
export type DashboardView = {
  /** The period the numbers cover, as company-zone dates (inclusive). */
  period: { from: string; to: string };
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
};

/** GET /dashboard/tickets-per-hour: tickets created on one company-zone day, 24 buckets (hour 0–23). */
export type TicketsPerHour = { date: string; hours: { hour: number; count: number }[] };

/** GET /dashboard/closed-tickets: the period's finished episodes, newest first, 20 a page. */
export type DashboardClosedPage = ClosedTicketsPage;
