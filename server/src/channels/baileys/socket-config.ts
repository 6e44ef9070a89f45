import {
  type AuthenticationState,
  Browsers,
  type GroupMetadata,
  isJidBroadcast,
  isJidNewsletter,
  makeWASocket,
  type proto,
  type UserFacingSocketConfig,
} from "baileys";
import type { FastifyBaseLogger } from "fastify";
import type { BaileysSocket, SocketFactory } from "./socket.js";
import type { WaVersion } from "./wa-version.js";

/** Baileys' own log, quiet unless the app's is: its warnings and worse, under the connection's id. */
export function baileysLogger(log: FastifyBaseLogger, whatsappId: number): FastifyBaseLogger {
  const quiet = ["fatal", "error", "silent"].includes(log.level) ? log.level : "warn";
  return log.child({ whatsappId, module: "baileys" }, { level: quiet });
}

export type SocketSetup = {
  auth: AuthenticationState;
  logger: FastifyBaseLogger;
  version?: WaVersion;
  /** A sent message's content, for the contact's phone's retry requests. */
  getMessage?: (channelId: string) => Promise<proto.IMessage | undefined>;
  /** Kept across the session's sockets (Baileys' own is per socket). */
  retryCounts: UserFacingSocketConfig["msgRetryCounterCache"];
  group(jid: string): GroupMetadata | undefined;
};

/** A socket as Charla runs one: `make` (a test's fake, the demo phone) or Baileys' own. */
export function openBaileysSocket(make: SocketFactory | undefined, setup: SocketSetup): BaileysSocket {
  const { auth, logger, version, getMessage } = setup;
  return (make ?? ((config: UserFacingSocketConfig) => makeWASocket(config)))({
    auth,
    logger,
    browser: Browsers.ubuntu("Chrome"),
    // agents' phones keep their notifications
    markOnlineOnConnect: false,
    // messages Charla sends are stored by the sender; an echo would race that write
    emitOwnEvents: false,
    syncFullHistory: false,
    ...(version ? { version } : {}),
    getMessage: async (key) => (key.id ? getMessage?.(key.id) : undefined),
    // status updates, channels and broadcast lists are not conversations: not even decrypted
    shouldIgnoreJid: (jid) => !!(isJidBroadcast(jid) || isJidNewsletter(jid)),
    msgRetryCounterCache: setup.retryCounts,
    cachedGroupMetadata: async (jid) => setup.group(jid),
  });
}
