import { type QuickMessageEvent, type QuickMessageForm, type QuickMessageView, storableText } from "@charla/contracts";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import type { DomainEvent, Audience as EventAudience } from "../../events/index.js";
import { scoped } from "../../db/scoped.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgConstraint, pgErrorCode } from "../../lib/pg-errors.js";
import { authorizeQuickMessageChange } from "../../policies/quick-messages.js";
import { type QuickMessageRow, presentQuickMessage } from "./presenter.js";
import { visibleQuickMessage } from "./queries.js";

type Input = z.output<typeof QuickMessageForm>;
type Audience = Pick<QuickMessageRow, "geral" | "userId">;

/**
 * `company-{id}-quickemessage` to whoever may see the reply: the whole company for a shared one,
 * its author alone for an own one.
 */
function toWhoSees(companyId: number, audience: Audience, change: QuickMessageEvent): DomainEvent<"record.changed"> {
  return quickMessageEvent(companyId, audience.geral || audience.userId === null ? "company" : [audience.userId], change);
}

function quickMessageEvent(companyId: number, audience: EventAudience, change: QuickMessageEvent): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience, area: "quickMessage", change };
}

/** A change: the new audience hears the update, and those who saw it before but no longer do hear it go. */
function changeEvents(companyId: number, before: Audience, view: QuickMessageView): DomainEvent<"record.changed">[] {
  const after: Audience = { geral: view.geral, userId: view.userId };
  const events = [toWhoSees(companyId, after, { action: "update", record: view })];
  if (before.geral && !after.geral && after.userId !== null) {
    events.push(quickMessageEvent(companyId, { except: [after.userId] }, { action: "delete", id: view.id }));
  } else if (!before.geral && !after.geral && before.userId !== null && before.userId !== after.userId) {
    events.push(toWhoSees(companyId, before, { action: "delete", id: view.id }));
  }
  return events;
}

/** The shortcode is unique per company and author (its unique index has the last word). */
function mapUnique(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION && pgConstraint(err) === "quick_messages_company_user_shortcode_key") {
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "shortcode", message: "validation.shortcodeTaken" }] });
  }
  throw err;
}

const notFound = () => new AppError("ERR_NOT_FOUND");

/** POST /quick-messages: the caller is its author; shared (geral) unless said otherwise. */
export function createQuickMessage(ctx: RequestCtx, input: Input): Promise<QuickMessageView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const row = await q.quickMessages
      .insert({
        userId: ctx.user.id,
        shortcode: input.shortcode,
        message: input.message,
        geral: input.geral,
        status: input.status,
      })
      .catch(mapUnique);
    const view = presentQuickMessage(row);
    await publish(toWhoSees(ctx.companyId, row, { action: "create", record: view }));
    return view;
  });
}

/**
 * PUT /quick-messages/{id}: the caller's own reply, or (staff) a shared one (policies/quick-messages.ts).
 * A shared reply someone else wrote that is made private becomes the editor's own, so it stays visible
 * to its editor.
 */
export function updateQuickMessage(ctx: RequestCtx, id: number, input: Input): Promise<QuickMessageView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await visibleQuickMessage(q, ctx.user.id, id, true), "ERR_NOT_FOUND");
    authorizeQuickMessageChange(ctx.user, before);
    const userId = input.geral ? before.userId : ctx.user.id;
    const row = found(
      await q.quickMessages
        .update(id, { shortcode: input.shortcode, message: input.message, geral: input.geral, status: input.status, userId })
        .catch(mapUnique),
      "ERR_NOT_FOUND",
    );
    const view = presentQuickMessage(row);
    for (const event of changeEvents(ctx.companyId, before, view)) await publish(event);
    return view;
  });
}

/** DELETE /quick-messages/{id}: the reply and its file. */
export function deleteQuickMessage(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await visibleQuickMessage(q, ctx.user.id, id, true), "ERR_NOT_FOUND");
    authorizeQuickMessageChange(ctx.user, before);
    await q.quickMessages.delete(id);
    await publish(toWhoSees(ctx.companyId, before, { action: "delete", id }));
    const old = before.mediaPath;
    if (old) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
  });
}

/**
 * POST /quick-messages/{id}/media-upload: a reply the caller cannot see or change is refused before
 * the file is read; the new file replaces the old one, which is removed once the change is committed.
 */
export async function setQuickMessageMedia(
  ctx: RequestCtx,
  id: number,
  store: (prefix: string) => Promise<{ path: string; fileName: string }>,
): Promise<QuickMessageView> {
  authorizeQuickMessageChange(
    ctx.user,
    found(await visibleQuickMessage(scoped(ctx.db, ctx.companyId), ctx.user.id, id), "ERR_NOT_FOUND"),
  );
  const stored = await store(`quick-messages/${id}-`);
  try {
    return await withTransaction(ctx, async (tx, { publish, afterCommit }) => {
      const q = scoped(tx, ctx.companyId);
      // deleted or made private by someone else meanwhile: the upload has nothing to belong to
      const before = await visibleQuickMessage(q, ctx.user.id, id, true);
      if (!before) throw notFound();
      authorizeQuickMessageChange(ctx.user, before);
      const mediaName = storableText(stored.fileName).trim().slice(0, 255) || "file";
      const row = found(await q.quickMessages.update(id, { mediaPath: stored.path, mediaName }), "ERR_NOT_FOUND");
      const view = presentQuickMessage(row);
      for (const event of changeEvents(ctx.companyId, before, view)) await publish(event);
      const old = before.mediaPath;
      if (old && old !== stored.path) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
      return view;
    });
  } catch (err) {
    await ctx.storage.remove(ctx.companyId, stored.path);
    throw err;
  }
}

/** DELETE /quick-messages/{id}/media-upload: the reply stays, without its file. */
export function removeQuickMessageMedia(ctx: RequestCtx, id: number): Promise<QuickMessageView> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await visibleQuickMessage(q, ctx.user.id, id, true), "ERR_NOT_FOUND");
    authorizeQuickMessageChange(ctx.user, before);
    const row = found(await q.quickMessages.update(id, { mediaPath: null, mediaName: null }), "ERR_NOT_FOUND");
    const view = presentQuickMessage(row);
    for (const event of changeEvents(ctx.companyId, before, view)) await publish(event);
    const old = before.mediaPath;
    if (old) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
    return view;
  });
}
