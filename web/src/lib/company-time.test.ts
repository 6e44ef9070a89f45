import { DEFAULT_TIME_ZONE } from "@charla/contracts";
import { afterEach, describe, expect, it } from "vitest";
import {
  companyZone,
  daysFromToday,
  fileStamp,
  formatDate,
  formatDateTime,
  formatOffset,
  formatShortDateTime,
  formatTime,
  formatTimeOrDate,
  formatTimeOrDateTime,
  isoToZoned,
  sameDay,
  setCompanyZone,
  weekdayName,
  zoneDiffersFromBrowser,
  zonedToIso,
} from "./company-time";

// 02/12/2026 03:11 UTC: 01:11 in Noronha (UTC−2), 12:11 in Tokyo (UTC+9), 00:11 in São Paulo (UTC−3)
const AT = "2026-12-02T03:11:40.000Z";

/** Runs `body` with the process (the "browser") on another zone, then puts the old one back. */
function withBrowserZone(timeZone: string, body: () => void) {
  const before = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

afterEach(() => setCompanyZone(null));

describe("company time", () => {
  it("starts on America/Noronha and shows every instant on the company's clock, whatever the browser's", () => {
    expect(companyZone()).toBe(DEFAULT_TIME_ZONE);
    for (const browser of ["UTC", "Asia/Tokyo", "America/Los_Angeles"]) {
      withBrowserZone(browser, () => {
        expect(formatDateTime(AT)).toBe("02/12/2026 01:11");
        expect(formatDate(AT)).toBe("02/12/2026");
        expect(formatTime(AT)).toBe("01:11");
        expect(formatShortDateTime(AT)).toBe("02/12/26 01:11");
      });
    }
    // the same instant written with another offset, as epoch milliseconds or as a Date reads the same
    expect(formatDateTime("2026-12-02T12:11:40+09:00")).toBe("02/12/2026 01:11");
    expect(formatDateTime(Date.parse(AT))).toBe("02/12/2026 01:11");
    expect(formatDateTime(new Date(AT))).toBe("02/12/2026 01:11");
  });

  it("follows the company's zone when it changes, and keeps the default for a zone it does not know", () => {
    setCompanyZone("Asia/Tokyo");
    expect(formatDateTime(AT)).toBe("02/12/2026 12:11");
    setCompanyZone("America/Sao_Paulo");
    // across midnight: the company's day is the day before UTC's
    expect(formatDateTime("2026-12-02T02:30:00Z")).toBe("01/12/2026 23:30");
    setCompanyZone("Mars/Olympus_Mons");
    expect(companyZone()).toBe("America/Noronha");
  });

  it("shows a calendar date as it is and reads a date-time without a zone as the company's wall time", () => {
    setCompanyZone("Asia/Tokyo");
    withBrowserZone("America/Los_Angeles", () => {
      expect(formatDate("2099-12-31")).toBe("31/12/2099");
      expect(formatDateTime("2026-05-04 07:08")).toBe("04/05/2026 07:08");
      expect(formatDateTime("2026-05-04T07:08:09.123")).toBe("04/05/2026 07:08");
    });
  });

  it("answers empty for a missing or bad value", () => {
    for (const bad of [null, undefined, "", "not a date"]) {
      expect(formatDate(bad)).toBe("");
      expect(formatDateTime(bad)).toBe("");
      expect(formatTime(bad)).toBe("");
      expect(daysFromToday(bad)).toBeNull();
      expect(isoToZoned(bad)).toEqual({ date: "", time: "" });
    }
  });

  it("counts days, today and the same day on the company's calendar", () => {
    const now = "2026-12-02T01:30:00Z"; // 01/12 23:30 in Noronha
    expect(daysFromToday("2026-12-01T12:00:00Z", now)).toBe(0);
    expect(daysFromToday("2026-12-02T02:00:00Z", now)).toBe(1);
    expect(daysFromToday("2026-11-30", now)).toBe(-1);
    expect(formatTimeOrDate("2026-12-01T20:00:00Z", now)).toBe("18:00");
    expect(formatTimeOrDate("2026-12-02T03:00:00Z", now)).toBe("02/12/2026");
    expect(formatTimeOrDateTime("2026-12-02T03:00:00Z", now)).toBe("02/12/2026 01:00");
    expect(sameDay("2026-12-02T01:00:00Z", "2026-12-01T03:00:00Z")).toBe(true);
    expect(sameDay("2026-12-02T01:00:00Z", "2026-12-02T02:00:00Z")).toBe(false);
    expect(sameDay(null, null)).toBe(false);
  });

  it("names the weekday of the company's day in the interface's language", () => {
    // 02/12/2026 01:00 UTC is Tuesday 01/12 in Noronha
    expect(weekdayName("2026-12-02T01:00:00Z", "es")).toBe("Martes");
    expect(weekdayName("2026-12-02T01:00:00Z", "en")).toBe("Tuesday");
    expect(weekdayName("2026-12-02T01:00:00Z", "pt")).toBe("Terça-feira");
  });

  it("turns what is typed in the fields into the instant on the company's clock, and back", () => {
    withBrowserZone("Asia/Tokyo", () => {
      const iso = zonedToIso("2026-12-02", "01:11");
      expect(iso).toBe("2026-12-02T01:11:00-02:00");
      expect(new Date(iso).toISOString()).toBe("2026-12-02T03:11:00.000Z");
      expect(isoToZoned(iso)).toEqual({ date: "2026-12-02", time: "01:11" });
      expect(formatDateTime(iso)).toBe("02/12/2026 01:11");
    });
    // a zone with summer time: the offset in force on the typed day, either side of the change
    expect(zonedToIso("2026-07-01", "12:00", "Europe/Lisbon")).toBe("2026-07-01T12:00:00+01:00");
    expect(zonedToIso("2026-12-01", "12:00", "Europe/Lisbon")).toBe("2026-12-01T12:00:00+00:00");
    expect(zonedToIso("2026-01-10", "09:30", "Asia/Kolkata")).toBe("2026-01-10T09:30:00+05:30");
  });

  it("writes the zone's offset as a user reads it and says when the browser's clock differs", () => {
    expect(formatOffset("America/Noronha")).toBe("UTC\u22122");
    expect(formatOffset("Asia/Kolkata")).toBe("UTC+5:30");
    expect(formatOffset("UTC")).toBe("UTC");
    withBrowserZone("Asia/Tokyo", () => {
      expect(zoneDiffersFromBrowser("America/Noronha")).toBe(true);
      expect(zoneDiffersFromBrowser("Asia/Seoul")).toBe(false);
    });
  });

  it("stamps file names on the company's clock", () => {
    expect(fileStamp(AT)).toBe("20261202-011140");
  });
});
