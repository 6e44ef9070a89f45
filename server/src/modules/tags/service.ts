import { QUEUE_PALETTE, type TagEvent, type TagForm, type TagView, can } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { tags } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { findTagView } from "./queries.js";

type Input = z.output<typeof TagForm>;

function mapUnique(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_TAG_NAME_EXISTS");
  throw err;
}

/** Tags are the whole company's (core §2 Tags page: all profiles): every user hears of a change. */
function tagChanged(companyId: number, change: TagEvent): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience: "company", area: "tag", change };
}

/** The Kanban flag is for admins and supervisors (core §6 tag modal); others keep what the tag had. */
const kanbanOf = (ctx: RequestCtx, input: Input, current: number) => (can(ctx.user, "tag-modal:kanban") ? input.kanban : current);

/**
 * A colour for a tag created with its name alone (core §7 POST /tags: name): the first of the picker's
 * presets no tag of the company has yet, else the presets in turn, so new tags never all look alike.
 */
async function freeColor(q: Scoped): Promise<string> {
  const rows = await q.db.select({ color: tags.color }).from(tags).where(q.tags.where());
  const used = new Set(rows.map((r) => r.color.toUpperCase()));
  return QUEUE_PALETTE.find((c) => !used.has(c)) ?? QUEUE_PALETTE[rows.length % QUEUE_PALETTE.length];
}

export function createTag(ctx: RequestCtx, input: Input): Promise<TagView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const color = input.color ?? (await freeColor(q));
    const row = await q.tags
      .insert({ name: input.name, color, kanban: kanbanOf(ctx, input, 0), userId: ctx.user.id })
      .catch(mapUnique);
    const view = found(await findTagView(q, row.id), "ERR_NO_TAG_FOUND");
    await publish(tagChanged(ctx.companyId, { action: "create", tag: view }));
    return view;
  });
}

export function updateTag(ctx: RequestCtx, id: number, input: Input): Promise<TagView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const current = found(await q.tags.findById(id), "ERR_NO_TAG_FOUND");
    await tx
      .update(tags)
      .set({
        name: input.name,
        color: input.color ?? current.color,
        kanban: kanbanOf(ctx, input, current.kanban),
        updatedAt: new Date(),
      })
      .where(q.tags.where(eq(tags.id, id)))
      .catch(mapUnique);
    const view = found(await findTagView(q, id), "ERR_NO_TAG_FOUND");
    await publish(tagChanged(ctx.companyId, { action: "update", tag: view }));
    return view;
  });
}

/** Deleting a tag takes it off its tickets (ticket_tags cascade). */
export function deleteTag(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const [gone] = await tx
      .delete(tags)
      .where(q.tags.where(eq(tags.id, id)))
      .returning({ id: tags.id });
    if (!gone) throw new AppError("ERR_NO_TAG_FOUND");
    await publish(tagChanged(ctx.companyId, { action: "delete", tagId: id }));
  });
}
