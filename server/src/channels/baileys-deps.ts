import { SettingDefinitions } from "@charla/contracts";
import type { FastifyBaseLogger } from "fastify";
import { and, eq } from "drizzle-orm";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { scoped } from "../db/scoped.js";
import { messages, settings, whatsapps } from "../db/schema/index.js";
import { demoSocketFactory } from "./baileys/demo-socket.js";
import { type BaileysDeps, decodeContent } from "./baileys/driver.js";
import { waVersionSource } from "./baileys/wa-version.js";

/** One WhatsApp Web version for every session of the process, fetched at the first start. */
const currentWaVersion = waVersionSource();

/** What the driver's dependencies use of the app: the database, the log, test mode. */
export type BaileysHost = { db: Db; log: FastifyBaseLogger; config: Pick<Config, "fakeWhatsapp"> };
/** A session's connection, always asked for with its company. */
export type ConnectionRef = { companyId: number; whatsappId: number };

async function stored(s: BaileysHost, ref: ConnectionRef, channelId: string) {
  const q = scoped(s.db, ref.companyId);
  const [row] = await q.db
    .select({
      body: messages.body,
      fromMe: messages.fromMe,
      participant: messages.participant,
      content: messages.channelContent,
      key: messages.channelKey,
    })
    .from(messages)
    .where(q.messages.where(and(eq(messages.whatsappId, ref.whatsappId), eq(messages.channelId, channelId))))
    .limit(1);
  return row ?? null;
}

/** What the WhatsApp Web driver asks of Charla: the calls setting, stored messages for retries and quotes. */
export function baileysDeps(s: BaileysHost): BaileysDeps {
  return {
    db: s.db,
    log: s.log,
    makeSocket: s.config.fakeWhatsapp ? demoSocketFactory : undefined,
    // the demo socket never reaches WhatsApp: no version to ask for
    waVersion: s.config.fakeWhatsapp ? undefined : currentWaVersion,
    // core §3 settings: `call` disabled means calls are refused with a message
    async callsAllowed(companyId) {
      // read here, not through modules/settings: channels/ reach nothing above them
      const q = scoped(s.db, companyId);
      const [row] = await q.db
        .select({ value: settings.value })
        .from(settings)
        .where(q.settings.where(eq(settings.key, "call")));
      return (row?.value ?? SettingDefinitions.call.default) !== "disabled";
    },
    async getMessage(ref, channelId) {
      const row = await stored(s, ref, channelId);
      if (!row) return undefined;
      // messages sent before their content was kept (or by another channel) go again as their text
      return (row.content ? decodeContent(row.content) : undefined) ?? { conversation: row.body };
    },
    async loadQuoted(ref, channelId) {
      const row = await stored(s, ref, channelId);
      if (!row) return null;
      const q = scoped(s.db, ref.companyId);
      const [wa] = await q.db
        .select({ number: whatsapps.number })
        .from(whatsapps)
        .where(q.whatsapps.where(eq(whatsapps.id, ref.whatsappId)));
      return {
        fromMe: row.fromMe,
        body: row.body,
        participant: row.participant ?? (row.fromMe ? wa?.number : undefined),
        key: row.key,
      };
    },
  };
}
