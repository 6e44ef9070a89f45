import type { ConnectionStatus, StatusReason } from "@charla/contracts";
import { eq, ne } from "drizzle-orm";
import type { ChannelEvents } from "../channels/driver.js";
import type { ChannelInbox, InboxSession } from "../channels/inbox.js";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { messages, whatsapps } from "../db/schema/index.js";
import { memoryCache } from "../lib/memory-cache.js";
import { adoptNumber } from "../modules/contacts/adopt-number.js";
import { applyAck } from "../modules/messages/acks.js";
import { publishMessageDeletion, publishMessageUpdate } from "../modules/messages/broadcast.js";
import { emitConnectionSession } from "../modules/whatsapps/broadcast.js";
import { groupsIgnored, handleInbound, isStored } from "./inbound.js";

/**
 * How long a company's CheckMsgIsGroup answer is reused for drivers' asking (one per group message):
 * a change takes this long to reach them; the pipeline itself always reads the setting.
 */
const GROUP_SETTING_TTL_MS = 10_000;
/** An ack that found no row (its message not yet committed, maybe by another process) is tried again. */
const EARLY_ACK_RETRY_MS = [1_000, 5_000];

/**
 * Every driver's events, for one app: messages into the inbound pipeline, acks, edits and deletions
 * onto stored messages, the session's status onto its connection. Given to Sessions in app.ts.
 */
export function channelInbox(s: Services): ChannelInbox {
  const groupSettings = memoryCache(GROUP_SETTING_TTL_MS, 10_000);
  const groupsIgnoredCached = async (companyId: number) => {
    const cached = groupSettings.get<boolean>(String(companyId));
    if (cached !== undefined) return cached;
    const ignored = await groupsIgnored(s, companyId);
    groupSettings.set(String(companyId), ignored);
    return ignored;
  };
  return (session) => eventsOf(s, session, groupsIgnoredCached);
}

function eventsOf(s: Services, session: InboxSession, groupsIgnoredOf: (companyId: number) => Promise<boolean>): ChannelEvents {
  const { companyId, whatsappId } = session;
  const ref = { companyId, whatsappId };
  const q = scoped(s.db, companyId);
  const own = (channelId: string) => [eq(messages.whatsappId, whatsappId), eq(messages.channelId, channelId)];
  return {
    message: async (msg) => {
      await handleInbound(s, ref, msg);
    },
    // acks only move up; one that overtakes the row it belongs to waits in the session's early acks (a
    // failure has no early form: the row of a message handed to a channel exists before the channel answers)
    ack: async (channelId, ack, error) => {
      if ((await applyAck(s, ref, channelId, ack, error)).length) return true;
      // nothing changed: the message already knew better (a repeated receipt), or it is not there yet
      if (await isStored(s, ref, channelId)) return true;
      if (ack > 0) session.rememberEarlyAck(channelId, ack);
      // tried again until it lands once: a later try would raise what happened since (a failure
      // recorded after delivery) back to this ack
      const retry = (at: number) => {
        if (at >= EARLY_ACK_RETRY_MS.length) return;
        const wait = EARLY_ACK_RETRY_MS[at] - (at > 0 ? EARLY_ACK_RETRY_MS[at - 1] : 0);
        setTimeout(async () => {
          try {
            if ((await applyAck(s, ref, channelId, ack, error)).length) return;
          } catch {
            // the app may be closing; the ack is a courtesy
            return;
          }
          retry(at + 1);
        }, wait).unref();
      };
      retry(0);
      return false;
    },
    revoked: async (channelId) => {
      const rows = await q.db
        .update(messages)
        .set({ isDeleted: true, updatedAt: new Date() })
        .where(q.messages.where(...own(channelId), eq(messages.isDeleted, false)))
        .returning();
      await publishMessageDeletion(s, companyId, rows);
    },
    edited: async (channelId, body) => {
      const rows = await q.db
        .update(messages)
        .set({ body, isEdited: true, updatedAt: new Date() })
        .where(q.messages.where(...own(channelId), ne(messages.body, body), eq(messages.isDeleted, false)))
        .returning();
      await publishMessageUpdate(s, companyId, rows);
    },
    addressResolved: (address, number) => adoptNumber(s, companyId, address, number),
    groupsIgnored: () => groupsIgnoredOf(companyId),
    known: (channelId) => isStored(s, ref, channelId),
    status: async (status, extra = {}) => {
      if (!session.speaks()) return;
      const [row] = await q.db
        .update(whatsapps)
        .set({
          status,
          // a reason belongs to the status it came with: any later status clears it
          statusReason: extra.reason ?? "",
          // the QR is only meaningful while waiting for a scan
          qrcode: status === "qrcode" || status === "PAIRING" ? (extra.qrcode ?? "") : "",
          retries: extra.retries ?? (status === "CONNECTED" ? 0 : undefined),
          ...(extra.number ? { number: extra.number } : {}),
          updatedAt: new Date(),
        })
        .where(q.whatsapps.where(eq(whatsapps.id, whatsappId)))
        .returning();
      if (!row) return;
      const view = {
        id: row.id,
        status: row.status as ConnectionStatus,
        statusReason: row.statusReason as StatusReason,
        qrcode: row.qrcode,
        retries: row.retries,
        updatedAt: row.updatedAt.toISOString(),
      };
      // the QR code only to who may manage connections (core §6)
      await emitConnectionSession(s, companyId, view);
    },
  };
}
