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
  billingName: looseText(text().trim().max(120, V.tooLong)),
  addressZipCode: looseText(text().trim().max(20, V.tooLong)),
  addressStreet: looseText(text().trim().max(200, V.tooLong)),
  addressState: looseText(text().trim().max(60, V.tooLong)),
  addressCity: looseText(text().trim().max(100, V.tooLong)),
  addressDistrict: looseText(text().trim().max(100, V.tooLong)),
  /** secondary §3: shown as a switch, kept as the company's setting campaignsEnabled. */
  campaignsEnabled: looseBool(),
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
  billingName: string;
  addressZipCode: string;
  addressStreet: string;
  addressState: string;
  addressCity: string;
  addressDistrict: string;
  /** Derived from the setting campaignsEnabled (true or enabled). */
  campaignsEnabled: boolean;
  /** The company's time zone: its due date is a day of this calendar. */
  timeZone: string;
  /** Whether a logo was uploaded (GET /companies/{id}/logo). */
  logo: boolean;
  createdAt: string;
  settings?: SettingView[];
};

/**
 * A company admin's branding (core §4 saving settings, §5 logo PNG): colours and page title; the logo
 * is its own upload. One schema for the Marca tab and PUT /companies/{id}/branding.
 */
export const CompanyBrandingForm = z.object({
  primaryColor: color,
  headerColor: color,
  pageTitle: text().trim().max(60, V.tooLong).default(""),
});
export type CompanyBrandingForm = z.input<typeof CompanyBrandingForm>;

/** Largest logo kept (bytes): it is also kept in the browser for the login page. */
export const LOGO_MAX_BYTES = 512 * 1024;
