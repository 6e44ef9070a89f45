import { z } from "zod";
import { IdSchema, SearchParam, V, looseIdOrNull, text } from "./common.js";
import { Limits } from "./limits.js";

/** secondary §3 Schedule statuses as the API names them; shown capitalised, ERRO as a send error. */
export const SCHEDULE_STATUSES = ["PENDENTE", "ENVIANDO", "ENVIADA", "ERRO", "CANCELADA"] as const;
export type ScheduleStatusName = (typeof SCHEDULE_STATUSES)[number];

/** An optional repeat (issue 28): none, every day, weekly on chosen days, or monthly on the same day. */
export const SCHEDULE_REPEATS = ["none", "daily", "weekly", "monthly"] as const;
export type ScheduleRepeatName = (typeof SCHEDULE_REPEATS)[number];

/** Longest text a schedule keeps; the table shows its first 25 characters (secondary §9). */
export const ScheduleLimits = { body: Limits.messageBody.max, listCut: 25, upcomingHours: 24 } as const;

/**
 * POST /schedules and PUT /schedules/{id}: the contact, the text (with the messages' {{variables}}),
 * when (an ISO time with its offset, so the zone it was typed in is kept), an optional connection
 * (else the contact's ticket connection or the default one) and an optional repeat; weekly repeats
 * need at least one day (0 Sunday … 6 Saturday). The file goes up separately (media-upload).
 */
export const ScheduleForm = z
  .object({
    contactId: IdSchema,
    body: text({ error: V.required }).trim().min(1, V.required).max(ScheduleLimits.body, V.tooLong),
    sendAt: z.iso
      .datetime({ offset: true, error: V.invalid })
      // a time PostgreSQL and the browsers can both hold
      .refine((v) => {
        const y = new Date(v).getUTCFullYear();
        return y >= 2000 && y < 10_000;
      }, V.invalid),
    whatsappId: looseIdOrNull(),
    repeat: z.enum(SCHEDULE_REPEATS, { error: V.invalid }).optional().default("none"),
    repeatDays: z
      .array(z.coerce.number({ error: V.invalid }).int(V.invalid).min(0, V.invalid).max(6, V.invalid), { error: V.invalid })
      .max(7, V.invalid)
      .optional()
      .default([])
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
  })
  .superRefine((f, ctx) => {
    if (f.repeat === "weekly" && f.repeatDays.length === 0) {
      ctx.addIssue({ code: "custom", path: ["repeatDays"], message: V.required });
    }
  });
export type ScheduleForm = z.input<typeof ScheduleForm>;

/** GET /schedules/ (secondary §7): search in the text or the contact's name or number, 20 a page. */
export const SchedulesQuery = z.object({
  searchParam: SearchParam,
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  contactId: IdSchema.optional(),
});

/** secondary §3 Schedule, plus the send's outcome (error, late) and the repeat. */
export type ScheduleView = {
  id: number;
  body: string;
  contactId: number;
  contact: { id: number; name: string; number: string } | null;
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatusName;
  /** Why the send failed (status ERRO): an error code of the catalogue. */
  error: string | null;
  /** Sent (or due) after its time: the server was down when it was due. */
  late: boolean;
  whatsappId: number | null;
  ticketId: number | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  mediaName: string | null;
  /** The file's API path (GET /schedules/{id}/media) when it has one. */
  mediaUrl: string | null;
  timezone: string | null;
  repeat: ScheduleRepeatName;
  repeatDays: number[];
  previousId: number | null;
  createdAt: string;
  updatedAt: string;
};

/** GET /schedules/ (secondary §7). */
export type SchedulesPage = { schedules: ScheduleView[]; hasMore: boolean; count: number };

/** GET /schedules/upcoming: the company's schedules due in the next 24 h, soonest first. */
export type UpcomingSchedules = { schedules: ScheduleView[]; hasMore: boolean; from: string; to: string };

/** `company-{id}-schedule`. */
export type ScheduleEvent = { action: "create" | "update"; record: ScheduleView } | { action: "delete"; id: number };
