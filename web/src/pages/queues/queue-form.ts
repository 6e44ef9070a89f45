import {
  DEFAULT_SCHEDULES,
  DEFAULT_TIME_ZONE,
  QUEUE_PALETTE,
  type QueueForm,
  type QueueView,
  type ScheduleEntry,
} from "@charla/contracts";

export type QueueValues = {
  name: string;
  color: string;
  orderQueue: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  zone_time: string;
  schedules: ScheduleEntry[];
  /** The area's AI prompt and queue integration (core §3); null for none. */
  promptId: number | null;
  integrationId: number | null;
};

/** The first preset colour no other area uses (colours are unique, core §5); "" when all are taken. */
export function firstFreeColor(taken: string[]): string {
  const used = new Set(taken.map((c) => c.toLowerCase()));
  return QUEUE_PALETTE.find((c) => !used.has(c.toLowerCase())) ?? "";
}

/** A new area starts with the first preset colour no other area uses. */
export function newQueueValues(taken: string[]): QueueValues {
  return {
    name: "",
    color: firstFreeColor(taken),
    orderQueue: "",
    greetingMessage: "",
    complationMessage: "",
    outOfHoursMessage: "",
    ratingMessage: "",
    zone_time: DEFAULT_TIME_ZONE,
    schedules: DEFAULT_SCHEDULES,
    promptId: null,
    integrationId: null,
  };
}

export function queueValuesOf(queue: QueueView): QueueValues {
  return {
    name: queue.name,
    color: queue.color,
    orderQueue: queue.orderQueue === null ? "" : String(queue.orderQueue),
    greetingMessage: queue.greetingMessage,
    complationMessage: queue.complationMessage,
    outOfHoursMessage: queue.outOfHoursMessage,
    ratingMessage: queue.ratingMessage,
    zone_time: queue.timeZone,
    schedules: queue.schedules.length ? queue.schedules : DEFAULT_SCHEDULES,
    promptId: queue.promptId,
    integrationId: queue.integrationId,
  };
}

/** An empty order means "after the numbered ones" (null), not 0. */
export function queuePayloadOf(values: QueueValues): QueueForm {
  return { ...values, orderQueue: values.orderQueue === "" ? null : Number(values.orderQueue) };
}
