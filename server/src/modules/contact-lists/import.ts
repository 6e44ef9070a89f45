import type { Readable } from "node:stream";
import {
  ContactListImportLimits,
  type ContactListImportResult,
  emailField,
  type ImportRejection,
  Limits,
} from "@charla/contracts";
import { sql } from "drizzle-orm";
import type { RequestCtx } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contactListItems } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { isCompoundFile } from "../../lib/xls/compound-file.js";
import { normalizePhone } from "../../lib/phone.js";
import { listEvents } from "./announce.js";
import { findListView } from "./queries.js";
import { type SheetKind, type SheetRow, sheetRows } from "./spreadsheet.js";

/** A row that passed: the number normalized, the name (the number when empty) and the email checked. */
export type ImportRow = { name: string; number: string; email: string };
type Good = ImportRow;
const CHUNK = 500;

/** A row as an item, or why it is refused. An empty name takes the number, as the list shows it. */
function checkRow(r: SheetRow): Good | ImportRejection {
  const number = normalizePhone(r.number);
  if (!number) return { row: r.row, reason: "number", value: r.number.slice(0, 100) };
  const name = r.name.trim() || number;
  if ([...name].length < Limits.name.min || [...name].length > Limits.name.max) {
    return { row: r.row, reason: "name", value: name.slice(0, 100) };
  }
  let email = "";
  if (r.email.trim()) {
    const parsed = emailField.safeParse(r.email);
    if (!parsed.success) return { row: r.row, reason: "email", value: r.email.slice(0, 100) };
    email = parsed.data;
  }
  return { name, number, email };
}

/**
 * Reads a spreadsheet into a list: new numbers are added, numbers already there take the row's name and
 * email, bad rows are reported with their reason (the first `reportRejections` of them listed). All of
 * it commits together or not at all; the list's open pages see the progress and reload at the end.
 */
export async function importSpreadsheet(
  ctx: RequestCtx,
  listId: number,
  source: Readable,
  kind: SheetKind,
): Promise<ContactListImportResult> {
  found(await scoped(ctx.db, ctx.companyId).contactLists.findById(listId), "ERR_NO_CONTACT_LIST_FOUND");
  const { good, rejected } = await checkedSheetRows(source, kind);

  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.contactLists.lockById(listId), "ERR_NO_CONTACT_LIST_FOUND");
    const tell = await listEvents(q);
    let imported = 0;
    for (let i = 0; i < good.length; i += CHUNK) {
      const rows = await tx
        .insert(contactListItems)
        .values(good.slice(i, i + CHUNK).map((g) => ({ ...g, companyId: ctx.companyId, contactListId: listId })))
        .onConflictDoUpdate({
          target: [contactListItems.companyId, contactListItems.contactListId, contactListItems.number],
          set: { name: sql`excluded.name`, email: sql`excluded.email`, updatedAt: sql`now()` },
        })
        // a row inserted by this statement has no deleting transaction yet (xmax 0); an updated one has
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      imported += rows.filter((r) => r.inserted).length;
      const done = Math.min(i + CHUNK, good.length);
      // progress is told while the import runs, before anything commits: the page shows it moving
      if (good.length > CHUNK)
        ctx.events.publish(tell.item(listId, { action: "import", contactListId: listId, done, total: good.length }));
    }
    const view = await findListView(q, listId);
    await publish(tell.item(listId, { action: "reload", contactListId: listId }));
    if (view) await publish(tell.list({ action: "update", record: view }));
    return importSummary(imported, good, rejected);
  });
}

/**
 * A sheet's rows, each checked (contact lists and the contacts page import alike): the good ones, one per
 * number (a number seen again is rejected as repeated), and the rejected ones with their reason.
 */
export async function checkedSheetRows(
  source: Readable,
  kind: SheetKind,
): Promise<{ good: ImportRow[]; rejected: ImportRejection[] }> {
  const byNumber = new Map<string, Good>();
  const rejected: ImportRejection[] = [];
  for await (const r of sheetRows(source, kind, ContactListImportLimits.rows)) {
    const checked = checkRow(r);
    if ("reason" in checked) rejected.push(checked);
    else if (byNumber.has(checked.number)) rejected.push({ row: r.row, reason: "duplicate", value: checked.number });
    else byNumber.set(checked.number, checked);
  }
  return { good: [...byNumber.values()], rejected };
}

/** What an import answers: rows added, rows that updated one already there, the first rejections and their count. */
export function importSummary(imported: number, good: ImportRow[], rejected: ImportRejection[]): ContactListImportResult {
  return {
    imported,
    updated: good.length - imported,
    rejected: rejected.slice(0, ContactListImportLimits.reportRejections),
    rejectedCount: rejected.length,
  };
}

/**
 * The file's kind by its bytes, never by its name: a zip is .xlsx, an OLE compound file is the old
 * binary .xls (a .doc too, which then has no workbook in it), text is .csv; anything else is refused.
 */
export function sheetKind(head: Buffer): SheetKind {
  if (head.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))) return "xlsx";
  if (isCompoundFile(head)) return "xls";
  if (head.length > 0 && !head.includes(0)) return "csv";
  throw new AppError("ERR_IMPORT_FORMAT");
}
