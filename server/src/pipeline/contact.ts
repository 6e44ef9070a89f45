import { sql } from "drizzle-orm";
import type { InboundMessage } from "../channels/driver.js";
import type { Scoped } from "../db/scoped.js";
import { contacts } from "../db/schema/index.js";

/**
 * Finds or creates the contact by (company, number) in one upsert, so two messages of a new contact
 * arriving together cannot create it twice. The push name refreshes the name only when the contact
 * writes (a message sent from the company's phone carries the company's own name).
 */
export async function upsertContact(q: Scoped, whatsappId: number, msg: InboundMessage) {
  const name = (msg.name?.trim() || msg.number).slice(0, 120);
  const [row] = await q.db
    .insert(contacts)
    .values({ companyId: q.companyId, number: msg.number, name, isGroup: !!msg.isGroup, whatsappId })
    .onConflictDoUpdate({
      target: [contacts.companyId, contacts.number],
      targetWhere: sql`${contacts.number} <> ''`,
      set:
        msg.fromMe || !msg.name?.trim()
          ? { updatedAt: sql`${contacts.updatedAt}` }
          : {
              name: sql`case when ${contacts.name} = ${contacts.number} or ${contacts.name} = '' then excluded.name else ${contacts.name} end`,
            },
    })
    .returning();
  return row;
}
