import { sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

/** Named lists of numbers, the audience of campaigns (secondary §2 Contact lists). */
export const contactLists = pgTable(
  "contact_lists",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    ...timestamps,
  },
  (t) => [
    // the items' composite key points here: an item can only belong to a list of its own company
    unique("contact_lists_company_id_id_key").on(t.companyId, t.id),
    index("contact_lists_company_name_idx").on(t.companyId, t.name),
  ],
);

/**
 * One number of a list. A number is in a list once (an import updates it); `isWhatsappValid` is null
 * until the background check has asked the list's connection about it.
 */
export const contactListItems = pgTable(
  "contact_list_items",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    contactListId: integer("contact_list_id").notNull(),
    name: text("name").notNull(),
    number: text("number").notNull(),
    email: text("email").notNull().default(""),
    isWhatsappValid: boolean("is_whatsapp_valid"),
    /**
     * When a node took the number to ask its connection (the ask is outside any transaction); another
     * node takes it again only when this is old, so a node that died mid-check does not strand it.
     */
    checkClaimedAt: timestamp("check_claimed_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      columns: [t.companyId, t.contactListId],
      foreignColumns: [contactLists.companyId, contactLists.id],
      name: "contact_list_items_list_fk",
    }).onDelete("cascade"),
    uniqueIndex("contact_list_items_list_number_key").on(t.companyId, t.contactListId, t.number),
    index("contact_list_items_list_name_idx").on(t.companyId, t.contactListId, t.name, t.id),
    // the background check's queue: numbers not asked yet
    index("contact_list_items_unchecked_idx").on(t.companyId, t.contactListId).where(sql`is_whatsapp_valid is null`),
  ],
);
