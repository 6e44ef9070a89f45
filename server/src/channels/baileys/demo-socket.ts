import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { BaileysEventMap, UserFacingSocketConfig, WAMessage } from "baileys";
import type { BaileysSocket, SocketFactory } from "./driver.js";

/** How long the stand-in phone "takes" to scan its QR. */
export const DEMO_SCAN_MS = 2500;
export const DEMO_NUMBER = "5215599998888";
export const DEMO_PAIRING_CODE = "CHRL2468";

/**
 * Test mode (CHARLA_FAKE_WHATSAPP=1) for browser tests of a "beta" connection on a machine with no
 * WhatsApp: the socket shows a QR, then "scans" it and opens; messages sent go nowhere.
 */
export const demoSocketFactory: SocketFactory = (_config: UserFacingSocketConfig) => {
  const emitter = new EventEmitter();
  const timers: NodeJS.Timeout[] = [];
  const later = (ms: number, fn: () => void) => timers.push(setTimeout(fn, ms).unref());
  let sent = 0;
  const socket: BaileysSocket = {
    ev: {
      on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) =>
        void emitter.on(event, listener),
      off: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) =>
        void emitter.off(event, listener),
    },
    user: undefined,
    end: () => {
      for (const t of timers) clearTimeout(t);
    },
    logout: async () => undefined,
    sendMessage: async (jid): Promise<WAMessage | undefined> => ({
      key: { remoteJid: jid, fromMe: true, id: `DEMO-${++sent}-${randomUUID().slice(0, 6)}` },
      messageTimestamp: Math.floor(Date.now() / 1000),
    }),
    readMessages: async () => undefined,
    onWhatsApp: async (...numbers) => numbers.map((n) => ({ jid: `${n.replace(/\D/g, "")}@s.whatsapp.net`, exists: true })),
    profilePictureUrl: async () => undefined,
    rejectCall: async () => undefined,
    // the stand-in phone "types" its code as it "scans" its QR
    requestPairingCode: async () => DEMO_PAIRING_CODE,
  };
  later(100, () => emitter.emit("connection.update", { connection: "connecting" }));
  later(400, () => emitter.emit("connection.update", { qr: `charla-demo-qr-${randomUUID()}` }));
  later(DEMO_SCAN_MS, () => {
    socket.user = { id: `${DEMO_NUMBER}:1@s.whatsapp.net`, name: "Demo" };
    emitter.emit("connection.update", { connection: "open" });
  });
  return socket;
};
