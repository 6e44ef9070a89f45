import type { ContactListImportResult } from "@charla/contracts";
import { inArray, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { RequestCtx } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contacts } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { checkedSheetRows, importSummary } from "../contact-lists/import.js";
import { withUploadedSheet } from "../contact-lists/uploaded-sheet.js";
import { presentContacts } from "./queries.js";
import { contactChanged } from "./service.js";

const CHUNK = 500;
/** Past this many changes the pages are told to read their lists again instead of hearing each contact. */
const ANNOUNCE_EACH_UP_TO = 200;

/**
 * Multipart `file`: the contacts page's CSV export (name, number, email; `;` or `,`) or any sheet the
 * contact lists take, read and checked by the same code as theirs. New numbers become contacts; numbers
 * already there take the row's name and email only where the row has them (a sheet of bare numbers
 * must not wipe what the staff wrote), and the answer is the contact lists' summary.
 */
export async function importContactsUpload(req: FastifyRequest): Promise<ContactListImportResult> {
  return withUploadedSheet(req, async (source, kind) => {
    const { good, rejected } = await checkedSheetRows(source, kind);
    return importSummary(await upsertContacts(req.ctx, good), good, rejected);
  });
}

async function upsertContacts(ctx: RequestCtx, good: { name: string; number: string; email: string }[]): Promise<number> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    let imported = 0;
    const touched: { id: number; inserted: boolean }[] = [];
    for (let i = 0; i < good.length; i += CHUNK) {
      const rows = await tx
        .insert(contacts)
        .values(good.slice(i, i + CHUNK).map((g) => ({ ...g, companyId: ctx.companyId })))
        .onConflictDoUpdate({
          target: [contacts.companyId, contacts.number],
          // the unique index is partial (numbers not empty); ON CONFLICT must name the same predicate
          targetWhere: sql`${contacts.number} <> ''`,
          // an empty name cell arrives as the number (checkRow): the stored name stays then
          set: {
            name: sql`case when excluded.name = excluded.number then ${contacts.name} else excluded.name end`,
            email: sql`coalesce(nullif(excluded.email, ''), ${contacts.email})`,
            updatedAt: sql`now()`,
          },
        })
        // a row inserted by this statement has no deleting transaction yet (xmax 0); an updated one has
        .returning({ id: contacts.id, inserted: sql<boolean>`(xmax = 0)` });
      imported += rows.filter((r) => r.inserted).length;
      touched.push(...rows);
    }
    if (touched.length > ANNOUNCE_EACH_UP_TO) {
      await publish(contactChanged(ctx.companyId, { action: "reload" }));
    } else if (touched.length) {
      const created = new Set(touched.filter((r) => r.inserted).map((r) => r.id));
      const views = await presentContacts(
        q,
        await tx
          .select()
          .from(contacts)
          .where(q.contacts.where(inArray(contacts.id, [...new Set(touched.map((r) => r.id))]))),
      );
      for (const contact of views) {
        await publish(contactChanged(ctx.companyId, { action: created.has(contact.id) ? "create" : "update", contact }));
      }
    }
    return imported;
  });
}
