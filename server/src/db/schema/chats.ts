import { foreignKey, index, integer, pgTable, serial, text, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { users } from "./users.js";

/** secondary §3 Chat: an internal conversation between a company's users; its owner edits and deletes it. */
export const chats = pgTable(
  "chats",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    uuid: uuid("uuid").notNull().defaultRandom(),
    title: text("title").notNull(),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    lastMessage: text("last_message").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    unique("chats_company_id_id_key").on(t.companyId, t.id),
    uniqueIndex("chats_uuid_key").on(t.uuid),
    index("chats_company_updated_idx").on(t.companyId, t.updatedAt),
  ],
);

/** A participant of a chat, with what they have not read yet. */
export const chatUsers = pgTable(
  "chat_users",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    chatId: integer("chat_id").notNull(),
    userId: integer("user_id").notNull(),
    unreads: integer("unreads").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.chatId], foreignColumns: [chats.companyId, chats.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete("cascade"),
    uniqueIndex("chat_users_chat_user_key").on(t.chatId, t.userId),
    index("chat_users_company_user_idx").on(t.companyId, t.userId),
  ],
);

/** secondary §3 ChatMessage. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    chatId: integer("chat_id").notNull(),
    senderId: integer("sender_id").references(() => users.id, { onDelete: "set null" }),
    message: text("message").notNull().default(""),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.chatId], foreignColumns: [chats.companyId, chats.id] }).onDelete("cascade"),
    index("chat_messages_company_chat_idx").on(t.companyId, t.chatId, t.id),
  ],
);
