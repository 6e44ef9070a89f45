import { type SQL, and, eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client.js";
import {
  campaignShippings,
  campaigns,
  chatMessages,
  chatUsers,
  chats,
  contactListItems,
  fileListOptions,
  fileLists,
  jobs,
  contactLists,
  contacts,
  messages,
  queueOptions,
  queues,
  quickMessages,
  schedules,
  settings,
  tags,
  ticketNotes,
  userRatings,
  tickets,
  ticketTags,
  ticketTracking,
  userQueues,
  users,
  userSessions,
  whatsapps,
  prompts,
  queueIntegrations,
  integrationDeliveries,
  externalApiRequests,
  typebotSessions,
} from "./schema/index.js";

type TenantTable = PgTable & { companyId: PgColumn; id: PgColumn };
type Row<T extends TenantTable> = T["$inferSelect"];
type NewRow<T extends TenantTable> = Omit<T["$inferInsert"], "companyId">;

/**
 * The only door to tenant tables: every statement made here is bound to one company, so a foreign id
 * is simply not found. Finders with filters live in each module's queries.ts and start from `where()`.
 */
function tenantTable<T extends TenantTable>(db: Db | Tx, table: T, companyId: number) {
  const owned = (...conds: (SQL | undefined)[]) => and(eq(table.companyId, companyId), ...conds) as SQL;
  // Drizzle's generic builders lose the row type on an abstract table; the casts restore it.
  const d = db as Db;
  const t = table as unknown as PgTable & { companyId: PgColumn; id: PgColumn; updatedAt?: PgColumn };
  return {
    table,
    where: owned,
    async findById(id: number): Promise<Row<T> | null> {
      const rows = await d
        .select()
        .from(t)
        .where(owned(eq(t.id, id)))
        .limit(1);
      return (rows[0] as Row<T>) ?? null;
    },
    /** SELECT … FOR UPDATE: serialises concurrent changes of one row. */
    async lockById(id: number): Promise<Row<T> | null> {
      const rows = await d
        .select()
        .from(t)
        .where(owned(eq(t.id, id)))
        .limit(1)
        .for("update");
      return (rows[0] as Row<T>) ?? null;
    },
    async insert(values: NewRow<T>): Promise<Row<T>> {
      const rows = await d
        .insert(t)
        .values({ ...values, companyId } as never)
        .returning();
      return rows[0] as Row<T>;
    },
    async update(id: number, values: Partial<NewRow<T>>): Promise<Row<T> | null> {
      const patch = "updatedAt" in t ? { ...values, updatedAt: new Date() } : values;
      const rows = await d
        .update(t)
        .set(patch as never)
        .where(owned(eq(t.id, id)))
        .returning();
      return (rows[0] as Row<T>) ?? null;
    },
    async delete(id: number): Promise<boolean> {
      const rows = await d
        .delete(t)
        .where(owned(eq(t.id, id)))
        .returning({ id: t.id });
      return rows.length > 0;
    },
  };
}

export function scoped(db: Db | Tx, companyId: number) {
  return {
    companyId,
    db,
    users: tenantTable(db, users, companyId),
    queues: tenantTable(db, queues, companyId),
    queueOptions: tenantTable(db, queueOptions, companyId),
    whatsapps: tenantTable(db, whatsapps, companyId),
    settings: tenantTable(db, settings, companyId),
    contacts: tenantTable(db, contacts, companyId),
    tickets: tenantTable(db, tickets, companyId),
    ticketTracking: tenantTable(db, ticketTracking, companyId),
    messages: tenantTable(db, messages, companyId),
    ticketNotes: tenantTable(db, ticketNotes, companyId),
    userRatings: tenantTable(db, userRatings, companyId),
    tags: tenantTable(db, tags, companyId),
    quickMessages: tenantTable(db, quickMessages, companyId),
    schedules: tenantTable(db, schedules, companyId),
    contactLists: tenantTable(db, contactLists, companyId),
    contactListItems: tenantTable(db, contactListItems, companyId),
    campaigns: tenantTable(db, campaigns, companyId),
    fileLists: tenantTable(db, fileLists, companyId),
    fileListOptions: tenantTable(db, fileListOptions, companyId),
    campaignShippings: tenantTable(db, campaignShippings, companyId),
    chats: tenantTable(db, chats, companyId),
    chatUsers: tenantTable(db, chatUsers, companyId),
    chatMessages: tenantTable(db, chatMessages, companyId),
    ticketTags: {
      table: ticketTags,
      where: (...c: (SQL | undefined)[]) => and(eq(ticketTags.companyId, companyId), ...c) as SQL,
    },
    /** Join rows have no id of their own; only the company-bound condition is offered. */
    userQueues: {
      table: userQueues,
      where: (...c: (SQL | undefined)[]) => and(eq(userQueues.companyId, companyId), ...c) as SQL,
    },
    userSessions: {
      table: userSessions,
      where: (...c: (SQL | undefined)[]) => and(eq(userSessions.companyId, companyId), ...c) as SQL,
    },
    jobs: tenantTable(db, jobs, companyId),
    prompts: tenantTable(db, prompts, companyId),
    queueIntegrations: tenantTable(db, queueIntegrations, companyId),
    integrationDeliveries: tenantTable(db, integrationDeliveries, companyId),
    externalApiRequests: tenantTable(db, externalApiRequests, companyId),
    typebotSessions: {
      table: typebotSessions,
      where: (...c: (SQL | undefined)[]) => and(eq(typebotSessions.companyId, companyId), ...c) as SQL,
    },
  };
}

export type Scoped = ReturnType<typeof scoped>;

/** The caller's company's door, for route handlers. */
export const scopedFor = (req: { ctx: { db: Db | Tx; companyId: number } }) => scoped(req.ctx.db, req.ctx.companyId);
