import {
  type ContactListForm,
  type ContactListItemForm,
  type ContactListItemView,
  type ContactListView,
  V,
} from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contactListItems, contactLists } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { Publish } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { normalizePhone } from "../../lib/phone.js";
import { type ListEvents, listEvents } from "./announce.js";
import { findListView, itemView } from "./queries.js";

type ListInput = z.output<typeof ContactListForm>;
type ItemInput = z.output<typeof ContactListItemForm>;

/** The form's digits as WhatsApp addresses them (lib/phone.ts), or the form's error on the number. */
function whatsappNumber(digits: string): string {
  const number = normalizePhone(digits);
  if (!number) throw new AppError("ERR_VALIDATION", { issues: [{ path: "number", message: V.invalidPhone }] });
  return number;
}

function numberTaken(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_CONTACT_LIST_ITEM_EXISTS");
  throw err;
}

export function createList(ctx: RequestCtx, input: ListInput): Promise<ContactListView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const row = await q.contactLists.insert({ name: input.name });
    const view = found(await findListView(q, row.id), "ERR_NO_CONTACT_LIST_FOUND");
    await publish((await listEvents(q)).list({ action: "create", record: view }));
    return view;
  });
}

export function updateList(ctx: RequestCtx, id: number, input: ListInput): Promise<ContactListView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const [row] = await tx
      .update(contactLists)
      .set({ name: input.name, updatedAt: new Date() })
      .where(q.contactLists.where(eq(contactLists.id, id)))
      .returning({ id: contactLists.id });
    if (!row) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
    const view = found(await findListView(q, id), "ERR_NO_CONTACT_LIST_FOUND");
    await publish((await listEvents(q)).list({ action: "update", record: view }));
    return view;
  });
}

/** Deleting a list deletes its numbers (the items' foreign key cascades). */
export function deleteList(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const [gone] = await tx
      .delete(contactLists)
      .where(q.contactLists.where(eq(contactLists.id, id)))
      .returning({ id: contactLists.id });
    if (!gone) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
    await publish((await listEvents(q)).list({ action: "delete", id }));
  });
}

/** The list's count moved: its row on the lists page follows (nothing when the list is gone). */
async function countChanged(q: ReturnType<typeof scoped>, tell: ListEvents, listId: number, publish: Publish) {
  const view = await findListView(q, listId);
  if (view) await publish(tell.list({ action: "update", record: view }));
}

export function createItem(ctx: RequestCtx, listId: number, input: ItemInput): Promise<ContactListItemView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    // a list of another company is not found: its id answers 404 like a missing one
    found(await q.contactLists.lockById(listId), "ERR_NO_CONTACT_LIST_FOUND");
    const row = await q.contactListItems
      .insert({ contactListId: listId, name: input.name, number: whatsappNumber(input.number), email: input.email })
      .catch(numberTaken);
    const view = itemView(row);
    const tell = await listEvents(q);
    await publish(tell.item(listId, { action: "create", record: view }));
    await countChanged(q, tell, listId, publish);
    return view;
  });
}

export function updateItem(ctx: RequestCtx, id: number, input: ItemInput): Promise<ContactListItemView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const current = found(await q.contactListItems.lockById(id), "ERR_NO_CONTACT_LIST_ITEM_FOUND");
    const number = whatsappNumber(input.number);
    const [row] = await tx
      .update(contactListItems)
      .set({
        name: input.name,
        number,
        email: input.email,
        // a new number has not been asked about yet
        isWhatsappValid: number === current.number ? current.isWhatsappValid : null,
        updatedAt: new Date(),
      })
      .where(q.contactListItems.where(eq(contactListItems.id, id)))
      .returning()
      .catch(numberTaken);
    const view = itemView(row);
    await publish((await listEvents(q)).item(row.contactListId, { action: "update", record: view }));
    return view;
  });
}

export function deleteItem(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const [gone] = await tx
      .delete(contactListItems)
      .where(q.contactListItems.where(eq(contactListItems.id, id)))
      .returning({ id: contactListItems.id, listId: contactListItems.contactListId });
    if (!gone) throw new AppError("ERR_NO_CONTACT_LIST_ITEM_FOUND");
    const tell = await listEvents(q);
    await publish(tell.item(gone.listId, { action: "delete", id, contactListId: gone.listId }));
    await countChanged(q, tell, gone.listId, publish);
  });
}
