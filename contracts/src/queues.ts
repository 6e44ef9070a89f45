import { z } from "zod";
import { IdSchema, V, requiredName, text, looseId, looseIdOrNull, looseTextOr } from "./common.js";
import { Limits } from "./limits.js";

/** core §9: every schedule's default zone. */
export const DEFAULT_TIME_ZONE = "America/Noronha";

/** The week as schedules list it (core §3 Schedule entry: Spanish label and English key). */
export const Weekdays = [
  { weekday: "Lunes", weekdayEn: "monday" },
  { weekday: "Martes", weekdayEn: "tuesday" },
  { weekday: "Miércoles", weekdayEn: "wednesday" },
  { weekday: "Jueves", weekdayEn: "thursday" },
  { weekday: "Viernes", weekdayEn: "friday" },
  { weekday: "Sábado", weekdayEn: "saturday" },
  { weekday: "Domingo", weekdayEn: "sunday" },
] as const;
export type WeekdayEn = (typeof Weekdays)[number]["weekdayEn"];
const weekdayKeys = Weekdays.map((d) => d.weekdayEn) as [WeekdayEn, ...WeekdayEn[]];

/** HH:mm, 00:00–23:59. */
export const TimeOfDay = z
  .string({ error: V.required })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, V.invalid);

export const ScheduleEntry = z
  .object({
    weekday: text().trim().max(20, V.tooLong).optional(),
    weekdayEn: z.enum(weekdayKeys, { error: V.invalid }),
    startTime: TimeOfDay,
    endTime: TimeOfDay,
  })
  // the label always matches its key, whatever the client sent
  .transform((entry) => ({ ...entry, weekday: Weekdays.find((d) => d.weekdayEn === entry.weekdayEn)?.weekday ?? "" }))
  // 00:00–00:00 is a closed day (core §9); otherwise the day must end after it starts
  .refine((e) => (e.startTime === "00:00" && e.endTime === "00:00") || e.endTime > e.startTime, {
    path: ["endTime"],
    message: V.invalid,
  });
export type ScheduleEntry = z.output<typeof ScheduleEntry>;

/** One entry per weekday at most; a weekday missing is closed. */
export const Schedules = z
  .array(ScheduleEntry)
  .max(7, V.invalid)
  .refine((list) => new Set(list.map((e) => e.weekdayEn)).size === list.length, V.invalid);

/** core §9: Monday–Friday 08:00–18:00, Saturday 08:00–12:00, Sunday closed. */
export const DEFAULT_SCHEDULES: ScheduleEntry[] = Weekdays.map(({ weekday, weekdayEn }) => ({
  weekday,
  weekdayEn,
  startTime: weekdayEn === "sunday" ? "00:00" : "08:00",
  endTime: weekdayEn === "sunday" ? "00:00" : weekdayEn === "saturday" ? "12:00" : "18:00",
}));

/** True for an IANA zone this runtime knows ("America/Sao_Paulo"); offsets and abbreviations are refused. */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = text({ error: V.required }).trim().min(1, V.required).max(64, V.tooLong).refine(isTimeZone, V.invalid);

/** core §5: 3 to 9 characters; only CSS hex colours, since the value ends up in styles. */
export const QueueColor = text({ error: V.required })
  .trim()
  .min(1, V.required)
  .min(Limits.queueColor.min, V.tooShort)
  .max(Limits.queueColor.max, V.tooLong)
  .regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, V.invalid)
  // one spelling per colour, so "#b80000" and "#B80000" are the same colour to the uniqueness rule
  .transform((color) => color.toUpperCase());

