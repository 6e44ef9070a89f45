import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { companyId } from "./columns.js";
import { users } from "./users.js";

/**
 * One row per login: the family of rotating refresh tokens. Revoking it ends the session everywhere
 * (access tokens carry its id and are checked against it).
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: uuid("id").primaryKey(),
    companyId: companyId(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokeReason: text("revoke_reason"),
  },
  (t) => [index("user_sessions_company_user_idx").on(t.companyId, t.userId)],
);

/** Refresh tokens are stored hashed; a used one that comes back is a stolen copy (reuse detection). */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => userSessions.id, { onDelete: "cascade" }),
    companyId: companyId(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("refresh_tokens_session_idx").on(t.sessionId)],
);

/** Fixed-window counters shared by every node (login attempts per IP and per email). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
  count: integer("count").notNull(),
});
