import { z } from "zod";
import { DateOnly, V } from "./common.js";
import type { ClosedTicketsPage } from "./tickets.js";

/** Dashboard period presets in days (core §9). */
export const DashboardPeriods = [3, 7, 15, 30, 60, 90] as const;
export type DashboardPeriod = (typeof DashboardPeriods)[number];

/** A calendar date that exists (2026-02-30 does not). */
const RealDate = DateOnly.refine((s) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, V.invalid);

/**
 * The dashboard filter (core §5): `days` (the last N days including today) or `date_from` / `date_to`
 * (inclusive, in the company's time zone). With none of them the API answers 400 ERR_DASHBOARD_FILTER;
 * `days` wins when both kinds are given.
 */
const FilterFields = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((n) => (DashboardPeriods as readonly number[]).includes(n), V.invalid)
    .optional(),
  date_from: RealDate.optional(),
  date_to: RealDate.optional(),
});
const ordered = (f: { date_from?: string; date_to?: string }) => !f.date_from || !f.date_to || f.date_from <= f.date_to;
const orderIssue = { message: V.invalid, path: ["date_to"] };

export const DashboardFilter = FilterFields.refine(ordered, orderIssue);
export type DashboardFilter = z.infer<typeof DashboardFilter>;

export const DashboardClosedQuery = FilterFields.extend({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
}).refine(ordered, orderIssue);
export type DashboardClosedQuery = z.infer<typeof DashboardClosedQuery>;

export const TicketsPerHourQuery = z.object({ date: RealDate.optional() });

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

/** GET /dashboard (behaviours: Dashboard counters). Times are minutes. */
export type DashboardView = {
  /** The period the numbers cover, as company-zone dates (inclusive). */
  period: { from: string; to: string };
  supportPending: number;
  supportHappening: number;
  supportFinished: number;
  leads: number;
  avgSupportTime: number;
  avgWaitTime: number;
  attendants: DashboardAttendant[];
};

/** GET /dashboard/tickets-per-hour: tickets created on one company-zone day, 24 buckets (hour 0–23). */
export type TicketsPerHour = { date: string; hours: { hour: number; count: number }[] };

/** GET /dashboard/closed-tickets: the period's finished episodes, newest first, 20 a page. */
export type DashboardClosedPage = ClosedTicketsPage;
