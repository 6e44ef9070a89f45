import { afterEach, expect, it, vi } from "vitest";
import { getTestApp } from "../test/app.js";

afterEach(() => {
  vi.useRealTimers();
});

it("a session's pending end does not fire after the server closed (with Redis, a rejection on a closed client)", async () => {
  const t = await getTestApp({ redisUrl: process.env.REDIS_URL ?? null });
  const { realtime } = t.app.charla;
  const rooms = vi.spyOn(realtime.io, "in");
  // fake timers that still follow the clock, so closing the app runs as usual
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
  realtime.endSession("a-session-ended-at-shutdown", 60_000);
  await t.close();
  vi.advanceTimersByTime(60_000);
  expect(rooms).not.toHaveBeenCalled();
});
