import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { countedOffences, handPublications, withinCalls } from "./hand-publishing.js";
import { productSources } from "./import-graph.js";
import type { Allowed } from "./raw-handle.js";

/**
 * One way to publish from a transaction (issue 40 point 2): withTransaction's `publish`, which runs
 * the event's write and durable listeners in the transaction and the rest after its commit. Neither an
 * `afterCommit` that publishes or emits by hand nor the bus's older `events.within` is left. A place
 * that cannot be converted yet is listed here by file, with its count and reason, and printed on each
 * run; both lists are empty since the ticket lifecycle's last places were converted.
 */
const ALLOWED_HAND_PUBLISHING: Record<string, Allowed> = {};
const ALLOWED_WITHIN: Record<string, Allowed> = {};

const root = fileURLToPath(new URL("../..", import.meta.url));
const files = productSources(root);
const read = (file: string) => readFileSync(`${root}/${file}`, "utf8");
const sources = files.map((file) => ({ file, source: read(file) }));

function printLists(rule: string, known: string[], slack: string[]) {
  if (known.length) console.warn(`${rule}: still there, listed:\n${known.join("\n")}`);
  if (slack.length) console.warn(`${rule}: no longer needed, lower or remove from the list:\n  ${slack.join("\n  ")}`);
}

describe("publishing from a transaction", () => {
  it("finds the product's transactions", () => {
    // a walk that read nothing would pass every rule below
    const withPublish = sources.filter((s) =>
      /withTransaction\(\s*(ctx|s)\s*,\s*async\s*\([^)]*\{[^}]*\bpublish\b/.test(s.source),
    );
    expect(withPublish.length).toBeGreaterThan(15);
  });

  it("tells of a change through the transaction's publish, never by hand in afterCommit, but for the listed", () => {
    const found = sources.flatMap((s) => handPublications(s.file, s.source));
    const { offences, slack, known } = countedOffences(found, ALLOWED_HAND_PUBLISHING, "afterCommit calls that publish or emit");
    printLists("afterCommit that publishes", known, slack);
    expect(offences, "write `await publish(event)` in the transaction (db/tx.ts withTransaction(s, …))").toEqual([]);
  });

  it("has no events.within left, but for the listed", () => {
    const found = sources.flatMap((s) => withinCalls(s.file, s.source));
    const { offences, slack, known } = countedOffences(found, ALLOWED_WITHIN, "events.within calls");
    printLists("events.within", known, slack);
    expect(offences, "write `await publish(event)` with withTransaction's hooks").toEqual([]);
  });

  it("fails a service that publishes by hand after its commit, through the same rule and lists, and lets a file removal be", () => {
    const file = "modules/tags/service.ts";
    const planted = [
      "export const leak = (ctx: RequestCtx, afterCommit: AfterCommit) => {",
      "  // afterCommit(() => ctx.events.publish(commented)) is no call",
      '  afterCommit(() => ctx.storage.remove(ctx.companyId, "tags/old.png"));',
      "  afterCommit(() =>",
      '    ctx.events.publish({ type: "record.changed", companyId: ctx.companyId, audience: "company", area: "tag", change }),',
      "  );",
      "  afterCommit(change.emit);",
      "  await ctx.events.within(tx, afterCommit, event);",
      "};",
    ].join("\n");
    const source = `${read(file)}\n${planted}\n`;
    const line = source.split("\n").length - planted.split("\n").length;
    const found = handPublications(file, source);
    expect(found.map((f) => [f.line, f.text])).toEqual([
      [line + 3, expect.stringMatching(/^afterCommit\(\(\) => ctx\.events\.publish\(\{ type: "record\.changed"/)],
      [line + 6, "afterCommit(change.emit)"],
    ]);
    const { offences } = countedOffences(found, ALLOWED_HAND_PUBLISHING, "afterCommit calls that publish or emit");
    expect(offences[0]).toBe(`${file}: 2 afterCommit calls that publish or emit, 0 allowed`);
    expect(withinCalls(file, source).map((f) => f.line)).toEqual([line + 7]);
  });
});
