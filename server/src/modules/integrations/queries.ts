import type { DeliveriesPage, DeliveryView, IntegrationsPage, IntegrationView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import { asc, count, desc, eq, ilike, inArray, type SQL } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { integrationDeliveries, queueIntegrations } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import type { SecretBox } from "../../lib/secret-box.js";

export type IntegrationRow = typeof queueIntegrations.$inferSelect;
export type DeliveryRow = typeof integrationDeliveries.$inferSelect;

/** The delivery log pages: newest first, this many a page. */
export const DELIVERIES_PAGE_SIZE = 20;

export const deliveryView = (d: DeliveryRow): DeliveryView => ({
  id: d.id,
  webhookId: d.webhookId,
  event: d.event === "test" ? "test" : "message",
  status: d.status,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  ticketId: d.ticketId,
  createdAt: d.createdAt.toISOString(),
  lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
});

/** The stored secret, or "" when it cannot be opened (the install's SECRETS_KEY changed): never a 500. */
export function openSecret(secrets: SecretBox, sealed: string): string {
  try {
    return secrets.open(sealed);
  } catch {
    return "";
  }
}

/** Each integration's newest delivery (one statement, by the integration's delivery index). */
async function lastDeliveries(q: Scoped, ids: number[]): Promise<Map<number, DeliveryRow>> {
  if (!ids.length) return new Map();
  const rows = await q.db
    .selectDistinctOn([integrationDeliveries.integrationId])
    .from(integrationDeliveries)
    .where(q.integrationDeliveries.where(inArray(integrationDeliveries.integrationId, ids)))
    .orderBy(integrationDeliveries.integrationId, desc(integrationDeliveries.id));
  return new Map(rows.map((r) => [r.integrationId, r]));
}

export async function integrationViews(q: Scoped, secrets: SecretBox, rows: IntegrationRow[]): Promise<IntegrationView[]> {
  const last = await lastDeliveries(
    q,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const d = last.get(r.id);
    return {
      id: r.id,
      type: r.type,
      name: r.name,
      projectName: r.projectName,
      urlN8N: r.urlN8N,
      apikey: openSecret(secrets, r.apikeySealed),
      typebotSlug: r.typebotSlug,
      typebotExpires: r.typebotExpires,
      typebotDelayMessage: r.typebotDelayMessage,
      typebotKeywordFinish: r.typebotKeywordFinish,
      typebotUnknownMessage: r.typebotUnknownMessage,
      jsonContent: r.jsonContent,
      language: r.language,
      lastDelivery: d ? deliveryView(d) : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

export async function findIntegrationView(q: Scoped, secrets: SecretBox, id: number): Promise<IntegrationView | null> {
  const row = await q.queueIntegrations.findById(id);
  return row ? (await integrationViews(q, secrets, [row]))[0] : null;
}

/** GET /queueIntegration: 20 a page by name, searched by name. */
export async function pageIntegrations(
  q: Scoped,
  secrets: SecretBox,
  search: string,
  pageNumber: number,
): Promise<IntegrationsPage> {
  const where: SQL | undefined = search ? ilike(queueIntegrations.name, `%${escapeLike(search)}%`) : undefined;
  const size = Limits.pageSize;
  const [rows, [{ n }]] = await Promise.all([
    q.db
      .select()
      .from(queueIntegrations)
      .where(q.queueIntegrations.where(where))
      .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
      .limit(size + 1)
      .offset((pageNumber - 1) * size),
    q.db.select({ n: count() }).from(queueIntegrations).where(q.queueIntegrations.where(where)),
  ]);
  return {
    queueIntegrations: await integrationViews(q, secrets, rows.slice(0, size)),
    hasMore: rows.length > size,
    count: toCount(n),
  };
}

/** GET /queueIntegration/{id}/deliveries: the integration's log, newest first. */
export async function pageDeliveries(q: Scoped, integrationId: number, pageNumber: number): Promise<DeliveriesPage> {
  const rows = await q.db
    .select()
    .from(integrationDeliveries)
    .where(q.integrationDeliveries.where(eq(integrationDeliveries.integrationId, integrationId)))
    .orderBy(desc(integrationDeliveries.id))
    .limit(DELIVERIES_PAGE_SIZE + 1)
    .offset((pageNumber - 1) * DELIVERIES_PAGE_SIZE);
  return { deliveries: rows.slice(0, DELIVERIES_PAGE_SIZE).map(deliveryView), hasMore: rows.length > DELIVERIES_PAGE_SIZE };
}
