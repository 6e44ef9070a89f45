import { type SQL, and, eq, isNull, sql } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { ticketTracking } from "../../db/schema/index.js";

type Episode = typeof ticketTracking.$inferSelect;
type EpisodeFacts = Partial<Pick<Episode, "whatsappId" | "queueId" | "userId" | "startedAt" | "finishedAt">>;
type EpisodeChange = Omit<EpisodeFacts, "startedAt"> & { whatsappId: number | null; startedAt?: Date | null | SQL };

/** An episode's start kept when it has one (a transfer between agents), else now. */
export const STARTED_OR_NOW = sql`coalesce(${ticketTracking.startedAt}, now())`;

/**
 * A ticket's tracking episodes (behaviours: Ticket tracking), the dashboard's facts: one per run from
 * queued to started to finished; reopening starts a new one. Written only by the transitions
 * (transitions.ts) and, for a customer's brand-new ticket, by the inbound statement (pipeline/writer.ts),
 * which inserts the same first episode as `startEpisode` with only `queuedAt`.
 */
export async function startEpisode(q: Scoped, ticketId: number, facts: EpisodeFacts & { whatsappId: number | null }) {
  await q.ticketTracking.insert({ ticketId, queuedAt: new Date(), ...facts });
}

/**
 * The ticket's open episode (not finished yet) takes the change. A ticket without one (made before
 * tracking, or whose episode a closing finished) gets a new one instead, queued now, so a change is
 * never lost to the dashboard.
 */
export async function changeEpisode(q: Scoped, ticketId: number, change: EpisodeChange) {
  const now = new Date();
  const changed = await q.db
    .update(ticketTracking)
    .set({ ...change, updatedAt: now })
    .where(q.ticketTracking.where(eq(ticketTracking.ticketId, ticketId), isNull(ticketTracking.finishedAt)))
    .returning({ id: ticketTracking.id });
  if (changed.length > 0) return;
  const startedAt =
    change.startedAt === undefined || change.startedAt === null || change.startedAt instanceof Date ? change.startedAt : now;
  await q.ticketTracking.insert({ ticketId, queuedAt: now, ...change, startedAt });
}

/** The area an open episode is counted in (the bot's choice, delayed routing): nothing to start if none is open. */
export async function episodeQueue(q: Scoped, ticketId: number, queueId: number | null) {
  await q.db
    .update(ticketTracking)
    .set({ queueId, updatedAt: new Date() })
    .where(q.ticketTracking.where(and(eq(ticketTracking.ticketId, ticketId), isNull(ticketTracking.finishedAt))));
}

/** The ticket's latest episode was rated (behaviours: Rating). */
export async function rateEpisode(q: Scoped, ticketId: number, at: Date) {
  await q.db
    .update(ticketTracking)
    .set({ rated: true, ratingAt: at, updatedAt: at })
    .where(
      q.ticketTracking.where(
        eq(
          ticketTracking.id,
          sql`(select max(${ticketTracking.id}) from ${ticketTracking}
            where ${ticketTracking.companyId} = ${q.companyId} and ${ticketTracking.ticketId} = ${ticketId})`,
        ),
      ),
    );
}
