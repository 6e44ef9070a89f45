import { type ContactForm, type ContactView, Events } from "@charla/contracts";
import { eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { contacts } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { findContactView } from "./queries.js";

type Input = z.output<typeof ContactForm>;

function duplicated(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_DUPLICATED_CONTACT");
  throw err;
}

/** The number is unique per company (the index decides; this check only gives the clear code early). */
async function assertNumberFree(q: Scoped, number: string, exceptId?: number) {
  if (!number) return;
  const rows = await q.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(q.contacts.where(eq(contacts.number, number), exceptId ? ne(contacts.id, exceptId) : undefined))
    .limit(1);
  if (rows.length) throw new AppError("ERR_DUPLICATED_CONTACT");
}

function emit(
  ctx: RequestCtx,
  payload: { action: "create" | "update"; contact: ContactView } | { action: "delete"; contactId: number },
) {
  ctx.realtime.toCompany(ctx.companyId).emit(Events.contact(ctx.companyId), payload);
}

export function createContact(ctx: RequestCtx, input: Input): Promise<ContactView> {
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const q = scoped(tx, ctx.companyId);
    await assertNumberFree(q, input.number);
    const row = await q.contacts
      .insert({ name: input.name, number: input.number, email: input.email, extraInfo: input.extraInfo })
      .catch(duplicated);
    const view = found(await findContactView(q, row.id), "ERR_NO_CONTACT_FOUND");
    afterCommit(() => emit(ctx, { action: "create", contact: view }));
    return view;
  });
}

export function updateContact(ctx: RequestCtx, id: number, input: Input): Promise<ContactView> {
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.contacts.lockById(id), "ERR_NO_CONTACT_FOUND");
    await assertNumberFree(q, input.number, id);
    await q.contacts
      .update(id, { name: input.name, number: input.number, email: input.email, extraInfo: input.extraInfo })
      .catch(duplicated);
    const view = found(await findContactView(q, id), "ERR_NO_CONTACT_FOUND");
    afterCommit(() => emit(ctx, { action: "update", contact: view }));
    return view;
  });
}

export async function deleteContact(ctx: RequestCtx, id: number): Promise<void> {
  const q = scoped(ctx.db, ctx.companyId);
  if (!(await q.contacts.delete(id))) throw new AppError("ERR_NO_CONTACT_FOUND");
  emit(ctx, { action: "delete", contactId: id });
}
