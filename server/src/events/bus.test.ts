import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import type { Tx } from "../db/client.js";
import { EventBus } from "./bus.js";
import type { DomainEvent } from "./catalog.js";

const errors: unknown[] = [];
const log = { error: (obj: unknown) => errors.push(obj) } as unknown as FastifyBaseLogger;
const tx = {} as Tx;
const ticket = (id: number) =>
  ({ type: "ticket.changed", companyId: 1, ticket: { id } as never, audience: [1], lost: [] }) satisfies DomainEvent;

describe("EventBus", () => {
  it("runs write listeners inside the transaction and the others only once it commits", async () => {
    const bus = new EventBus(log);
    const seen: string[] = [];
    bus.on("ticket.changed", { id: "w", phase: "write" }, async (t, e) => {
      expect(t).toBe(tx);
      seen.push(`write ${e.ticket.id}`);
    });
    bus.on("ticket.changed", { id: "c", phase: "commit" }, (e) => seen.push(`commit ${e.ticket.id}`));
    const queued: (() => unknown)[] = [];
    await bus.within(tx, (fn) => queued.push(fn), ticket(7));
    expect(seen).toEqual(["write 7"]);
    for (const fn of queued) fn();
    expect(seen).toEqual(["write 7", "commit 7"]);
  });

  it("lets a failing write listener fail the transaction, and then publishes nothing", async () => {
    const bus = new EventBus(log);
    const seen: number[] = [];
    bus.on("ticket.changed", { id: "w", phase: "write" }, async () => {
      throw new Error("no room for the job");
    });
    bus.on("ticket.changed", { id: "c", phase: "commit" }, (e) => seen.push(e.ticket.id));
    const queued: (() => unknown)[] = [];
    await expect(bus.within(tx, (fn) => queued.push(fn), ticket(1))).rejects.toThrow("no room");
    expect(queued).toHaveLength(0);
    expect(seen).toEqual([]);
  });

  it("logs a failing commit or detached listener and still runs the others", async () => {
    const bus = new EventBus(log);
    errors.length = 0;
    const seen: string[] = [];
    bus.on("ticket.changed", { id: "bad-commit", phase: "commit" }, () => {
      throw new Error("socket gone");
    });
    bus.on("ticket.changed", { id: "good-commit", phase: "commit" }, () => seen.push("commit"));
    bus.on("ticket.changed", { id: "bad-detached", phase: "detached" }, async () => {
      throw new Error("bot down");
    });
    bus.on("ticket.changed", { id: "good-detached", phase: "detached" }, async () => {
      seen.push("detached");
    });
    expect(() => bus.publish(ticket(3))).not.toThrow();
    await bus.idle();
    expect(seen).toEqual(["commit", "detached"]);
    expect(errors).toEqual([
      expect.objectContaining({ listener: "bad-commit", event: "ticket.changed", companyId: 1 }),
      expect.objectContaining({ listener: "bad-detached", event: "ticket.changed", companyId: 1 }),
    ]);
  });

  it("runs a laned detached listener one event at a time per lane, in publication order, off the publisher's path", async () => {
    const bus = new EventBus(log);
    const seen: string[] = [];
    const gates = new Map<number, () => void>();
    bus.on("ticket.changed", { id: "bot", phase: "detached", lane: (e) => String(e.ticket.id % 2) }, async (e) => {
      seen.push(`start ${e.ticket.id}`);
      await new Promise<void>((r) => gates.set(e.ticket.id, r));
      seen.push(`end ${e.ticket.id}`);
    });
    bus.publish(ticket(1));
    bus.publish(ticket(2));
    bus.publish(ticket(3));
    // publish returned with nothing run yet on its path
    expect(seen).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["start 1", "start 2"]);
    expect(bus.busy("bot", "1")).toBe(true);
    gates.get(1)?.();
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["start 1", "start 2", "end 1", "start 3"]);
    gates.get(2)?.();
    gates.get(3)?.();
    await bus.idle();
    expect(seen.slice(4)).toEqual(["end 2", "end 3"]);
    expect(bus.busy("bot", "1")).toBe(false);
  });
});
