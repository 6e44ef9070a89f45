import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Tx } from "../db/client.js";
import type { PublishOptions } from "../db/tx.js";
import { KeyedQueue } from "../lib/keyed-queue.js";
import type { DomainEvent, EventName } from "./catalog.js";

/**
 * When a listener runs (Outline's model hooks and processors, Chatwoot's listeners). A change is
 * published from its transaction (db/tx.ts `withTransaction(s, (tx, { publish }) => …)`), or, after a
 * single statement that committed on its own, with `publish(event)`.
 * - `write`: inside the publisher's transaction, before it commits; it may only write rows through
 *   `tx`, so what it writes commits with the change or not at all. Its failure fails the transaction.
 * - `durable`: a listener whose work must survive a crash. It names a job (jobs/durable); the job's row
 *   is written in the publisher's transaction (committed with the change or not at all) and run on this
 *   node right after the commit; if this node dies first, any node's job runner finds the row. Such an
 *   event must be published inside a transaction: `publish` outside one refuses it.
 * - `commit`: right after the commit, synchronously and in publication order, on the publisher's path.
 *   For what must be cheap and ordered: presenting a socket event.
 * - `detached`: after the commit, off the publisher's path; listeners given a `lane` run one event at a
 *   time per lane key (per ticket, per contact) in publication order, others at once. Lost if the
 *   process dies first: where that matters and the cause cannot write a job row (the inbound statement),
 *   an owed sweep finds the work again (jobs/owed-sweep.ts).
 * A failing `commit` or `detached` listener, or a durable job's immediate run, is logged with its event
 * and never turns a committed write into an error.
 */
export type Phase = "write" | "commit" | "detached" | "durable";

/** A transaction's `publish` (db/tx.ts `withTransaction`), for helpers that publish on its behalf. */
export type Publish = (event: DomainEvent, opts?: PublishOptions) => Promise<void>;

/**
 * A job kind as the bus sees it: jobs/durable's `JobKind` has this shape (events/ cannot import it,
 * jobs/ sits above it and imports the services that hold the bus).
 */
export type DurableKind<P> = { kind: string; payload: z.ZodType<P>; maxAttempts?: number };

/** The job a durable listener asks for, for one event: its company, kind, payload and idempotency key. */
export type DurableJob<P = unknown> = { companyId: number; kind: DurableKind<P>; payload: P; idempotencyKey?: string };

/**
 * How the bus writes and runs durable listeners' jobs (app.ts gives it jobs/durable's `enqueue` and
 * `runJobNow`): `enqueue` writes the row in the given transaction and returns its id, or null when its
 * idempotency key was already used; `runNow` runs a pending job on this node.
 */
export type DurableJobs = {
  enqueue: (tx: Tx, job: DurableJob) => Promise<number | null>;
  runNow: (jobId: number) => Promise<unknown>;
};

/** What a publication wrote in its transaction: the durable listeners' jobs, to run once it commits. */
export type Written = { jobs: { listenerId: string; jobId: number }[] };

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

  /** `jobs` is needed only by durable listeners (a bus without it refuses to register one). */
  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly jobs?: DurableJobs,
  ) {}

  /** Registers a durable listener: `job` names the job an event needs, or null when it needs none. */
  on<K extends EventName, P>(
    names: K | K[],
    options: { id: string; phase: "durable"; job: (event: DomainEvent<K>) => DurableJob<P> | null },
  ): void;
  /** Registers a listener for the named events, in the given phase; `id` names it in logs. */
  on<K extends EventName, P extends Exclude<Phase, "durable">>(
    names: K | K[],
    options: { id: string; phase: P; lane?: P extends "detached" ? (event: DomainEvent<K>) => string : never },
    handler: Handler<K>[P],
  ): void;
  on(
    names: EventName | EventName[],
    options: { id: string; phase: Phase; lane?: unknown; job?: (event: DomainEvent) => DurableJob | null },
    handler?: Registration["run"],
  ): void {
    if (options.phase === "durable" && !this.jobs) {
      throw new Error(`durable listener ${options.id}: this bus was built without jobs (new EventBus(log, jobs))`);
    }
    const run = options.phase === "durable" ? options.job : handler;
    if (!run) throw new Error(`listener ${options.id}: nothing to run`);
    for (const name of Array.isArray(names) ? names : [names]) {
      const list = this.listeners.get(name) ?? [];
      list.push({ id: options.id, phase: options.phase, lane: options.lane as Registration["lane"], run });
      this.listeners.set(name, list);
    }
  }

  /**
   * The part of a publication that happens inside the publisher's transaction: its `write` listeners
   * run with `tx`, and its durable listeners' jobs are written with it. Returns what was written, for
   * `publish` once the transaction has committed (db/tx.ts `withTransaction`'s `publish` does both).
   */
  async write(tx: Tx, event: DomainEvent): Promise<Written> {
    for (const l of this.of(event, "write")) await l.run(tx, event);
    const jobs: Written["jobs"] = [];
    for (const l of this.of(event, "durable")) {
      const job = l.run(event) as DurableJob | null;
      if (!job) continue;
      const jobId = await (this.jobs as DurableJobs).enqueue(tx, job);
      // null: the idempotency key was used by an earlier cause, whose job is that cause's to run
      if (jobId !== null) jobs.push({ listenerId: l.id, jobId });
    }
    return { jobs };
  }

  /**
   * Publishes what has been committed: the commit listeners, in order on this path, the detached ones
   * off it, and the durable jobs its transaction wrote (`written`, from `write`), run on this node.
   * Without `written` (after a single statement) an event with durable listeners is refused: their
   * jobs would not commit with the change, so it is published from its transaction.
   */
  publish(event: DomainEvent, written?: Written): void {
    const durable = this.of(event, "durable");
    if (durable.length && !written) {
      throw new Error(
        `${event.type} has durable listeners (${durable.map((l) => l.id).join(", ")}): publish it inside its transaction (withTransaction's publish), so their jobs commit with it`,
      );
    }
    this.deliver(event);
    for (const { listenerId, jobId } of written?.jobs ?? []) {
      this.detach({ id: listenerId }, event, () => (this.jobs as DurableJobs).runNow(jobId));
    }
  }

  /** The commit listeners, in order on this path, then the detached ones off it. */
  private deliver(event: DomainEvent): void {
    for (const l of this.of(event, "commit")) {
      try {
        l.run(event);
      } catch (err) {
        this.failed(l, event, err);
      }
    }
    for (const l of this.of(event, "detached")) this.detach(l, event, () => l.run(event));
  }

  /** Runs a listener's work off the publisher's path: on its lane if it has one, else at once. */
  private detach(l: Pick<Registration, "id" | "lane">, event: DomainEvent, work: () => unknown): void {
    const task = () =>
      Promise.resolve()
        .then(work)
        .catch((err) => this.failed(l, event, err));
    if (l.lane) {
      void this.lanes.run(`${l.id}:${l.lane(event)}`, task);
      return;
    }
    const p = task();
    this.loose.add(p);
    void p.finally(() => this.loose.delete(p));
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

  private failed(l: Pick<Registration, "id">, event: DomainEvent, err: unknown): void {
    const companyId = (event as { companyId?: number }).companyId;
    this.log.error({ err, listener: l.id, event: event.type, companyId }, "event listener failed");
  }
}
