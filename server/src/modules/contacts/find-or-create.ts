import { getTableColumns, sql } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { contacts } from "../../db/schema/index.js";

type ContactRow = typeof contacts.$inferSelect;

/** A contact as a door knows it: its number (the key, with the company), and what the door has to say of it. */
export type ContactInput = { number: string; name: string; email?: string; isGroup?: boolean; whatsappId?: number | null };

/**
 * What a door does to a contact the company already has:
 * - `keep`: nothing (a message the company sends to a number; a phone book's entry);
 * - `fill`: the name only while the contact has none but its number (a customer's push name);
 * - `overwrite`: the name unless the door's is blank (given as the number), the email when it has one
 *   (a spreadsheet import, the API's shared contact): what the staff typed is replaced only by words.
 */
export type OnExisting = "keep" | "fill" | "overwrite";

const ON_EXISTING = {
  // a no-op update, so the row comes back from the one statement
  keep: { updatedAt: sql`${contacts.updatedAt}` },
  fill: {
    name: sql`case when ${contacts.name} = ${contacts.number} or ${contacts.name} = '' then excluded.name else ${contacts.name} end`,
  },
  overwrite: {
    name: sql`case when excluded.name = excluded.number or excluded.name = '' then ${contacts.name} else excluded.name end`,
    email: sql`coalesce(nullif(excluded.email, ''), ${contacts.email})`,
    updatedAt: sql`now()`,
  },
} as const;

/**
 * The one find-or-create of contacts by (company, number), for every door that meets a number: the
 * inbound pipeline, the external API, spreadsheet and phone-book imports. One upsert per batch, so two
 * doors meeting a new number at once cannot create it twice. Rows come back with `inserted`: whether
 * this statement made them.
 */
export async function upsertContacts(
  q: Scoped,
  rows: ContactInput[],
  onExisting: OnExisting,
): Promise<(ContactRow & { inserted: boolean })[]> {
  if (rows.length === 0) return [];
  const values = rows.map((r) => ({
    companyId: q.companyId,
    number: r.number,
    name: (r.name.trim() || r.number).slice(0, 120),
    email: r.email ?? "",
    isGroup: r.isGroup ?? false,
    whatsappId: r.whatsappId ?? null,
  }));
  return (
    q.db
      .insert(contacts)
      .values(values)
      .onConflictDoUpdate({
        target: [contacts.companyId, contacts.number],
        // the unique index is partial (numbers not empty); ON CONFLICT must name the same predicate
        targetWhere: sql`${contacts.number} <> ''`,
        set: ON_EXISTING[onExisting],
      })
      // a row inserted by this statement has no deleting transaction yet (xmax 0); an updated one has
      .returning({ ...getTableColumns(contacts), inserted: sql<boolean>`(xmax = 0)` })
  );
}

/** One contact, found or created (see upsertContacts). */
export async function findOrCreateContact(
  q: Scoped,
  input: ContactInput,
  onExisting: OnExisting,
): Promise<ContactRow & { inserted: boolean }> {
  const [row] = await upsertContacts(q, [input], onExisting);
  return row;
}
