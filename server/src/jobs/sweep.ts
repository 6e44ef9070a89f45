import type { Services } from "../context.js";

/**
 * A timed job: one batch claims at most `limit` due rows in a transaction (`FOR UPDATE SKIP LOCKED`)
 * and changes them conditionally, so any number of nodes may run it and each row is acted on once.
 * Returns how many rows it changed (a full batch is run again in the same round).
 */
export type Sweep = {
  name: string;
  batch: (s: Services, now: Date, limit: number) => Promise<number>;
  /**
   * Runs at most this often on a node (default: every round). For sweeps whose work is not urgent
   * or that look at this node's own state (its sockets) rather than claim rows.
   */
  everyMs?: number;
};
