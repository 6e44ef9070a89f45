import { describe, expect, it, vi } from "vitest";
import { waVersionSource } from "./wa-version.js";

describe("the WhatsApp Web version", () => {
  it("is fetched once for every session, kept, and fetched again when refused", async () => {
    const fetchVersion = vi.fn(async () => ({
      version: [2, 3000, 1_100_000_000 + fetchVersion.mock.calls.length],
      isLatest: true,
    }));
    const current = waVersionSource(fetchVersion);
    const [a, b, c] = await Promise.all([current(), current(), current()]);
    expect(fetchVersion).toHaveBeenCalledTimes(1);
    expect([a, b, c]).toEqual([
      [2, 3000, 1_100_000_001],
      [2, 3000, 1_100_000_001],
      [2, 3000, 1_100_000_001],
    ]);
    expect(await current()).toEqual([2, 3000, 1_100_000_001]);
    expect(fetchVersion).toHaveBeenCalledTimes(1);
    expect(await current(true)).toEqual([2, 3000, 1_100_000_002]);
    // the fetch is bounded in time
    expect(fetchVersion.mock.calls[0]).toEqual([{ signal: expect.any(AbortSignal) }]);
  });

  it("offline: the last one fetched, or none (Baileys' own) before any", async () => {
    let online = false;
    const current = waVersionSource(async () => {
      if (!online) throw new Error("getaddrinfo ENOTFOUND web.whatsapp.com");
      return { version: [2, 3000, 5], isLatest: true };
    });
    expect(await current()).toBeUndefined();
    online = true;
    expect(await current()).toEqual([2, 3000, 5]);
    online = false;
    expect(await current(true)).toEqual([2, 3000, 5]);
  });

  it("ignores Baileys' fallback answer (isLatest false) and malformed versions", async () => {
    const answers = [
      { version: [2, 3000, 1], isLatest: false },
      { version: [2, 3000], isLatest: true },
      { version: [2, 3000, -1], isLatest: true },
    ];
    const current = waVersionSource(async () => answers.shift() ?? { version: [2, 3000, 9], isLatest: true });
    expect(await current()).toBeUndefined();
    expect(await current(true)).toBeUndefined();
    expect(await current(true)).toBeUndefined();
    expect(await current(true)).toEqual([2, 3000, 9]);
  });
});
