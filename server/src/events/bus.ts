import type { FastifyBaseLogger } from "fastify";
import type { Tx } from "../db/client.js";
import type { AfterCommit } from "../db/tx.js";
import { KeyedQueue } from "../lib/keyed-queue.js";
import type { DomainEvent, EventName } from "./catalog.js";

/**
 * When a listener runs (Outline's model hooks and processors, Chatwoot's listeners):
 * - `write`: inside the publisher's transaction, before it commits; it may only write rows through
 *   `tx` (a job to run, a message to send), so a durable effect commits with the change or not at all.
 *   Its failure fails the transaction.
 * - `commit`: right after the commit, synchronously and in publication order, on the publisher's path.
 *   For what must be cheap and ordered: presenting a socket event.
 * - `detached`: after the commit, off the publisher's path; listeners given a `lane` run one event at a
 *   time per lane key (per ticket, per contact) in publication order, others at once.
 * A failing `commit` or `detached` listener is logged with its event and never turns a committed write
 * into an error.
 */
export type Phase = "write" | "commit" | "detached";

/** A transaction's `publish` (db/tx.ts `withTransaction`), for helpers that publish on its behalf. */
export type Publish = (event: DomainEvent) => Promise<void>;

type Handler<K extends EventName> = {
  write: (tx: Tx, event: DomainEvent<K>) => Promise<void>;
  commit: (event: DomainEvent<K>) => void;
  detached: (event: DomainEvent<K>) => Promise<void>;
};

type Registration = {
  id: string;
  phase: Phase;
  lane?: (event: DomainEvent) => string;
  // biome-ignore lint/suspicious/noExplicitAny: one list holds every phase's handler; `on` types each
  run: (...args: any[]) => unknown;
};

export class EventBus {
  private readonly listeners = new Map<EventName, Registration[]>();
  private readonly lanes = new KeyedQueue();
  private readonly loose = new Set<Promise<unknown>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Registers a listener for the named events, in the given phase; `id` names it in logs. */
  on<K extends EventName, P extends Phase>(
    names: K | K[],
    options: { id: string; phase: P; lane?: P extends "detached" ? (event: DomainEvent<K>) => string : never },
    handler: Handler<K>[P],
  ): void {
    for (const name of Array.isArray(names) ? names : [names]) {
      const list = this.listeners.get(name) ?? [];
      list.push({ id: options.id, phase: options.phase, lane: options.lane as Registration["lane"], run: handler });
      this.listeners.set(name, list);
    }
  }

  /**
   * The `write` listeners of an event published inside a transaction, with its `tx` (db/tx.ts
   * `withTransaction`'s `publish` calls this, then `publish` once the transaction has committed).
   */
  async write(tx: Tx, event: DomainEvent): Promise<void> {
    for (const l of this.of(event, "write")) await l.run(tx, event);
  }

  /** Publishes from inside a transaction, given its hooks' `afterCommit`. */
  async within(tx: Tx, afterCommit: AfterCommit, event: DomainEvent): Promise<void> {
    await this.write(tx, event);
    afterCommit(() => this.publish(event));
  }

  /** Publishes what has already been committed (a single statement, or after a transaction). */
  publish(event: DomainEvent): void {
    for (const l of this.of(event, "commit")) {
      try {
        l.run(event);
      } catch (err) {
        this.failed(l, event, err);
      }
    }
    for (const l of this.of(event, "detached")) {
      const task = () =>
        Promise.resolve()
          .then(() => l.run(event))
          .catch((err) => this.failed(l, event, err));
      if (l.lane) {
        void this.lanes.run(`${l.id}:${l.lane(event)}`, task);
        continue;
      }
      const p = task();
      this.loose.add(p);
      void p.finally(() => this.loose.delete(p));
    }
  }

  /** Whether a detached listener still has work for this lane key (e.g. the bot still busy with a contact). */
  busy(listenerId: string, lane: string): boolean {
    return this.lanes.busy(`${listenerId}:${lane}`);
  }

  /** Resolves once a detached listener's lane has run what was published to it so far (the simulator waits for the bot). */
  async settled(listenerId: string, lane: string): Promise<void> {
    const key = `${listenerId}:${lane}`;
    if (this.lanes.busy(key)) await this.lanes.run(key, async () => undefined);
  }

  /** Resolves once no detached listener has work, including work queued while it waits (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.lanes.size > 0 || this.loose.size > 0) {
      await this.lanes.idle();
      await Promise.all([...this.loose]);
    }
  }

  private of(event: DomainEvent, phase: Phase): Registration[] {
    return (this.listeners.get(event.type) ?? []).filter((l) => l.phase === phase);
  }

  private failed(l: Registration, event: DomainEvent, err: unknown): void {
    const companyId = (event as { companyId?: number }).companyId;
    this.log.error({ err, listener: l.id, event: event.type, companyId }, "event listener failed");
  }
}