/** The colour picker's 50 presets (core §5). */
// biome-ignore format: ten a row, as the picker shows them
export const QUEUE_PALETTE = [
  "#B80000", "#DB3E00", "#FCCB00", "#008B02", "#006B76", "#1273DE", "#004DCF", "#5300EB", "#EB9694", "#FAD0C3",
  "#FEF3BD", "#C1E1C5", "#BEDADC", "#C4DEF6", "#BED3F3", "#D4C4FB", "#4D4D4D", "#999999", "#FFFFFF", "#F44E3B",
  "#FE9200", "#FCDC00", "#DBDF00", "#A4DD00", "#68CCCA", "#73D8FF", "#AEA1FF", "#FDA1FF", "#333333", "#808080",
  "#CCCCCC", "#D33115", "#E27300", "#FCC400", "#B0BC00", "#68BC00", "#16A5A5", "#009CE0", "#7B64FF", "#FA28FF",
  "#000000", "#666666", "#B3B3B3", "#9F0500", "#C45100", "#FB9E00", "#808900", "#194D33", "#0C797D", "#0062B1",
] as const;

const message = looseTextOr(text().max(4096, V.tooLong), "");

/**
 * POST /queue and PUT /queue/{id} (core §5 Queue, §7): name 2–50 and colour unique per company
 * (ERR_QUEUE_COLOR_ALREADY_EXISTS), the automatic messages, order, working hours in their zone.
 */
export const QueueForm = z.object({
  name: requiredName,
  color: QueueColor,
  orderQueue: z.coerce.number({ error: V.invalid }).int(V.invalid).min(0, V.invalid).max(9999, V.invalid).nullable().optional(),
  greetingMessage: message,
  complationMessage: message,
  outOfHoursMessage: message,
  ratingMessage: message,
  zone_time: TimeZone.optional(),
  schedules: Schedules.optional(),
  promptId: looseId(),
  integrationId: looseId(),
});
export type QueueForm = z.input<typeof QueueForm>;

export type QueueView = {
  id: number;
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  timeZone: string;
  schedules: ScheduleEntry[];
  promptId: number | null;
  integrationId: number | null;
  createdAt: string;
  updatedAt: string;
};

/** `company-{id}-queue` */
export type QueueEvent = { action: "create" | "update"; queue: QueueView } | { action: "delete"; queueId: number };

/** GET /queue-options: the children of `parentId` (-1: the roots) of one queue, in option order. */
export const QueueOptionsQuery = z.object({
  queueId: IdSchema,
  parentId: z.coerce.number({ error: V.invalid }).int(V.invalid).min(-1, V.invalid).max(2_147_483_647, V.invalid).optional(),
});

const optionTitle = text({ error: V.required }).trim().min(1, V.required).max(100, V.tooLong);
const optionMessage = text().max(4096, V.tooLong);

/** POST /queue-options (queueId and parentId fix its place) and PUT /queue-options/{id} (title and message). */
export const QueueOptionForm = z.object({
  queueId: IdSchema,
  parentId: looseIdOrNull(),
  title: optionTitle,
  message: optionMessage.optional().default(""),
  /** Reaching this node hands the ticket to a queue integration or an AI prompt (core §3 Queue option). */
  q_integration_id: looseIdOrNull(),
  promptId: looseIdOrNull(),
});
export type QueueOptionForm = z.input<typeof QueueOptionForm>;
// not `.partial()` of the form: zod 4 still applies the message's default inside an optional, so a PUT
// naming only the title would blank the message
export const QueueOptionUpdateForm = z.object({
  title: optionTitle.optional(),
  message: optionMessage.optional(),
  q_integration_id: looseId(),
  promptId: looseId(),
});
export type QueueOptionUpdateForm = z.input<typeof QueueOptionUpdateForm>;

/** A node of a queue's option tree; `option` is the label the contact types ("1", "2", …). */
export type QueueOptionView = {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  q_integration_id: number | null;
  promptId: number | null;
  /** How many options hang below it. */
  childrenCount: number;
};

/** PUT /companies/{id}/schedules (core §7): the company's week and its zone. */
export const CompanySchedulesForm = z.object({
  id: IdSchema.optional(),
  schedules: Schedules,
  zone_time: TimeZone.optional(),
});
export type CompanySchedulesForm = z.input<typeof CompanySchedulesForm>;
export type CompanySchedulesView = { id: number; schedules: ScheduleEntry[]; timeZone: string };
