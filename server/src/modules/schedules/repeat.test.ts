import { describe, expect, it } from "vitest";
import { nextOccurrence } from "./repeat.js";

const at = (iso: string) => new Date(iso);
const long_ago = at("2000-01-01T00:00:00Z");

describe("nextOccurrence", () => {
  it("does not repeat a one-off, nor a weekly series without days", () => {
    expect(nextOccurrence(at("2026-01-05T12:00:00Z"), { repeat: "none", repeatDays: [], zone: "UTC" }, long_ago)).toBeNull();
    expect(nextOccurrence(at("2026-01-05T12:00:00Z"), { repeat: "weekly", repeatDays: [], zone: "UTC" }, long_ago)).toBeNull();
  });

  it("daily keeps the wall time across a daylight-saving change", () => {
    // São Paulo has no DST now; New York springs forward on 2026-03-08
    const next = nextOccurrence(
      at("2026-03-07T14:00:00Z"),
      { repeat: "daily", repeatDays: [], zone: "America/New_York" },
      long_ago,
    );
    expect(next?.toISOString()).toBe("2026-03-08T13:00:00.000Z");
  });

  it("weekly goes to the next chosen weekday in the schedule's zone", () => {
    // Monday 2026-01-05 23:30 in Noronha (UTC-2) is Tuesday 01:30 UTC; next chosen day Thursday
    const next = nextOccurrence(
      at("2026-01-06T01:30:00Z"),
      { repeat: "weekly", repeatDays: [1, 4], zone: "America/Noronha" },
      long_ago,
    );
    expect(next?.toISOString()).toBe("2026-01-09T01:30:00.000Z");
  });

  it("monthly clamps to a short month's last day and goes back to the series' day after", () => {
    const rule = { repeat: "monthly" as const, repeatDays: [], zone: "UTC", anchorDay: 31 };
    const feb = nextOccurrence(at("2026-01-31T09:00:00Z"), rule, long_ago);
    expect(feb?.toISOString()).toBe("2026-02-28T09:00:00.000Z");
    const mar = nextOccurrence(feb as Date, rule, long_ago);
    expect(mar?.toISOString()).toBe("2026-03-31T09:00:00.000Z");
    const leap = nextOccurrence(at("2028-01-31T09:00:00Z"), rule, long_ago);
    expect(leap?.toISOString()).toBe("2028-02-29T09:00:00.000Z");
    const dec = nextOccurrence(at("2026-12-31T09:00:00Z"), rule, long_ago);
    expect(dec?.toISOString()).toBe("2027-01-31T09:00:00.000Z");
  });

  it("skips occurrences missed while the server was down", () => {
    const next = nextOccurrence(
      at("2026-01-01T10:00:00Z"),
      { repeat: "daily", repeatDays: [], zone: "UTC" },
      at("2026-01-10T11:00:00Z"),
    );
    expect(next?.toISOString()).toBe("2026-01-11T10:00:00.000Z");
  });
});
