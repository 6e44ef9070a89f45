import { describe, expect, it } from "vitest";
import { maskSecret, SecretBox, secretHash } from "./secret-box.js";

const key = Buffer.alloc(32, 3).toString("base64");

describe("secret box", () => {
  it("opens what it sealed, and never stores the plain text", () => {
    const box = new SecretBox(key);
    const sealed = box.seal("sk-live-123456");
    expect(sealed).not.toContain("sk-live");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(box.open(sealed)).toBe("sk-live-123456");
    // a fresh nonce each time: equal secrets do not look equal at rest
    expect(box.seal("sk-live-123456")).not.toBe(sealed);
  });

  it("keeps no secret as no secret", () => {
    const box = new SecretBox(key);
    expect(box.seal("")).toBe("");
    expect(box.open("")).toBe("");
  });

  it("refuses a value sealed under another key or tampered with", () => {
    const sealed = new SecretBox(key).seal("abc");
    expect(() => new SecretBox(Buffer.alloc(32, 4).toString("base64")).open(sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("xyz").toString("base64url");
    expect(() => new SecretBox(key).open(parts.join("."))).toThrow();
    expect(() => new SecretBox(key).open("plain")).toThrow();
  });

  it("takes a hex key and stretches a passphrase", () => {
    const hex = "ab".repeat(32);
    expect(new SecretBox(hex).open(new SecretBox(hex).seal("x"))).toBe("x");
    expect(new SecretBox("a passphrase").open(new SecretBox("a passphrase").seal("y"))).toBe("y");
  });

  it("masks to the last four characters and hashes stably", () => {
    expect(maskSecret("sk-abcdef1234")).toBe("••••••••1234");
    expect(maskSecret("")).toBe("");
    expect(secretHash("t")).toBe(secretHash("t"));
    expect(secretHash("t")).toMatch(/^[0-9a-f]{64}$/);
  });
});
