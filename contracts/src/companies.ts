import { z } from "zod";
import { DateOnly, IdSchema, V, emailField, requiredName, text, looseBool, looseText } from "./common.js";
import { Limits } from "./limits.js";
import type { PlanView } from "./plans.js";
import type { SettingView } from "./setting-definitions.js";

export const Recurrences = ["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"] as const;
const color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{3,8}$/, V.invalid);

const companyFields = {
  name: requiredName,
  email: z.union([z.literal(""), emailField]).optional(),
  phone: text().trim().max(30, V.tooLong).optional(),
  planId: IdSchema,
  status: looseBool(),
  dueDate: DateOnly.nullable().optional(),
  recurrence: z.enum(Recurrences).optional(),
  primaryColor: looseText(color),
  headerColor: looseText(color),
  pageTitle: text().trim().max(60, V.tooLong).optional(),
  phoneNotification: text().trim().max(30, V.tooLong).optional(),
};

/** POST /companies (super): the company and its first admin, who logs in with `email` + `password`. */
export const CompanyCreateForm = z.object({
  ...companyFields,
  email: emailField,
  password: text().min(Limits.password.min, V.tooShort).max(Limits.password.max, V.tooLong),
  adminName: requiredName.optional(),
});
export type CompanyCreateForm = z.input<typeof CompanyCreateForm>;

export const CompanyUpdateForm = z.object(companyFields).partial();
export type CompanyUpdateForm = z.input<typeof CompanyUpdateForm>;

export type CompanyView = {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number;
  plan: PlanView | null;
  status: boolean;
  dueDate: string | null;
  recurrence: (typeof Recurrences)[number];
  primaryColor: string;
  headerColor: string;
  pageTitle: string;
  phoneNotification: string;
  createdAt: string;
  settings?: SettingView[];
};
