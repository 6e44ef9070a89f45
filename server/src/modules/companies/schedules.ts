import { type CompanySchedulesForm, type CompanySchedulesView, V } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import type { Db, Tx } from "../../db/client.js";
import { companies } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";

type Input = z.output<typeof CompanySchedulesForm>;

/** A company's own users reach its hours; super users any company's. Others' ids are not found. */
function assertReachable(ctx: RequestCtx, id: number) {
  if (id !== ctx.companyId && !ctx.user.super) throw new AppError("ERR_NO_COMPANY_FOUND");
}

async function schedulesOf(db: Db | Tx, id: number): Promise<CompanySchedulesView> {
  const [row] = await db
    .select({ id: companies.id, schedules: companies.schedules, timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, id));
  return found(row, "ERR_NO_COMPANY_FOUND");
}

/** GET /companies/{id}/schedules: the week and zone used when scheduleType is "company". */
export function readCompanySchedules(ctx: RequestCtx, id: number): Promise<CompanySchedulesView> {
  assertReachable(ctx, id);
  return schedulesOf(ctx.db, id);
}

/** PUT /companies/{id}/schedules (core §7): the week, and the zone when sent; announced to the company. */
export function updateCompanySchedules(ctx: RequestCtx, id: number, input: Input): Promise<CompanySchedulesView> {
  assertReachable(ctx, id);
  // the spec's body repeats the id: one that names another company is a confused client, not a target
  if (input.id !== undefined && input.id !== id) {
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "body.id", message: V.invalid }] });
  }
  return withTransaction(ctx, async (tx, { publish }) => {
    const [row] = await tx
      .update(companies)
      .set({
        schedules: input.schedules,
        ...(input.zone_time !== undefined ? { timeZone: input.zone_time } : {}),
        updatedAt: new Date(),
      })
      .where(eq(companies.id, id))
      .returning({ id: companies.id, schedules: companies.schedules, timeZone: companies.timeZone });
    const view = found(row, "ERR_NO_COMPANY_FOUND");
    await publish({
      type: "record.changed",
      companyId: id,
      audience: "company",
      area: "company",
      change: { action: "update", schedules: view },
    });
    return view;
  });
}
