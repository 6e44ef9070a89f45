import argon2 from "argon2";
import { describe, expect, it, vi } from "vitest";
import { hashPassword, PRODUCTION_ARGON2, verifyPassword } from "./password-hash.js";

describe("password hashing", () => {
  it("uses argon2id with 64 MiB, 3 passes and 4 lanes in production", async () => {
    expect(PRODUCTION_ARGON2).toEqual({ type: argon2.argon2id, memoryCost: 65_536, timeCost: 3, parallelism: 4 });
    // a fresh copy of the module, as the server loads it: the tests' setup has not touched this one
    vi.resetModules();
    const fresh: typeof import("./password-hash.js") = await import("./password-hash.js");
    const hash = await fresh.hashPassword("correct horse");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(await fresh.verifyPassword(hash, "correct horse")).toBe(true);
    expect(await fresh.verifyPassword(hash, "wrong horse")).toBe(false);
  });

  it("hashes cheaply in tests, still argon2id, and verifies either kind", async () => {
    const cheap = await hashPassword("correct horse");
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    expect(await verifyPassword(cheap, "correct horse")).toBe(true);
    expect(await verifyPassword(cheap, "wrong horse")).toBe(false);
    expect(await verifyPassword("not a hash", "correct horse")).toBe(false);
  });
});
