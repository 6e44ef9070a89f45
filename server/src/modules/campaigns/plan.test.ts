import { DEFAULT_CAMPAIGN_SETTINGS, fillCampaignVariables } from "@charla/contracts";
import { describe, expect, it } from "vitest";
import { composeText, partMessageId } from "./message.js";
import type { CampaignRow } from "./queries.js";
import { plannedTimes } from "./start.js";

describe("campaign planning", () => {
  it("spaces contacts by a random 0–messageInterval seconds, and every longerIntervalAfter-th by greaterInterval", () => {
    const start = new Date("2026-11-23T10:00:00Z");
    const settings = { ...DEFAULT_CAMPAIGN_SETTINGS, messageInterval: 10, longerIntervalAfter: 3, greaterInterval: 60 };
    const gaps = (random: () => number) => {
      const t = plannedTimes(7, start, settings, random).map((d) => d.getTime());
      return t.slice(1).map((v, i) => (v - t[i]) / 1000);
    };
    expect(gaps(() => 0.999)).toEqual([10, 10, 60, 10, 10, 60]);
    expect(gaps(() => 0)).toEqual([0, 0, 60, 0, 0, 60]);
    expect(plannedTimes(1, start, settings)[0]).toEqual(start);
    const flat = plannedTimes(5, start, { ...settings, messageInterval: 0, longerIntervalAfter: 0 });
    expect(new Set(flat.map((d) => d.getTime()))).toEqual(new Set([start.getTime()]));
  });

  it("fills {name}, {phone}, {email} and custom variables; unknown ones stay as typed", () => {
    const text = fillCampaignVariables(
      "Hola {name} ({phone}, {email}): {cupon} {otro}",
      { name: "Ana", number: "5511999990000", email: "ana@example.com" },
      [{ key: "cupon", value: "DESC10" }],
    );
    expect(text).toBe("Hola Ana (5511999990000, ana@example.com): DESC10 {otro}");
  });

  it("draws the same variant and message ids for a shipping every time", () => {
    const c = {
      message1: "uno {name}",
      message2: "",
      message3: "tres {name}",
      message4: "",
      message5: "cinco {name}",
    } as CampaignRow;
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const sh = { sendKey: `key-${i}`, name: "Ana", number: "1", email: "" };
      const once = composeText(c, sh, DEFAULT_CAMPAIGN_SETTINGS, "message");
      expect(composeText(c, sh, DEFAULT_CAMPAIGN_SETTINGS, "message")).toBe(once);
      seen.add(once);
    }
    expect(seen).toEqual(new Set(["uno Ana", "tres Ana", "cinco Ana"]));
    expect(partMessageId("k", "message")).toBe(partMessageId("k", "message"));
    expect(partMessageId("k", "message")).not.toBe(partMessageId("k", "confirmation"));
    expect(partMessageId("k", "message")).toMatch(/^3EB0[0-9A-F]{36}$/);
  });
});
