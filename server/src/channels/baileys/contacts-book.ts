import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsappContacts } from "../../db/schema/index.js";
import type { AuthRef } from "./auth-state.js";

export type BookEntry = { number: string; name: string };

/** Where a connection's address book is kept (tests pass one in memory). */
export type ContactsBookStore = {
  save(entries: BookEntry[]): Promise<void>;
  all(): Promise<BookEntry[]>;
  clear(): Promise<void>;
};

/** Rows per statement: a phone's book arrives in thousands at the first sync. */
const BATCH = 500;

export function dbContactsBook(db: Db, ref: AuthRef): ContactsBookStore {
  const mine = and(eq(whatsappContacts.companyId, ref.companyId), eq(whatsappContacts.whatsappId, ref.whatsappId));
  return {
    async save(entries) {
      for (let i = 0; i < entries.length; i += BATCH) {
        const rows = entries.slice(i, i + BATCH).map((e) => ({ ...ref, number: e.number, name: e.name, updatedAt: new Date() }));
        await db
          .insert(whatsappContacts)
          .values(rows)
          .onConflictDoUpdate({
            target: [whatsappContacts.whatsappId, whatsappContacts.number],
            // a later sync without a name keeps the one known
            set: {
              name: sql`case when excluded.name <> '' then excluded.name else ${whatsappContacts.name} end`,
              updatedAt: sql`excluded.updated_at`,
            },
          });
      }
    },
    async all() {
      return db
        .select({ number: whatsappContacts.number, name: whatsappContacts.name })
        .from(whatsappContacts)
        .where(mine)
        .orderBy(whatsappContacts.name, whatsappContacts.number);
    },
    async clear() {
      await db.delete(whatsappContacts).where(mine);
    },
  };
}
