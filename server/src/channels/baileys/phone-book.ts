import type { Contact } from "baileys";
import type { FastifyBaseLogger } from "fastify";
import type { BookEntry, ContactsBookStore } from "./contacts-book.js";
import type { LearntLids } from "./lids.js";
import { userOf } from "./map-message.js";

/**
 * The linked phone's address book as WhatsApp shares it (contacts-book.ts keeps it). Written on its
 * own chain (`writes`, whenIdle waits for it), so messages never wait on a sync of thousands.
 */
export class PhoneBook {
  /** Names by number, as told this run. */
  private readonly names = new Map<string, string>();
  writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ContactsBookStore,
    private readonly log: FastifyBaseLogger,
    private readonly ref: { companyId: number; whatsappId: number },
  ) {}

  /** Contacts as WhatsApp tells them; a contact's LID is learnt on the way. */
  remember(contacts: Partial<Contact>[], lids: LearntLids) {
    const changed: BookEntry[] = [];
    for (const c of contacts) {
      const pnJid = c.id?.endsWith("@s.whatsapp.net") ? c.id : c.phoneNumber;
      const number = userOf(pnJid);
      if (!number || !/^\d+$/.test(number)) continue;
      const lidJid = c.id?.endsWith("@lid") ? c.id : c.lid;
      if (lidJid) lids.remember(lidJid, pnJid);
      const name = c.name || c.notify || c.verifiedName || this.names.get(number) || "";
      if (this.names.get(number) !== name) changed.push({ number, name });
      this.names.set(number, name);
    }
    if (changed.length) this.save(changed);
  }

  private save(entries: BookEntry[]) {
    this.writes = this.writes
      .then(() => this.store.save(entries))
      .catch((err) => this.log.warn({ err, ...this.ref }, "whatsapp contacts book not saved"));
  }

  /** What WhatsApp shared since the link was made, this run or an earlier one. */
  async list(): Promise<{ name: string; number: string }[]> {
    await this.writes;
    const stored = await this.store.all();
    const all = new Map(stored.map((e) => [e.number, e.name]));
    for (const [number, name] of this.names) if (name || !all.has(number)) all.set(number, name);
    return [...all].map(([number, name]) => ({ name: name || number, number }));
  }

  /** Another phone may be linked next: its book is its own. */
  async forget() {
    this.names.clear();
    await this.writes;
    await this.store.clear().catch((err) => this.log.warn({ err, ...this.ref }, "whatsapp contacts book not cleared"));
  }
}
