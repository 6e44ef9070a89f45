import { DashboardPeriods, type DashboardFilter, V } from "@charla/contracts";
import { eq, sql } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { companies } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { rowsOf } from "../../lib/rate-limit.js";

/** A period as company-zone dates (inclusive) and the instants that bound it: [start, end). */
export type Period = { from: string; to: string; start: Date; end: Date; timeZone: string };

/** Earliest date a `date_to`-only filter reaches back to. */
const OPEN_START = "1970-01-01";

/** YYYY-MM-DD plus n days (n may be negative), on the calendar alone. */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The company's zone and today's date in it. */
export async function companyToday(q: Scoped): Promise<{ timeZone: string; today: string }> {
  const [row] = await q.db
    .select({
      timeZone: companies.timeZone,
      today: sql<string>`to_char(now() at time zone ${companies.timeZone}, 'YYYY-MM-DD')`,
    })
    .from(companies)
    .where(eq(companies.id, q.companyId));
  return row;
}

/** The instants where company-zone days `from` and the day after `to` begin (PostgreSQL knows the zone rules). */
export async function dayBounds(q: Scoped, timeZone: string, from: string, to: string): Promise<{ start: Date; end: Date }> {
  const result = await q.db.execute(sql`select
    extract(epoch from (${from}::date::timestamp at time zone ${timeZone})) as s,
    extract(epoch from ((${to}::date + 1)::timestamp at time zone ${timeZone})) as e`);
  const [row] = rowsOf<{ s: string | number; e: string | number }>(result);
  return { start: new Date(Number(row.s) * 1000), end: new Date(Number(row.e) * 1000) };
}

/** A filter's day: `YYYY-MM-DD` as given, or the company-zone day a full ISO timestamp falls on. */
export function zoneDay(value: string, timeZone: string): string {
  if (value.length === 10) return value;
  // en-CA writes YYYY-MM-DD
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(value),
  );
}

/**
 * behaviours: Dashboard counters, Period. `days` = the last N days including today; else `date_from` /
 * `date_to` inclusive (one alone: through today, or from the beginning). None of them: core §5's
 * "Parametrize o filtro".
 */
export async function resolvePeriod(q: Scoped, f: DashboardFilter): Promise<Period> {
  if (f.days === undefined && !f.date_from && !f.date_to) throw new AppError("ERR_DASHBOARD_FILTER");
  const { timeZone, today } = await companyToday(q);
  let from: string;
  let to: string;
  if (f.days !== undefined && (DashboardPeriods as readonly number[]).includes(f.days)) {
    from = addDays(today, -(f.days - 1));
    to = today;
  } else {
    from = f.date_from ? zoneDay(f.date_from, timeZone) : OPEN_START;
    to = f.date_to ? zoneDay(f.date_to, timeZone) : today < from ? from : today;
    if (from > to) throw new AppError("ERR_VALIDATION", { issues: [{ path: "querystring.date_to", message: V.invalid }] });
  }
  return { from, to, timeZone, ...(await dayBounds(q, timeZone, from, to)) };
}

/** One company-zone day (default today) as a period: the chart of tickets per hour. */
export async function resolveDay(q: Scoped, date: string | undefined): Promise<Period> {
  const { timeZone, today } = await companyToday(q);
  const day = date ? zoneDay(date, timeZone) : today;
  return { from: day, to: day, timeZone, ...(await dayBounds(q, timeZone, day, day)) };
}
