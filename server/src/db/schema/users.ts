import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { queues } from "./queues.js";
import { whatsapps } from "./whatsapps.js";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    // stored lower-cased; login is by email alone, so it is unique across companies
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    profile: text("profile").notNull().default("user"),
    super: boolean("super").notNull().default(false),
    allTicket: text("all_ticket").notNull().default("disable"),
    // the service checks the connection is the user's company's; the key only keeps it consistent
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    profileImage: text("profile_image"),
    online: boolean("online").notNull().default(false),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    index("users_company_name_idx").on(t.companyId, t.name),
    unique("users_company_id_id_key").on(t.companyId, t.id),
  ],
);

export const userQueues = pgTable(
  "user_queues",
  {
    companyId: companyId(),
    userId: integer("user_id").notNull(),
    queueId: integer("queue_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index("user_queues_company_queue_idx").on(t.companyId, t.queueId),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.companyId, t.queueId], foreignColumns: [queues.companyId, queues.id] }).onDelete("cascade"),
  ],
);
