import { type ContactEvent, type ContactForm, type ContactView, normalizeNumber } from "@charla/contracts";
import { eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { contacts, whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { findContactView, presentContacts } from "./queries.js";

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

/** Contacts are the whole company's: every user hears of a change. */
export function contactChanged(companyId: number, change: ContactEvent): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience: "company", area: "contact", change };
}

export function createContact(ctx: RequestCtx, input: Input): Promise<ContactView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    await assertNumberFree(q, input.number);
    const row = await q.contacts
      .insert({ name: input.name, number: input.number, email: input.email, extraInfo: input.extraInfo })
      .catch(duplicated);
    const view = found(await findContactView(q, row.id), "ERR_NO_CONTACT_FOUND");
    await publish(contactChanged(ctx.companyId, { action: "create", contact: view }));
    return view;
  });
}

export function updateContact(ctx: RequestCtx, id: number, input: Input): Promise<ContactView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.contacts.lockById(id), "ERR_NO_CONTACT_FOUND");
    await assertNumberFree(q, input.number, id);
    await q.contacts
      .update(id, { name: input.name, number: input.number, email: input.email, extraInfo: input.extraInfo })
      .catch(duplicated);
    const view = found(await findContactView(q, id), "ERR_NO_CONTACT_FOUND");
    await publish(contactChanged(ctx.companyId, { action: "update", contact: view }));
    return view;
  });
}

export async function deleteContact(ctx: RequestCtx, id: number): Promise<void> {
  const q = scoped(ctx.db, ctx.companyId);
  if (!(await q.contacts.delete(id))) throw new AppError("ERR_NO_CONTACT_FOUND");
  ctx.events.publish(contactChanged(ctx.companyId, { action: "delete", contactId: id }));
}

const IMPORT_BATCH = 1000;

/**
 * The connection's address book as contacts (the default connection's unless one is named); numbers
 * already present are left as they are.
 */
export async function importContacts(
  ctx: RequestCtx,
  whatsappId: number | undefined,
): Promise<{ imported: number; existing: number }> {
  const q = scoped(ctx.db, ctx.companyId);
  const [wa] = await q.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(q.whatsapps.where(whatsappId ? eq(whatsapps.id, whatsappId) : eq(whatsapps.isDefault, true)))
    .limit(1);
  if (!wa) throw new AppError(whatsappId ? "ERR_NO_WAPP_FOUND" : "ERR_NO_DEF_WAPP_FOUND");
  const driver = await ctx.sessions.driverFor(ctx.companyId, wa.id);
  if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  let book: { name: string; number: string }[];
  try {
    book = await driver.contactsBook();
  } catch {
    throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  }
  const rows = book
    .map((c) => ({ name: c.name.trim().slice(0, 50) || normalizeNumber(c.number), number: normalizeNumber(c.number) }))
    .filter((c) => c.number.length >= 8 && c.number.length <= 50);
  const unique = [...new Map(rows.map((c) => [c.number, c])).values()];
  // in slices: one statement for a big address book would pass PostgreSQL's parameter limit
  const inserted: (typeof contacts.$inferSelect)[] = [];
  for (let i = 0; i < unique.length; i += IMPORT_BATCH) {
    const slice = unique.slice(i, i + IMPORT_BATCH).map((c) => ({ ...c, companyId: ctx.companyId, whatsappId: wa.id }));
    inserted.push(...(await ctx.db.insert(contacts).values(slice).onConflictDoNothing().returning()));
  }
  if (inserted.length) {
    const views = await presentContacts(q, inserted);
    for (const contact of views) ctx.events.publish(contactChanged(ctx.companyId, { action: "create", contact }));
  }
  return { imported: inserted.length, existing: unique.length - inserted.length };
}
