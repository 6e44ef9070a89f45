import type { Db, Tx } from "./client.js";

export type AfterCommit = (fn: () => void | Promise<void>) => void;

/**
 * Where a transaction's events go (the EventBus): `write` does, inside the transaction, what must
 * commit with the change or not at all (write listeners, durable listeners' job rows); `publish`, given
 * what `write` wrote, the rest once it has committed (the other listeners, the durable jobs run here).
 */
export interface EventSink<E, W> {
  write(tx: Tx, event: E): Promise<W>;
  publish(event: E, written: W): void;
}

export type PublishOptions = {
  /**
   * Not at the commit but at this moment (this process's timer): an automatic message recorded now and
   * due later is run on its lane then. What must survive this process is a row already (its job).
   */
  at?: Date;
};

/**
 * What a transaction's body may do besides writing rows. `publish` is the one way to announce a change
 * made in it: its write and durable listeners write their rows now, with `tx`; the others run after
 * the commit, in publication order, and never if it rolls back. `afterCommit` is for what is not an
 * event (a file to remove once the row that named it is gone).
 */
export type TxHooks<E> = {
  publish: (event: E, opts?: PublishOptions) => Promise<void>;
  afterCommit: AfterCommit;
};

type WithEvents<E, W> = { db: Db; events: EventSink<E, W> };

/**
 * Runs `fn` in one transaction. Given the services (`{db, events}`) its body may `publish` events;
 * given a bare `db`, only `afterCommit`. What is queued for after the commit runs once it is committed;
 * its failure is logged by whoever queued it and never turns the committed write into an error.
 */
export function withTransaction<T>(db: Db, fn: (tx: Tx, hooks: Pick<TxHooks<never>, "afterCommit">) => Promise<T>): Promise<T>;
export function withTransaction<T, E, W>(s: WithEvents<E, W>, fn: (tx: Tx, hooks: TxHooks<E>) => Promise<T>): Promise<T>;
export async function withTransaction<T, E, W>(
  on: Db | WithEvents<E, W>,
  fn: (tx: Tx, hooks: TxHooks<E>) => Promise<T>,
): Promise<T> {
  const sink = "events" in on && "db" in on ? on.events : null;
  const db = sink ? (on as WithEvents<E, W>).db : (on as Db);
  const queued: (() => void | Promise<void>)[] = [];
  const afterCommit: AfterCommit = (cb) => queued.push(cb);
  const result = await db.transaction((tx) =>
    fn(tx, {
      afterCommit,
      publish: async (event, opts = {}) => {
        if (!sink) throw new Error("withTransaction: publish needs the services ({ db, events }), not a bare db");
        const written = await sink.write(tx, event);
        const committed = () => sink.publish(event, written);
        const at = opts.at;
        if (!at) afterCommit(committed);
        else afterCommit(() => void setTimeout(committed, Math.max(0, at.getTime() - Date.now())).unref());
      },
    }),
  );
  for (const cb of queued) {
    try {
      await cb();
    } catch {
      // a failed broadcast must not turn a committed write into an error response
    }
  }
  return result;
}
