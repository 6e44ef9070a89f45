import { jidNormalizedUser, type WAMessage } from "baileys";
import { memoryCache } from "../../lib/memory-cache.js";
import { expirationOf } from "./map-message.js";

/** A chat's timer is remembered this long after the chat last told it (a message, a setting). */
const TIMER_TTL_MS = 7 * 24 * 60 * 60_000;
const MAX_CHATS = 20_000;

/**
 * The disappearing-messages timers of a session's chats, as their messages tell them. A message sent
 * into a disappearing chat without the chat's timer does not disappear on the contact's phone, and
 * WhatsApp shows it apart; Baileys sets it only when told (MiscMessageGenerationOptions
 * .ephemeralExpiration). Bounded and in memory: after a restart a chat's next message tells it again.
 */
export class DisappearingChats {
  private readonly timers = memoryCache(TIMER_TTL_MS, MAX_CHATS);

  /** Remembers what the message tells of its chat's timer under each of the chat's jids (0: off). */
  tell(msg: WAMessage, jids: (string | null | undefined)[]): void {
    const seconds = expirationOf(msg);
    if (seconds === undefined) return;
    for (const jid of jids) {
      if (!jid) continue;
      // an "off" is kept too: it outweighs a group's metadata fetched before the change
      this.timers.set(jidNormalizedUser(jid), seconds);
    }
  }

  /** The chat's timer in seconds (undefined: none), else `fallback` (a group's metadata knows its own). */
  timerOf(jid: string, fallback?: number | null): number | undefined {
    return (this.timers.get<number>(jid) ?? fallback) || undefined;
  }
}
