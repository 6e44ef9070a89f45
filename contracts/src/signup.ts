import { z } from "zod";
import { IdSchema, V, emailField, requiredName, text } from "./common.js";
import { Limits } from "./limits.js";

/**
 * The public sign-up form (core §2 signup): a new company with its first admin, who is logged in at once.
 * One schema for the page and the API.
 */
export const SignupForm = z.object({
  companyName: requiredName,
  email: emailField,
  phone: text().trim().max(30, V.tooLong).optional().default(""),
  planId: IdSchema,
  name: requiredName,
  password: text().min(Limits.password.min, V.tooShort).max(Limits.password.max, V.tooLong),
});
export type SignupForm = z.input<typeof SignupForm>;

/** GET /auth/signup: whether the operator lets new companies sign up, and the trial they get. */
export type SignupInfo = { enabled: boolean; trialDays: number };
