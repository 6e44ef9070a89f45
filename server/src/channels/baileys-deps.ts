import { SettingDefinitions } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { messages, settings, whatsapps } from "../db/schema/index.js";
import { demoSocketFactory } from "./baileys/demo-socket.js";
import { type BaileysDeps, decodeContent } from "./baileys/driver.js";
import { waVersionSource } from "./baileys/wa-version.js";

/** One WhatsApp Web version for every session of the process, fetched at the first start. */
const currentWaVersion = waVersionSource();

async function stored(s: Services, whatsappId: number, channelId: string) {
  const [row] = await s.db
    .select({
      body: messages.body,
      fromMe: messages.fromMe,
      participant: messages.participant,
      content: messages.channelContent,
      key: messages.channelKey,
    })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.channelId, channelId)))
    .limit(1);
  return row ?? null;
}

/** What the WhatsApp Web driver asks of Charla: the calls setting, stored messages for retries and quotes. */
export function baileysDeps(s: Services): BaileysDeps {
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
    async getMessage(whatsappId, channelId) {
      const row = await stored(s, whatsappId, channelId);
      if (!row) return undefined;
      // messages sent before their content was kept (or by another channel) go again as their text
      return (row.content ? decodeContent(row.content) : undefined) ?? { conversation: row.body };
    },
    async loadQuoted(whatsappId, channelId) {
      const row = await stored(s, whatsappId, channelId);
      if (!row) return null;
      const [wa] = await s.db.select({ number: whatsapps.number }).from(whatsapps).where(eq(whatsapps.id, whatsappId));
      return {
        fromMe: row.fromMe,
        body: row.body,
        participant: row.participant ?? (row.fromMe ? wa?.number : undefined),
        key: row.key,
      };
    },
  };
}
