import type { FastifyBaseLogger } from "fastify";
import type { LidStore } from "./lid-store.js";
import { userOf } from "./map-message.js";
import type { BaileysSocket } from "./socket.js";

/**
 * The LIDs a session learns (lid-store.ts keeps them), written one after the other: messages received
 * after a mapping wait for its write (`writes`), so they resolve through it.
 */
export class LearntLids {
  private readonly store: LidStore;
  /** LID mappings being written. */
  writes: Promise<void> = Promise.resolve();

  constructor(
    store: LidStore,
    private readonly log: FastifyBaseLogger,
    /** A LID got a number it did not have: its contact takes the number. */
    learnt: (lid: string, number: string) => Promise<void> | undefined,
  ) {
    this.store = announcing(store, learnt);
  }

  /** The table first, then what Baileys itself learnt (remembered for next time). */
  of(sock: BaileysSocket): LidStore {
    return {
      get: async (lid) => {
        const known = await this.store.get(lid);
        if (known) return known;
        const pn = userOf(await sock.signalRepository?.lidMapping.getPNForLID(`${lid}@lid`).catch(() => null));
        if (pn) await this.store.set(lid, pn).catch(() => undefined);
        return pn || null;
      },
      set: (lid, number) => this.store.set(lid, number),
    };
  }

  remember(lidJid: string | undefined, pnJid: string | undefined) {
    const lid = userOf(lidJid);
    const pn = userOf(pnJid);
    if (!lid || !pn || !lidJid?.endsWith("lid") || !/^\d+$/.test(pn)) return;
    this.writes = this.writes.then(() => this.store.set(lid, pn).catch((err) => this.log.debug({ err }, "lid not remembered")));
  }
}

/** A LID store that says when a LID gets a number it did not have. */
function announcing(store: LidStore, learnt: (lid: string, number: string) => Promise<void> | undefined): LidStore {
  return {
    get: (lid) => store.get(lid),
    async set(lid, number) {
      const before = await store.get(lid).catch(() => null);
      await store.set(lid, number);
      if (before !== number) await learnt(lid, number);
    },
  };
}
