import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit.js";

describe("GroupCommit", () => {
  it("runs a lone item at once and the items that arrive meanwhile together, per key, each answered", async () => {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const gc = new GroupCommit<string, string, string>(2, async (ctx, batch) => {
      batches.push([ctx, ...batch]);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return batch.map((item) => item.toUpperCase());
    });
    const first = gc.add("a", "conn-a", "x");
    const queued = [gc.add("a", "conn-a", "y"), gc.add("a", "conn-a", "z"), gc.add("a", "conn-a", "w")];
    const other = gc.add("b", "conn-b", "v");
    await other;
    release();
    expect(await Promise.all([first, ...queued])).toEqual(["X", "Y", "Z", "W"]);
    // the first alone, then what waited, at most two a batch; the other key did not wait
    expect(batches).toEqual([
      ["conn-a", "x"],
      ["conn-b", "v"],
      ["conn-a", "y", "z"],
      ["conn-a", "w"],
    ]);
  });

  it("rejects a failed batch's items and still runs the next batch", async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const gc = new GroupCommit<null, number, number>(10, async (_ctx, batch) => {
      calls++;
      if (calls === 1) {
        await new Promise<void>((r) => (release = r));
        throw new Error("statement failed");
      }
      return batch.map((n) => n * 2);
    });
    const failed = gc.add("k", null, 1);
    const next = gc.add("k", null, 2);
    release();
    await expect(failed).rejects.toThrow("statement failed");
    expect(await next).toBe(4);
  });
});
