import { describe, expect, it } from "vitest";
import { Recurrences } from "./companies.js";
import { addMonths, addRecurrence, dueDateTone, todayIn } from "./billing.js";

const TODAY = "2027-03-10";
/** The date `days` after TODAY (negative: before), by the calendar. */
const ahead = (days: number) => {
  const d = new Date(Date.UTC(2027, 2, 10 + days));
  return d.toISOString().slice(0, 10);
};

describe("dueDateTone (secondary §4 company rows)", () => {
  it("is yellow exactly 5 days ahead", () => {
    expect(dueDateTone(ahead(5), TODAY)).toBe("yellow");
  });

  it("is orange from 3 days overdue up to 4 days ahead, today included", () => {
    for (let days = -3; days <= 4; days++) expect(dueDateTone(ahead(days), TODAY), `${days} days`).toBe("orange");
  });

  it("is red exactly 4 days overdue", () => {
    expect(dueDateTone(ahead(-4), TODAY)).toBe("red");
  });

  it("has no colour 6 or more days ahead, 5 or more overdue, or without a due date", () => {
    for (const days of [6, 7, 30, -5, -6, -60]) expect(dueDateTone(ahead(days), TODAY), `${days} days`).toBeNull();
    expect(dueDateTone(null, TODAY)).toBeNull();
  });

  it("counts days across a month end and a leap day", () => {
    expect(dueDateTone("2028-03-04", "2028-02-28")).toBe("yellow"); // 29 Feb lies between
    expect(dueDateTone("2027-03-05", "2027-02-28")).toBe("yellow");
    expect(dueDateTone("2027-12-28", "2028-01-01")).toBe("red");
  });

  it("judges a due date by the company's own calendar day", () => {
    // 02:30 UTC on the 11th is still the 10th in Mexico City and already the 11th in Lisbon
    const now = new Date("2027-03-11T02:30:00Z");
    expect(todayIn("America/Mexico_City", now)).toBe("2027-03-10");
    expect(todayIn("Europe/Lisbon", now)).toBe("2027-03-11");
    expect(dueDateTone("2027-03-15", todayIn("America/Mexico_City", now))).toBe("yellow");
    expect(dueDateTone("2027-03-15", todayIn("Europe/Lisbon", now))).toBe("orange");
  });
});

describe("addRecurrence (+Vencimiento)", () => {
  it("moves a due date by each recurrence's months", () => {
    const moved = Object.fromEntries(Recurrences.map((r) => [r, addRecurrence("2027-01-15", r)]));
    expect(moved).toEqual({
      MENSAL: "2027-02-15",
      BIMESTRAL: "2027-03-15",
      TRIMESTRAL: "2027-04-15",
      SEMESTRAL: "2027-07-15",
      ANUAL: "2028-01-15",
    });
  });

  it("keeps a month end inside a shorter month", () => {
    expect(addRecurrence("2027-01-31", "MENSAL")).toBe("2027-02-28");
    expect(addRecurrence("2028-01-31", "MENSAL")).toBe("2028-02-29");
    expect(addRecurrence("2027-12-31", "BIMESTRAL")).toBe("2028-02-29");
    expect(addRecurrence("2027-11-30", "TRIMESTRAL")).toBe("2028-02-29");
    expect(addRecurrence("2027-08-31", "SEMESTRAL")).toBe("2028-02-29");
    expect(addRecurrence("2028-02-29", "ANUAL")).toBe("2029-02-28");
    expect(addRecurrence("2027-03-31", "MENSAL")).toBe("2027-04-30");
  });

  it("crosses year ends", () => {
    expect(addRecurrence("2027-12-15", "MENSAL")).toBe("2028-01-15");
    expect(addRecurrence("2027-10-10", "SEMESTRAL")).toBe("2028-04-10");
    expect(addMonths("2027-01-10", -1)).toBe("2026-12-10");
  });
});
