import { TagForm, TagsSyncForm, type TagView, can } from "@charla/contracts";
import { asc, count, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { toCount } from "../../db/client.js";
import { scoped, scopedFor } from "../../db/scoped.js";
import { tags, tickets, ticketTags } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { ticketChangeBroadcast } from "../tickets/broadcast.js";
import { visibleTicket } from "../tickets/queries.js";
import { loadViewer } from "../tickets/viewer.js";

const tenant = scopedFor;

/** The tags the chat header picks from and creates (the Tags page is a later issue). */
export async function tagsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "tags.use" } as const;

  r.get("/tags/list", { config: use }, async (req): Promise<TagView[]> => {
    const q = tenant(req);
    const rows = await q.db
      .select({
        id: tags.id,
        name: tags.name,
        color: tags.color,
        kanban: tags.kanban,
        userId: tags.userId,
        n: count(ticketTags.ticketId),
      })
      .from(tags)
      .leftJoin(ticketTags, eq(ticketTags.tagId, tags.id))
      .where(q.tags.where())
      .groupBy(tags.id)
      .orderBy(asc(tags.name));
    return rows.map(({ n, ...t }) => ({ ...t, ticketsCount: toCount(n) }));
  });

  r.post("/tags", { schema: { body: TagForm }, config: use }, async (req, reply) => {
    const q = tenant(req);
    // the Kanban flag is for admins and supervisors (core §6 tag modal); others' tags are plain
    const kanban = can(req.ctx.user, "tag-modal:kanban") ? req.body.kanban : 0;
    const row = await q.tags.insert({ ...req.body, kanban, userId: req.ctx.user.id }).catch((err) => {
      if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_TAG_NAME_EXISTS");
      throw err;
    });
    const view: TagView = {
      id: row.id,
      name: row.name,
      color: row.color,
      kanban: row.kanban,
      userId: row.userId,
      ticketsCount: 0,
    };
    return reply.status(201).send(view);
  });

  /** Replaces a ticket's tags with exactly the given set. */
  r.post("/tags/sync", { schema: { body: TagsSyncForm }, config: use }, async (req) => {
    return withTransaction(req.ctx.db, async (tx, afterCommit) => {
      const q = scoped(tx, req.ctx.companyId);
      const ticket = await visibleTicket(q, await loadViewer(q, req.ctx.user), { id: req.body.ticketId });
      await q.tickets.lockById(ticket.id);
      const wanted = [...new Set(req.body.tags.map((t) => t.id))];
      const existing = wanted.length
        ? await q.db
            .select({ id: tags.id })
            .from(tags)
            .where(q.tags.where(inArray(tags.id, wanted)))
        : [];
      if (existing.length !== wanted.length) throw new AppError("ERR_NO_TAG_FOUND");
      await tx.delete(ticketTags).where(q.ticketTags.where(eq(ticketTags.ticketId, ticket.id)));
      if (wanted.length)
        await tx.insert(ticketTags).values(wanted.map((tagId) => ({ companyId: q.companyId, ticketId: ticket.id, tagId })));
      const [updated] = await tx
        .update(tickets)
        .set({ updatedAt: ticket.updatedAt })
        .where(q.tickets.where(eq(tickets.id, ticket.id)))
        .returning();
      const change = await ticketChangeBroadcast(req.ctx, q, ticket, updated);
      afterCommit(change.emit);
      return change.view;
    });
  });
}
