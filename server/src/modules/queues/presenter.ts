import type { QueueOptionView, QueueView } from "@charla/contracts";
import type { queueOptions, queues } from "../../db/schema/index.js";

export function presentQueue(q: typeof queues.$inferSelect): QueueView {
  return {
    id: q.id,
    name: q.name,
    color: q.color,
    orderQueue: q.orderQueue,
    greetingMessage: q.greetingMessage,
    complationMessage: q.complationMessage,
    outOfHoursMessage: q.outOfHoursMessage,
    ratingMessage: q.ratingMessage,
    timeZone: q.timeZone,
    schedules: q.schedules,
    promptId: q.promptId,
    integrationId: q.integrationId,
    createdAt: q.createdAt.toISOString(),
    updatedAt: q.updatedAt.toISOString(),
  };
}

export function presentQueueOption(o: typeof queueOptions.$inferSelect, childrenCount: number): QueueOptionView {
  return {
    id: o.id,
    queueId: o.queueId,
    parentId: o.parentId,
    title: o.title,
    message: o.message,
    option: o.option,
    q_integration_id: o.qIntegrationId,
    promptId: o.promptId,
    childrenCount,
  };
}
