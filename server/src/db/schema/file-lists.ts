import { foreignKey, index, integer, pgTable, serial, text, unique } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

/** secondary §3 FileList: named files with a message, sent first by campaigns. */
export const fileLists = pgTable(
  "file_lists",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    message: text("message").notNull(),
    ...timestamps,
  },
  (t) => [
    unique("file_lists_company_id_id_key").on(t.companyId, t.id),
    index("file_lists_company_name_idx").on(t.companyId, t.name),
  ],
);

/** One option of a file list: a name and, once uploaded, a file in the company's store. */
export const fileListOptions = pgTable(
  "file_list_options",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    fileListId: integer("file_list_id").notNull(),
    name: text("name").notNull(),
    /** Where the file is under the company's folder; null until uploaded. */
    path: text("path"),
    /** The name it was uploaded with (secondary §3 `path`, as the list shows it). */
    fileName: text("file_name"),
    mimetype: text("mimetype"),
    mediaType: text("media_type"),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      columns: [t.companyId, t.fileListId],
      foreignColumns: [fileLists.companyId, fileLists.id],
      name: "file_list_options_list_fk",
    }).onDelete("cascade"),
    index("file_list_options_list_idx").on(t.companyId, t.fileListId, t.id),
  ],
);
