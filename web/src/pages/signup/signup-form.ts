import { SignupForm } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";

export type SignupValues = SignupForm;
export type SignupOutput = z.output<typeof SignupForm>;

/** The sign-up form's contract schema as a resolver: the same checks as POST /auth/signup's. */
export const signupResolver = zodResolver(SignupForm);

export const signupDefaults: SignupValues = {
  companyName: "",
  email: "",
  phone: "",
  planId: undefined as unknown as number,
  name: "",
  password: "",
};
