import { describe, expect, it } from "vitest";
import { formatMoney } from "./money";

// Intl separates the symbol with a no-break space
const mx = (text: string) => text.replace(" ", "\u00a0");

describe("formatMoney (secondary §9: MXN with pt-BR number formatting)", () => {
  it("shows an exact decimal with pt-BR separators", () => {
    expect(formatMoney("199.90")).toBe(mx("MX$ 199,90"));
    expect(formatMoney("1234567.5")).toBe(mx("MX$ 1.234.567,50"));
    expect(formatMoney("0")).toBe(mx("MX$ 0,00"));
  });

  it("keeps every digit of an amount no float can hold", () => {
    expect(formatMoney("90071992547409.93")).toBe(mx("MX$ 90.071.992.547.409,93"));
  });

  it("reads a comma as the decimal point (a plan's value is typed as text)", () => {
    expect(formatMoney("49,9")).toBe(mx("MX$ 49,90"));
  });

  it("leaves what is not a number as it came", () => {
    expect(formatMoney("gratis")).toBe("gratis");
    expect(formatMoney(null)).toBe("");
  });
});
