import { EventEmitter } from "node:events";
import {
  type AnyMessageContent,
  type BaileysEventMap,
  generateWAMessageFromContent,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
} from "baileys";
import { vi } from "vitest";
import type { BaileysSocket } from "../channels/baileys/driver.js";

/** The linked phone's number. */
export const OWN = "5215500000001";

/**
 * Just enough of a Baileys socket: an event emitter and recorded calls. Nothing touches the network.
 * A text is answered with the proto Baileys itself builds from the send's options (quote, disappearing
 * timer), so tests see what the contact's phone would get.
 */
export class FakeSocket implements BaileysSocket {
  readonly emitter = new EventEmitter();
  readonly ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
    off: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.off(event, listener);
    },
  };
  user = { id: `${OWN}:12@s.whatsapp.net`, name: "Mi Empresa" };
  ended = false;
  private sent = 0;
  constructor(readonly config: UserFacingSocketConfig) {}

  end = vi.fn(async (_error: Error | undefined) => {
    this.ended = true;
  });
  logout = vi.fn(async () => undefined);
  sendMessage = vi.fn(
    async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> => ({
      key: { remoteJid: jid, fromMe: true, id: `OUT-${++this.sent}` },
      messageTimestamp: 1_700_000_000,
      // as Baileys answers: the proto it encoded (media uploaded, keys made)
      message:
        "image" in content
          ? { imageMessage: { caption: content.caption, mimetype: "image/jpeg", mediaKey: Buffer.from("k".repeat(32)) } }
          : "text" in content
            ? generateWAMessageFromContent(
                jid,
                { extendedTextMessage: { text: content.text } },
                { ...options, userJid: this.user.id },
              ).message
            : undefined,
    }),
  );
  readMessages = vi.fn(async () => undefined);
  onWhatsApp = vi.fn(
    async (jid: string): Promise<{ jid: string; exists: boolean }[] | undefined> => [
      { jid: jid.replace(/^\+?/, ""), exists: true },
    ],
  );
  profilePictureUrl = vi.fn(async (): Promise<string | undefined> => "https://pps.whatsapp.net/v/pic.jpg");
  rejectCall = vi.fn(async () => undefined);

  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]) {
    this.emitter.emit(event, arg);
  }
  listeners() {
    return this.emitter.eventNames().reduce((n, e) => n + this.emitter.listenerCount(e), 0);
  }
}
