import { z } from "zod";
import { SearchParam, V, boundedName, looseBoolOr, looseIdOrNull, text, looseTextOr } from "./common.js";
import { Limits } from "./limits.js";

/** secondary §4 Campaign status. */
export const CampaignStatuses = ["INATIVA", "PROGRAMADA", "EM_ANDAMENTO", "CANCELADA", "FINALIZADA"] as const;
export type CampaignStatus = (typeof CampaignStatuses)[number];

/** Five variants of the message and of the confirmation (secondary §9). */
export const CAMPAIGN_VARIANTS = [1, 2, 3, 4, 5] as const;
export const CampaignLimits = { message: Limits.messageBody.max, variables: 50, variableKey: 30, variableValue: 1000 };

/** The built-in variables a message may hold; custom ones come from the campaign settings. */
export const CAMPAIGN_BUILTIN_VARIABLES = ["name", "phone", "email"] as const;

const variant = looseTextOr(text().max(CampaignLimits.message, V.tooLong), "");
const optionalId = looseIdOrNull();

/**
 * secondary §5 Campaign: name 2–50 ('Muy Corto!', 'Demasiado largo', 'Requerido'). At least one message,
 * an audience (contact list or tag), and with confirmation on at least one confirmation text. Without
 * scheduledAt the campaign is a draft (INATIVA); with it, it is PROGRAMADA and starts then.
 */
export const CampaignForm = z
  .object({
    name: boundedName(V.campaignShort, V.campaignLong),
    message1: variant,
    message2: variant,
    message3: variant,
    message4: variant,
    message5: variant,
    confirmationMessage1: variant,
    confirmationMessage2: variant,
    confirmationMessage3: variant,
    confirmationMessage4: variant,
    confirmationMessage5: variant,
    confirmation: looseBoolOr(false),
    whatsappId: optionalId,
    contactListId: optionalId,
    tagListId: optionalId,
    fileListId: optionalId,
    scheduledAt: z
      .union([
        // a time PostgreSQL and the browsers can both hold (year 0 is neither's)
        z.iso.datetime({ offset: true, error: V.invalid }).refine((v) => new Date(v).getUTCFullYear() >= 2000, V.invalid),
        z.literal(""),
        z.null(),
      ])
      .optional()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((f, ctx) => {
    if (!CAMPAIGN_VARIANTS.some((i) => f[`message${i}`].trim())) {
      ctx.addIssue({ code: "custom", path: ["message1"], message: V.required });
    }
    if (f.confirmation && !CAMPAIGN_VARIANTS.some((i) => f[`confirmationMessage${i}`].trim())) {
      ctx.addIssue({ code: "custom", path: ["confirmationMessage1"], message: V.required });
    }
    if (!f.contactListId && !f.tagListId) ctx.addIssue({ code: "custom", path: ["contactListId"], message: V.required });
  });
export type CampaignForm = z.input<typeof CampaignForm>;

/** The fields a CANCELADA campaign may still change (secondary §4). */
export const CAMPAIGN_MESSAGE_FIELDS = [
  ...CAMPAIGN_VARIANTS.map((i) => `message${i}` as const),
  ...CAMPAIGN_VARIANTS.map((i) => `confirmationMessage${i}` as const),
];

export const CampaignsQuery = z.object({
  searchParam: SearchParam,
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** secondary §3 Campaign, with its choices' names for the list. */
export type CampaignView = {
  id: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | null;
  fileListId: number | null;
  mediaName: string | null;
  /** GET /campaigns/{id}/media when the campaign has a file. */
  mediaUrl: string | null;
  whatsapp: { id: number; name: string } | null;
  contactList: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
};
export type CampaignsPage = { records: CampaignView[]; hasMore: boolean; count: number };

/** GET /campaigns/{id}/report (secondary §3 Campaign report data, as counts). */
export type CampaignReport = {
  campaign: CampaignView;
  /** Numbers of the list WhatsApp confirmed (or the tag's contacts). */
  validContacts: number;
  /** Shippings made when the campaign started: the campaign's audience. */
  total: number;
  delivered: number;
  confirmationRequested: number;
  confirmed: number;
  failed: number;
  /** Delivered and failed over total, 0–100. */
  progress: number;
};

/** `company-{id}-campaign` (secondary §7). */
export type CampaignEvent = { action: "create" | "update"; record: CampaignView } | { action: "delete"; id: number };

/** secondary §9: messageInterval choices, and those of the longer interval and its period. */
export const MESSAGE_INTERVALS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVALS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

const oneOf = (choices: readonly number[]) => z.coerce.number({ error: V.invalid }).refine((n) => choices.includes(n), V.invalid);

/** A custom variable: `{key}` in a message becomes `value`. */
export const CampaignVariable = z.object({
  key: text({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(CampaignLimits.variableKey, V.tooLong)
    .regex(/^[\p{L}\p{N}_]+$/u, V.invalid)
    .refine((k) => !(CAMPAIGN_BUILTIN_VARIABLES as readonly string[]).includes(k.toLowerCase()), V.invalid),
  value: text().max(CampaignLimits.variableValue, V.tooLong).optional().default(""),
});

/** secondary §3 Campaign settings, with the §9 options; defaults 20 / 20 / 60. */
export const CampaignSettingsForm = z
  .object({
    messageInterval: oneOf(MESSAGE_INTERVALS).optional().default(20),
    longerIntervalAfter: oneOf(LONGER_INTERVALS).optional().default(20),
    greaterInterval: oneOf(LONGER_INTERVALS).optional().default(60),
    variables: z.array(CampaignVariable).max(CampaignLimits.variables, V.tooLong).optional().default([]),
  })
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    f.variables.forEach((v, i) => {
      if (seen.has(v.key)) ctx.addIssue({ code: "custom", path: ["variables", i, "key"], message: V.duplicateKey });
      seen.add(v.key);
    });
  });
export type CampaignSettingsForm = z.input<typeof CampaignSettingsForm>;
export type CampaignSettings = z.output<typeof CampaignSettingsForm>;
export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
};

/** A message with its variables filled: {name}, {phone}, {email}, then the custom ones; unknown ones stay. */
export function fillCampaignVariables(
  message: string,
  contact: { name: string; number: string; email: string },
  variables: { key: string; value: string }[],
): string {
  const values = new Map<string, string>([
    ["name", contact.name],
    ["phone", contact.number],
    ["email", contact.email],
  ]);
  for (const v of variables) values.set(v.key, v.value);
  return message.replace(/\{([\p{L}\p{N}_]+)\}/gu, (whole, key: string) => values.get(key) ?? whole);
}
