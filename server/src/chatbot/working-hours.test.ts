import { DEFAULT_SCHEDULES } from "@charla/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../test/app.js";
import { addOption, botCompany, linkQueue, phone, setSetting, week } from "../test/chatbot-kit.js";
import { clock } from "./clock.js";
import { isOpen, lastClosing, outOfHoursNoticeDue, wallMinutes } from "./working-hours.js";

const weekdays = week({
  monday: ["09:00", "18:00"],
  tuesday: ["09:00", "18:00"],
  wednesday: ["09:00", "18:00"],
  thursday: ["09:00", "18:00"],
  friday: ["09:00", "18:00"],
  saturday: ["00:00", "00:00"],
});
// 2024-05-06 is a Monday
const utc = (iso: string) => new Date(`${iso}Z`);

describe("working hours, in the schedule's zone", () => {
  it("reads now in the zone, not the server's: 10:00 UTC is 19:00 in Tokyo", () => {
    expect(isOpen(weekdays, "UTC", utc("2024-05-06T10:00:00"))).toBe(true);
    expect(isOpen(weekdays, "Asia/Tokyo", utc("2024-05-06T10:00:00"))).toBe(false);
    // 01:00 UTC Monday is 10:00 Monday in Tokyo, 22:00 Sunday in Noronha
    expect(isOpen(weekdays, "Asia/Tokyo", utc("2024-05-06T01:00:00"))).toBe(true);
    expect(isOpen(weekdays, "America/Noronha", utc("2024-05-06T01:00:00"))).toBe(false);
  });

  it("opens at startTime, closes at endTime; 00:00–00:00 and a missing day are closed", () => {
    expect(isOpen(weekdays, "UTC", utc("2024-05-06T08:59:00"))).toBe(false);
    expect(isOpen(weekdays, "UTC", utc("2024-05-06T09:00:00"))).toBe(true);
    expect(isOpen(weekdays, "UTC", utc("2024-05-06T17:59:00"))).toBe(true);
    expect(isOpen(weekdays, "UTC", utc("2024-05-06T18:00:00"))).toBe(false);
    expect(isOpen(weekdays, "UTC", utc("2024-05-11T12:00:00"))).toBe(false); // Saturday 00:00–00:00
    expect(isOpen(weekdays, "UTC", utc("2024-05-12T12:00:00"))).toBe(false); // Sunday missing
    expect(isOpen(DEFAULT_SCHEDULES, "UTC", utc("2024-05-11T11:00:00"))).toBe(true); // Saturday 08–12
    expect(isOpen(week({ monday: ["08:00", "23:59"] }), "UTC", utc("2024-05-06T23:59:30"))).toBe(true);
  });

  it("knows when the schedule last closed, back over closed days", () => {
    const monday = wallMinutes(utc("2024-05-06T00:00:00"), "UTC");
    expect(lastClosing(weekdays, "UTC", utc("2024-05-06T20:00:00"))).toBe(monday + 18 * 60);
    // Monday 07:00: last closed on Friday 18:00
    expect(lastClosing(weekdays, "UTC", utc("2024-05-06T07:00:00"))).toBe(monday - 3 * 24 * 60 + 18 * 60);
    expect(lastClosing(week({}), "UTC", utc("2024-05-06T07:00:00"))).toBeNull();
  });

  it("is due once per closed period", () => {
    const notice = utc("2024-05-06T19:00:00");
    expect(outOfHoursNoticeDue(weekdays, "UTC", notice, null)).toBe(true);
    expect(outOfHoursNoticeDue(weekdays, "UTC", utc("2024-05-07T08:00:00"), notice)).toBe(false);
    expect(outOfHoursNoticeDue(weekdays, "UTC", utc("2024-05-07T18:30:00"), notice)).toBe(true);
    // never open: one notice a week
    expect(outOfHoursNoticeDue(week({}), "UTC", utc("2024-05-08T19:00:00"), notice)).toBe(false);
    expect(outOfHoursNoticeDue(week({}), "UTC", utc("2024-05-14T19:00:00"), notice)).toBe(true);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  clock.now = () => new Date();
});

describe("chatbot: out of hours on the inbound path", () => {
  const at = (iso: string) => {
    clock.now = () => utc(iso);
  };

  it("scheduleType company: the connection's message once per closed period, in the company's zone", async () => {
    const w = await botCompany(
      t,
      { greetingMessage: "Hola {{firstName}}", outOfHoursMessage: "Cerrado, {{name}}. Son las {{hour}} del {{date}}." },
      { timeZone: "Asia/Tokyo", schedules: weekdays },
    );
    await setSetting(t, w.companyId, "scheduleType", "company");
    const ana = phone(t, w);
    at("2024-05-06T10:00:00"); // 19:00 Monday in Tokyo, though 10:00 in UTC
    await ana.say("hola");
    expect(await ana.replies()).toEqual(["Cerrado, Ana María. Son las 19:00 del 06/05/2024."]);
    at("2024-05-06T14:00:00"); // 23:00, the same closed period
    await ana.say("¿hola?");
    expect(await ana.replies()).toEqual([]);
    at("2024-05-07T00:30:00"); // 09:30 Tuesday: open, the bot goes on (no queue: the greeting)
    await ana.say("buenos días");
    expect(await ana.replies()).toEqual(["Hola Ana"]);
    at("2024-05-07T09:30:00"); // 18:30 Tuesday: a new closed period
    await ana.say("sigo esperando");
    expect(await ana.replies()).toEqual(["Cerrado, Ana María. Son las 18:30 del 07/05/2024."]);
    expect((await ana.ticket()).outOfHoursAt?.toISOString()).toBe("2024-05-07T09:30:00.000Z");
  });

  it("scheduleType queue: the queue's hours once it is chosen, with its message and zone; the tree waits", async () => {
    const w = await botCompany(
      t,
      { greetingMessage: "Elija:", outOfHoursMessage: "Cerrado (conexión)" },
      // the company's own week is closed: with scheduleType queue it does not count
      { schedules: week({}) },
    );
    await setSetting(t, w.companyId, "scheduleType", "queue");
    const ventas = await linkQueue(t, w, {
      name: "Ventas",
      orderQueue: 1,
      greetingMessage: "Ventas",
      outOfHoursMessage: "Ventas abre a las 9, son las {{hour}} en {{queue}}",
      timeZone: "Asia/Tokyo",
      schedules: weekdays,
    });
    await addOption(t, ventas, { option: "1", title: "Precios", message: "Lista de precios" });
    await linkQueue(t, w, { name: "Soporte", orderQueue: 2, timeZone: "UTC", schedules: weekdays });
    const ana = phone(t, w);
    at("2024-05-06T10:00:00"); // 19:00 in Tokyo: Ventas closed; Soporte (UTC) open
    await ana.say("hola");
    expect(await ana.replies()).toEqual(["Elija:\n\n*[ 1 ]* - Ventas\n*[ 2 ]* - Soporte"]);
    await ana.say("1");
    expect(await ana.replies()).toEqual(["Ventas abre a las 9, son las 19:00 en Ventas"]);
    expect(await ana.ticket()).toMatchObject({ queueId: ventas.id, chatbot: true, queueOptionId: null });
    await ana.say("1");
    expect(await ana.replies()).toEqual([]);
    at("2024-05-07T00:30:00"); // 09:30 in Tokyo: open, the answer goes to the tree
    await ana.say("1");
    expect(await ana.replies()).toEqual(["Lista de precios"]);
  });

  it("scheduleType disabled: always open, whatever the week says", async () => {
    const w = await botCompany(t, { greetingMessage: "Hola", outOfHoursMessage: "Cerrado" }, { schedules: week({}) });
    const ana = phone(t, w);
    at("2024-05-12T03:00:00");
    await ana.say("hola");
    expect(await ana.replies()).toEqual(["Hola"]);
  });

  it("scheduleType company reads the company's week even before a queue is chosen", async () => {
    const w = await botCompany(t, { greetingMessage: "Elija:", outOfHoursMessage: "Cerrado" }, { timeZone: "UTC" });
    await setSetting(t, w.companyId, "scheduleType", "company");
    await linkQueue(t, w, { name: "A" });
    await linkQueue(t, w, { name: "B" });
    const ana = phone(t, w);
    at("2024-05-12T12:00:00"); // Sunday: 00:00–00:00 in the default week
    await ana.say("hola");
    expect(await ana.replies()).toEqual(["Cerrado"]);
    expect(await ana.ticket()).toMatchObject({ queueId: null, botListCount: 0 });
  });
});
