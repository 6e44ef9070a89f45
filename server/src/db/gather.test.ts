import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../test/app.js";
import type { Database } from "./client.js";
import { gather } from "./gather.js";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Three tasks that note how many of them run at the same moment. */
function tasks() {
  let running = 0;
  let most = 0;
  const task = (value: number) => async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    return value;
  };
  return { list: [task(1), task(2), task(3)] as const, most: () => most };
}

describe("gather", () => {
  it("runs independent reads at once on the pool, in order of the list", async () => {
    const t = tasks();
    expect(await gather(database.db, t.list)).toEqual([1, 2, 3]);
    expect(t.most()).toBe(3);
  });

  it("runs them one after the other inside a transaction (one connection)", async () => {
    const t = tasks();
    const out = await database.db.transaction((tx) => gather(tx, t.list));
    expect(out).toEqual([1, 2, 3]);
    expect(t.most()).toBe(1);
  });
});
