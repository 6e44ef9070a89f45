import type { ConnectionProvider, ConnectionStatus, ConnectionView, StatusReason } from "@charla/contracts";
import { asc, eq, inArray } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { queues, whatsappQueues, type whatsapps } from "../../db/schema/index.js";
import { type CloudViewHost, cloudView } from "../cloud/settings.js";

type Row = typeof whatsapps.$inferSelect;

export const numberOfToken = (token: string) => (token ? Buffer.from(token, "base64").toString("utf8") : "");
export const tokenOfNumber = (number: string) => Buffer.from(number, "utf8").toString("base64");

/** Connections with their queues, in one extra query; a Cloud API one with its settings (secrets masked). */
export async function presentConnections(q: Scoped, host: CloudViewHost, rows: Row[]): Promise<ConnectionView[]> {
  const links = rows.length
    ? await q.db
        .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color })
        .from(whatsappQueues)
        .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
        .where(
          q.queues.where(
            inArray(
              whatsappQueues.whatsappId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(asc(queues.orderQueue), asc(queues.name))
    : [];
  return rows.map((r) => ({
    ...cloudFields(host, r),
    id: r.id,
    name: r.name,
    status: r.status as ConnectionStatus,
    statusReason: r.statusReason as StatusReason,
    qrcode: r.qrcode,
    retries: r.retries,
    isDefault: r.isDefault,
    provider: r.provider as ConnectionProvider,
    number: numberOfToken(r.token),
    token: r.token,
    greetingMessage: r.greetingMessage,
    complationMessage: r.complationMessage,
    transferMessage: r.transferMessage,
    outOfHoursMessage: r.outOfHoursMessage,
    ratingMessage: r.ratingMessage,
    expiresInactiveMessage: r.expiresInactiveMessage,
    promptId: r.promptId,
    integrationId: r.integrationId,
    sendIdQueue: r.sendIdQueue,
    timeSendQueue: r.timeSendQueue,
    maxUseBotQueues: r.maxUseBotQueues,
    timeUseBotQueues: r.timeUseBotQueues,
    expiresTicket: r.expiresTicket,
    queues: links.filter((l) => l.whatsappId === r.id).map(({ id, name, color }) => ({ id, name, color })),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** `cloud` and `webhookUrl` for a Cloud API connection; nothing for the other providers. */
function cloudFields(host: CloudViewHost, r: Row): Pick<ConnectionView, "cloud" | "webhookUrl"> {
  const cloud = cloudView(host, r);
  return cloud ? { cloud, webhookUrl: cloud.webhookUrl } : { cloud: null };
}
