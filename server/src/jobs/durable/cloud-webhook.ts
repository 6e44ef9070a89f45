import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { inboundMessages, messageValues, phoneNumberIdOf } from "../../channels/cloud/receive.js";
import { dateOf, opensWindow } from "../../channels/cloud/inbound-map.js";
import type { Services } from "../../context.js";
import { whatsapps } from "../../db/schema/index.js";
import { openWindows } from "../../modules/cloud/window.js";
import { defineJobKind } from "./kind.js";

/** A payload is small and its processing a few inserts and maybe downloads: a run cut off by a crash is taken again after this. */
export const CLOUD_WEBHOOK_LEASE_SEC = 60;

type Json = Record<string, unknown>;
type Target = { id: number; companyId: number; phoneNumberId: string };

/**
 * The customers' latest message time per number, for their 24-hour windows. A time ahead of ours
 * (Meta's clock, a forged replay that passed the signature) counts as now: a window never opens beyond
 * 24 h from the moment it was heard of.
 */
export function latestInbound(payload: unknown, now = new Date()): Map<string, Date> {
  const latest = new Map<string, Date>();
  for (const m of inboundMessages(payload)) {
    const number = typeof m.from === "string" && /^\d{5,20}$/.test(m.from) ? m.from : "";
    const at = dateOf(m.timestamp);
    if (!number || !at || !opensWindow(m)) continue;
    const clamped = at > now ? now : at;
    const known = latest.get(number);
    if (!known || clamped > known) latest.set(number, clamped);
  }
  return latest;
}

/**
 * The payload's changes per connection: a Meta app has one callback URL for all its numbers, so a POST
 * to one connection's URL may carry another number's events. Those go to the company's connection of
 * that phone-number id; a change naming none is the addressed connection's. Others are logged and left.
 */
async function split(s: Services, own: Target, payload: Json): Promise<{ target: Target; payload: Json }[]> {
  const byNumber = new Map<string, Json[]>();
  for (const entry of Array.isArray(payload.entry) ? payload.entry : []) {
    const e = entry && typeof entry === "object" ? (entry as Json) : {};
    for (const change of Array.isArray(e.changes) ? e.changes : []) {
      const value = change && typeof change === "object" ? ((change as Json).value as Json) : undefined;
      const id = value && typeof value === "object" ? phoneNumberIdOf(value) : "";
      const key = id || own.phoneNumberId;
      byNumber.set(key, [...(byNumber.get(key) ?? []), { id: e.id, changes: [change] }]);
    }
  }
  const out: { target: Target; payload: Json }[] = [];
  for (const [phoneNumberId, entries] of byNumber) {
    let target: Target | null = phoneNumberId === own.phoneNumberId ? own : null;
    if (!target) {
      const [row] = await s.db
        .select({ id: whatsapps.id, companyId: whatsapps.companyId, phoneNumberId: whatsapps.cloudPhoneNumberId })
        .from(whatsapps)
        .where(
          and(
            eq(whatsapps.companyId, own.companyId),
            eq(whatsapps.provider, "cloud"),
            eq(whatsapps.cloudPhoneNumberId, phoneNumberId),
          ),
        )
        .limit(1);
      target = row ?? null;
    }
    if (!target) {
      s.log.warn({ whatsappId: own.id, phoneNumberId }, "whatsapp cloud webhook for a number no connection has: left");
      continue;
    }
    out.push({ target, payload: { object: payload.object, entry: entries } });
  }
  return out;
}

/**
 * Processes one received webhook POST (written by the webhook route before it answered 200): each
 * connection's customers' windows first (so an agent answering the message it sees finds the window
 * open), then its driver's receiveWebhook (messages through the inbound door, statuses onto acks).
 * Safe to run again: windows move only forward, the pipeline stores a wamid once per connection, acks
 * only move up. A driver that cannot take it yet fails the run, which the runner retries with backoff.
 */
export async function processCloudWebhook(s: Services, companyId: number, whatsappId: number, body: string): Promise<void> {
  const [row] = await s.db
    .select({
      id: whatsapps.id,
      companyId: whatsapps.companyId,
      provider: whatsapps.provider,
      phoneNumberId: whatsapps.cloudPhoneNumberId,
    })
    .from(whatsapps)
    .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.companyId, companyId)));
  // the connection was deleted (or is no Cloud API one any more) since: nothing to hand it to
  if (row?.provider !== "cloud") return;
  let payload: Json;
  try {
    const parsed: unknown = JSON.parse(body);
    payload = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Json) : {};
  } catch {
    // the route parsed it before writing the row: this is a row nobody should have written
    s.log.warn({ whatsappId }, "whatsapp cloud webhook row is no JSON: left");
    return;
  }
  for (const part of await split(s, row, payload)) {
    if (messageValues(part.payload).length === 0) continue;
    await openWindows(s.db, part.target.companyId, part.target.id, latestInbound(part.payload));
    const driver = await s.sessions.driverFor(part.target.companyId, part.target.id);
    if (!driver?.receiveWebhook) throw new Error(`ERR_WAPP_NOT_INITIALIZED: connection ${part.target.id} has no webhook driver`);
    await driver.receiveWebhook(part.payload);
  }
}

/** `cloud.webhook`: one verified POST of Meta's webhook, its raw text as received, for the connection its URL named. */
export const cloudWebhookJob = defineJobKind({
  kind: "cloud.webhook",
  payload: z.object({ whatsappId: z.number().int().positive(), body: z.string() }),
  leaseSec: CLOUD_WEBHOOK_LEASE_SEC,
  backoff: { baseSec: 5, capSec: 600 },
  run: (s, job) => processCloudWebhook(s, job.companyId, job.payload.whatsappId, job.payload.body),
});
