import { type GroupMetadata, isJidGroup, type MiscMessageGenerationOptions } from "baileys";
import { memoryCache } from "../../lib/memory-cache.js";
import { DisappearingChats } from "./disappearing.js";
import type { BaileysSocket } from "./socket.js";

const GROUP_SUBJECT_TTL_MS = 60 * 60_000;

/** What a session knows of its chats from what it received: groups' metadata and disappearing timers. */
export class KnownChats {
  /** Groups' metadata, fetched once an hour at most: the subject names the ticket, Baileys sends with it. */
  readonly groups = memoryCache(GROUP_SUBJECT_TTL_MS, 2_000);
  /** Chats' disappearing timers, as their messages tell them: every send there carries its chat's. */
  readonly disappearing = new DisappearingChats();

  /** What goes with every send to a chat: its disappearing timer, when it has one (phones drop nothing then). */
  options(jid: string): MiscMessageGenerationOptions {
    const group = isJidGroup(jid) ? this.groups.get<GroupMetadata>(jid) : undefined;
    const seconds = this.disappearing.timerOf(jid, group?.ephemeralDuration);
    return seconds ? { ephemeralExpiration: seconds } : {};
  }

  /** Metadata Baileys asks for before a group send (cachedGroupMetadata). */
  group(jid: string): GroupMetadata | undefined {
    return this.groups.get<GroupMetadata>(jid);
  }

  /** A group's changes merged into what is known of it; a group not known yet is fetched when needed. */
  updateGroups(groups: Partial<GroupMetadata>[]) {
    for (const g of groups) {
      const known = g.id ? this.groups.get<GroupMetadata>(g.id) : undefined;
      if (known && g.id) this.groups.set(g.id, { ...known, ...g });
    }
  }

  async groupSubject(sock: BaileysSocket, jid: string): Promise<string | undefined> {
    const cached = this.groups.get<GroupMetadata>(jid);
    if (cached) return cached.subject;
    if (!sock.groupMetadata) return undefined;
    try {
      const meta = await sock.groupMetadata(jid);
      this.groups.set(jid, meta);
      return meta.subject;
    } catch {
      return undefined;
    }
  }
}
