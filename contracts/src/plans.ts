import { z } from "zod";
import { V, requiredName, looseBoolOr } from "./common.js";
import { PlanFlags, type PlanFlagSet } from "./permissions.js";

const count = z.coerce.number({ error: V.invalid }).int(V.invalid).min(0, V.invalid).max(1_000_000, V.invalid);

/** Planes tab form (secondary §3 Plan): value is entered as text; flags default true except OpenAI and integrations. */
export const PlanForm = z.object({
  name: requiredName,
  users: count.default(10),
  connections: count.default(1),
  queues: count.default(10),
  value: z
    .string()
    .trim()
    .max(20, V.tooLong)
    .regex(/^\d{1,12}([.,]\d{1,2})?$/, V.invalid)
    .default("0"),
  useCampaigns: looseBoolOr(true),
  useSchedules: looseBoolOr(true),
  useInternalChat: looseBoolOr(true),
  useExternalApi: looseBoolOr(true),
  useKanban: looseBoolOr(true),
  useOpenAi: looseBoolOr(false),
  useIntegrations: looseBoolOr(false),
});
export type PlanForm = z.input<typeof PlanForm>;

export type PlanView = PlanFlagSet & {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: string;
};

export const planFlagKeys = PlanFlags;
