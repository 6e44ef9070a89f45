import { describe, expect, it } from "vitest";
import { normalizePhone } from "./phone.js";

describe("normalizePhone", () => {
  it("keeps the digits of international numbers however they are written", () => {
    expect(normalizePhone("+55 (11) 98765-4321")).toBe("5511987654321");
    expect(normalizePhone("0054 9 11 3333-4444")).toBe("5491133334444");
    expect(normalizePhone("34 600 111 222")).toBe("34600111222");
  });

  it("keeps WhatsApp's Mexican mobile prefix that the national plan dropped", () => {
    expect(normalizePhone("5215511110001")).toBe("5215511110001");
  });

  it("refuses what cannot be a WhatsApp number", () => {
    expect(normalizePhone("")).toBeNull();
    expect(normalizePhone("1234567")).toBeNull();
    expect(normalizePhone("1".repeat(16))).toBeNull();
    expect(normalizePhone("99912345678")).toBeNull();
    expect(normalizePhone("not a number")).toBeNull();
  });
});
