import { describe, expect, it } from "vitest";
import { V } from "./text-rules.js";
import { UserCreateForm, UserUpdateForm } from "./users.js";

const user = { name: "Nuevo Agente", email: "nuevo@charla.test", profile: "user" as const };

/** The first message the form shows beside the password field (react-hook-form shows the first issue). */
function passwordMessage(schema: typeof UserCreateForm | typeof UserUpdateForm, password: unknown): string | undefined {
  const result = schema.safeParse({ ...user, password });
  return result.success ? undefined : result.error.issues.find((issue) => issue.path[0] === "password")?.message;
}

describe("user form passwords", () => {
  it("a new user's empty or missing password is required, not too short; a short one is too short", () => {
    expect(passwordMessage(UserCreateForm, "")).toBe(V.required);
    expect(passwordMessage(UserCreateForm, undefined)).toBe(V.required);
    expect(passwordMessage(UserCreateForm, "abc")).toBe(V.tooShort);
    expect(passwordMessage(UserCreateForm, "x".repeat(51))).toBe(V.tooLong);
    expect(passwordMessage(UserCreateForm, "agente-123")).toBeUndefined();
  });

  it("editing keeps an empty password as 'keep the current one'", () => {
    expect(passwordMessage(UserUpdateForm, "")).toBeUndefined();
    expect(passwordMessage(UserUpdateForm, "abc")).toBe(V.tooShort);
  });
});
