import type { HelpView } from "@charla/contracts";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { helps } from "../../db/schema/index.js";
import { presentHelp } from "./presenter.js";

const order = [asc(helps.title), asc(helps.id)];

/**
 * GET /helps: every help video of the platform, for every company's users. Help videos are written
 * by super users (the row's company is the writer's) and are platform data by design (secondary §2
 * help-video page), so this one read names no company.
 */
export async function allHelps(db: Db): Promise<HelpView[]> {
  return (
    await db
      .select()
      .from(helps)
      .orderBy(...order)
  ).map(presentHelp);
}

/**
 * GET /helps/list: the Ayuda tab's table, the videos the caller's company wrote, which are the ones
 * the caller may change (another company's help is not found for PUT and DELETE, so it is not offered).
 */
export async function companyHelps(db: Db, companyId: number): Promise<HelpView[]> {
  return (
    await db
      .select()
      .from(helps)
      .where(eq(helps.companyId, companyId))
      .orderBy(...order)
  ).map(presentHelp);
}
