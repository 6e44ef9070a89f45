type Waiting<I, R> = { item: I; resolve: (result: R) => void; reject: (err: unknown) => void };
type Lane<I, R> = { running: boolean; waiting: Waiting<I, R>[] };

/**
 * Work for one key done a batch at a time (group commit, as the inbound writer stores messages): items
 * arriving while a batch runs wait and go together in the next, so a burst costs one statement, not one
 * per item; a lone item goes at once. `run` answers each item of its batch, in the batch's order; a batch
 * that fails rejects each of its items, and the next batch still runs.
 */
export class GroupCommit<C, I, R> {
  private readonly lanes = new Map<string, Lane<I, R>>();

  constructor(
    private readonly maxPerBatch: number,
    private readonly run: (context: C, batch: I[]) => Promise<R[]>,
  ) {}

  /** `context` is the key's (the same for every item of it), e.g. the connection the key names. */
  add(key: string, context: C, item: I): Promise<R> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { running: false, waiting: [] };
      this.lanes.set(key, lane);
    }
    const { waiting } = lane;
    const done = new Promise<R>((resolve, reject) => waiting.push({ item, resolve, reject }));
    if (!lane.running) void this.drain(key, context, lane);
    return done;
  }

  private async drain(key: string, context: C, lane: Lane<I, R>): Promise<void> {
    lane.running = true;
    while (lane.waiting.length) {
      const batch = lane.waiting.splice(0, this.maxPerBatch);
      try {
        const results = await this.run(
          context,
          batch.map((w) => w.item),
        );
        for (const [i, w] of batch.entries()) w.resolve(results[i]);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    lane.running = false;
    this.lanes.delete(key);
  }
}
