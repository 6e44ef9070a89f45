/**
 * Runs tasks of one key one after the other, in the order they were given, and tasks of different keys
 * at once. The inbound pipeline keys by contact: a contact's messages are stored in the order the channel
 * delivered them (the ticket's last message is the last one received), while other contacts' messages
 * are written alongside. The WhatsApp Web driver keys by chat, so a slow download holds up its own chat
 * only. A task that fails does not stop the ones queued behind it.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(task) : task();
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // the map holds only keys with work under way
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running. */
  get size(): number {
    return this.tails.size;
  }

  /** Whether the key has work queued or running. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  /** Resolves once no key has work, including work queued while it waits. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
