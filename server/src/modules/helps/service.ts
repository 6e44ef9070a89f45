import type { HelpForm, HelpView } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { helps } from "../../db/schema/index.js";
import { found } from "../../lib/app-error.js";
import { presentHelp } from "./presenter.js";

type Input = z.output<typeof HelpForm>;

/** The caller's company's help `id`: a help another company's super user wrote reads as missing. */
const own = (ctx: RequestCtx, id: number) => and(eq(helps.companyId, ctx.companyId), eq(helps.id, id));

/** POST /helps (super users, route gate): the row belongs to the writer's company. */
export async function createHelp(ctx: RequestCtx, input: Input): Promise<HelpView> {
  const [row] = await ctx.db
    .insert(helps)
    .values({ companyId: ctx.companyId, title: input.title, description: input.description, video: input.video })
    .returning();
  return presentHelp(row);
}

/** PUT /helps/{id}: one statement, so no lock is needed; the last save wins. */
export async function updateHelp(ctx: RequestCtx, id: number, input: Input): Promise<HelpView> {
  const [row] = await ctx.db
    .update(helps)
    .set({ title: input.title, description: input.description, video: input.video, updatedAt: new Date() })
    .where(own(ctx, id))
    .returning();
  return presentHelp(found(row, "ERR_NOT_FOUND"));
}

/** DELETE /helps/{id}. */
export async function deleteHelp(ctx: RequestCtx, id: number): Promise<void> {
  const gone = await ctx.db.delete(helps).where(own(ctx, id)).returning({ id: helps.id });
  found(gone[0], "ERR_NOT_FOUND");
}
