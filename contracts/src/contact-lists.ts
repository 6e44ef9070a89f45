import { z } from "zod";
import { IdSchema, V, boundedName, emailField, requiredName, SearchParam, text } from "./common.js";
import { Limits } from "./limits.js";
import { normalizeNumber } from "./numbers.js";

/** secondary §5 ContactList: name required ('Requerido'), 2 to 50 ('Demasiado corto', 'Demasiado largo'). */
export const ContactListForm = z.object({ name: boundedName(V.listNameShort, V.listNameLong) });
export type ContactListForm = z.input<typeof ContactListForm>;

/** A list's number: digits only, 8 to 50 of them (secondary §5 ContactListItem). */
export const listItemNumber = text({ error: V.required })
  .trim()
  .transform(normalizeNumber)
  .pipe(text().min(1, V.required).min(Limits.contactNumber.min, V.tooShort).max(Limits.contactNumber.max, V.tooLong));

/** secondary §5 ContactListItem: name 2–50, number 8–50, email valid when given ('Invalid email'). */
export const ContactListItemForm = z.object({
  name: requiredName,
  number: listItemNumber,
  email: z
    .union([z.literal(""), emailField])
    .optional()
    .default(""),
});
export type ContactListItemForm = z.input<typeof ContactListItemForm>;

/** POST /contact-list-items: the item and the list it goes to (secondary §7). */
export const ContactListItemCreate = ContactListItemForm.extend({ contactListId: IdSchema });
export type ContactListItemCreate = z.input<typeof ContactListItemCreate>;

export const ContactListItemsQuery = z.object({
  searchParam: SearchParam,
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  contactListId: IdSchema,
});

/** secondary §3 ContactList. */
export type ContactListView = { id: number; name: string; contactsCount: number; createdAt: string; updatedAt: string };
export type ContactListsPage = { records: ContactListView[]; hasMore: boolean; count: number };

/**
 * secondary §3 ContactListItem. `isWhatsappValid` is null until the list's connection has answered
 * whether the number has WhatsApp (checked in the background after each save or import).
 */
export type ContactListItemView = {
  id: number;
  contactListId: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
  createdAt: string;
  updatedAt: string;
};
export type ContactListItemsPage = { contacts: ContactListItemView[]; hasMore: boolean; count: number };

/** What an import did, row by row (secondary §2: imported, updated and rejected with the reason). */
export type ImportRejection = { row: number; reason: "name" | "number" | "email" | "duplicate"; value: string };
export type ContactListImportResult = {
  imported: number;
  updated: number;
  rejected: ImportRejection[];
  /** Rows beyond the report's length are counted, not listed. */
  rejectedCount: number;
};

/** `company-{id}-ContactList` (secondary §7). */
export type ContactListEvent = { action: "create" | "update"; record: ContactListView } | { action: "delete"; id: number };

/**
 * `company-{id}-ContactListItem` (secondary §7); `reload` tells a list's open page to read its items
 * again (an import, a background check of many numbers).
 */
export type ContactListItemEvent =
  | { action: "create" | "update"; record: ContactListItemView }
  | { action: "delete"; id: number; contactListId: number }
  | { action: "reload"; contactListId: number }
  /** An import under way: rows written so far of those read. */
  | { action: "import"; contactListId: number; done: number; total: number };

/** Rows a spreadsheet import reads at most, and the largest file taken. */
export const ContactListImportLimits = { rows: 50_000, bytes: 10 * 1024 * 1024, reportRejections: 200 } as const;
