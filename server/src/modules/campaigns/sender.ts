import { type ErrorCode, fillCampaignVariables, isErrorCode } from "@charla/contracts";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { ChannelDriver } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { campaignShippings, campaigns, whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { fillTemplate } from "../../lib/template.js";
import { fallbackTemplate } from "../cloud/fallback.js";
import { companyTimeZone } from "../companies/time-zone.js";
import { chatWindow } from "../cloud/window.js";
import { optionsOf } from "../file-lists/queries.js";
import { campaignsAllowed } from "../../jobs/eligible.js";
import { campaignChanged } from "./announce.js";
import { composeText, partMessageId } from "./message.js";
import { type CampaignRow, findCampaignView } from "./queries.js";
import { readCampaignSettings } from "./settings.js";

type Shipping = typeof campaignShippings.$inferSelect;
type Claimed = { sh: Shipping; c: CampaignRow };

/** A send that failed for another reason than a session that is down is tried this many times. */
export const MAX_ATTEMPTS = 3;
const RETRY_AFTER_MS = 30_000;

/** The connection a campaign sends through: its own, or the company's default one. */
async function connectionOf(s: Services, c: CampaignRow): Promise<number | null> {
  if (c.whatsappId) return c.whatsappId;
  const [w] = await s.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, c.companyId), eq(whatsapps.isDefault, true)));
  return w?.id ?? null;
}

/**
 * Takes due shippings of running campaigns, and sends cut off by a dead node (still under way after
 * campaignSendTtlSec), in one transaction with `FOR UPDATE SKIP LOCKED`, and records each as under way
 * (sending, or confirming when its confirmation is to go first). Any number of nodes may run this.
 */
async function claim(s: Services, now: Date, limit: number): Promise<Claimed[]> {
  const stale = new Date(now.getTime() - s.config.campaignSendTtlSec * 1000);
  return withTransaction(s.db, async (tx) => {
    const take = (where: ReturnType<typeof and>, n: number) =>
      tx
        .select({ sh: campaignShippings, c: campaigns })
        .from(campaignShippings)
        .innerJoin(
          campaigns,
          and(eq(campaigns.companyId, campaignShippings.companyId), eq(campaigns.id, campaignShippings.campaignId)),
        )
        .where(and(where, eq(campaigns.status, "EM_ANDAMENTO"), isNull(campaigns.pausedAt), campaignsAllowed(now)))
        .orderBy(asc(campaignShippings.plannedAt), asc(campaignShippings.id))
        .limit(n)
        .for("update", { of: campaignShippings, skipLocked: true });
    const interrupted = await take(
      and(inArray(campaignShippings.status, ["sending", "confirming"]), lt(campaignShippings.claimedAt, stale)),
      limit,
    );
    const due =
      interrupted.length < limit
        ? await take(
            and(eq(campaignShippings.status, "pending"), lte(campaignShippings.plannedAt, now)),
            limit - interrupted.length,
          )
        : [];
    for (const d of due) {
      d.sh.status = d.c.confirmation && !d.sh.confirmedAt ? "confirming" : "sending";
    }
    const claimed = [...interrupted, ...due];
    for (const status of ["sending", "confirming"]) {
      const ids = claimed.filter((r) => r.sh.status === status).map((r) => r.sh.id);
      if (ids.length === 0) continue;
      await tx
        .update(campaignShippings)
        .set({ status, claimedAt: now, attempts: sql`${campaignShippings.attempts} + 1`, updatedAt: now })
        .where(inArray(campaignShippings.id, ids));
    }
    return claimed.map((r) => ({ ...r, sh: { ...r.sh, claimedAt: now, attempts: r.sh.attempts + 1 } }));
  });
}

/** Puts claimed shippings back, untried (a cancel, a session that is down). */
async function release(s: Services, rows: Shipping[]) {
  if (rows.length === 0) return;
  await s.db
    .update(campaignShippings)
    .set({ status: "pending", claimedAt: null, attempts: sql`greatest(0, ${campaignShippings.attempts} - 1)` })
    .where(
      and(
        inArray(campaignShippings.status, ["sending", "confirming"]),
        // only what is still this node's claim (see stillOurs)
        or(...rows.map((r) => and(eq(campaignShippings.id, r.id), eq(campaignShippings.attempts, r.attempts)))),
      ),
    );
}

/** The session is down: the campaign's sends wait (not lost, not failed) until it is back. */
async function pause(s: Services, c: CampaignRow, now: Date) {
  await s.db
    .update(campaigns)
    .set({ pausedAt: now })
    .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id), isNull(campaigns.pausedAt)));
}

const codeOf = (err: unknown): ErrorCode => {
  const code = (err as { code?: unknown })?.code;
  return isErrorCode(code) ? code : "ERR_SENDING_WAPP_MSG";
};

class SessionDown extends Error {}

/** One shipping's send: its confirmation, or its files, media and text; recorded after it went. */
async function sendOne(s: Services, driver: ChannelDriver, c: CampaignRow, whatsappId: number, sh: Shipping, now: Date) {
  const settings = await readCampaignSettings(s.db, c.companyId);
  let address = sh.address;
  if (!address) {
    address = await driver.checkNumber(sh.number);
    if (!address) return finish(s, sh, { status: "failed", failedAt: now, error: "ERR_WAPP_INVALID_CONTACT" });
    await s.db.update(campaignShippings).set({ address }).where(eq(campaignShippings.id, sh.id));
  }
  if (!(await chatWindow(s.db, c.companyId, whatsappId, address)).open)
    return sendAsTemplate(s, driver, c, whatsappId, sh, address, now);
  if (sh.status === "confirming") {
    const text = composeText(c, sh, settings, "confirmationMessage");
    await driver.sendText(address, text, { messageId: partMessageId(sh.sendKey, "confirmation") });
    return finish(s, sh, { status: "awaiting", confirmationRequestedAt: now, confirmationMessage: text });
  }
  await sendFileList(s, driver, c, sh, address);
  const text = composeText(c, sh, settings, "message");
  const sent = c.mediaPath
    ? await driver.sendMedia(
        address,
        {
          data: await s.storage.read(c.companyId, c.mediaPath),
          mimetype: c.mediaMimetype ?? "application/octet-stream",
          fileName: c.mediaName ?? "file",
          caption: text,
        },
        { messageId: partMessageId(sh.sendKey, "media") },
      )
    : await driver.sendText(address, text, { messageId: partMessageId(sh.sendKey, "message") });
  return finish(s, sh, { status: "delivered", deliveredAt: now, message: text, channelMessageId: sent.channelId });
}

/**
 * A Cloud API customer whose 24-hour window is closed (most of a campaign's list never wrote): the
 * connection's fallback template goes instead of the whole send, its parameters filled with the
 * shipping's variables. As a confirmation it asks the question: the customer's answer opens the window
 * for the campaign's own message. Without a template (or with one Meta does not list as approved) the
 * shipping fails at once with the reason, never retried into the same refusal.
 */
async function sendAsTemplate(
  s: Services,
  driver: ChannelDriver,
  c: CampaignRow,
  whatsappId: number,
  sh: Shipping,
  address: string,
  now: Date,
) {
  const wa = await scoped(s.db, c.companyId).whatsapps.findById(whatsappId);
  const settings = await readCampaignSettings(s.db, c.companyId);
  let fallback: Awaited<ReturnType<typeof fallbackTemplate>>;
  try {
    if (!wa || !driver.sendTemplate) throw new AppError("ERR_CLOUD_WINDOW_CLOSED");
    const timeZone = await companyTimeZone(s.db, c.companyId);
    const fill = (param: string) =>
      fillTemplate(fillCampaignVariables(param, sh, settings.variables), { name: sh.name, email: sh.email, timeZone });
    fallback = await fallbackTemplate(s, c.companyId, wa, fill);
  } catch (err) {
    if (codeOf(err) === "ERR_WAPP_NOT_INITIALIZED") throw err;
    return finish(s, sh, { status: "failed", failedAt: now, error: codeOf(err) });
  }
  const part = sh.status === "confirming" ? "confirmation-template" : "template";
  const sent = await driver.sendTemplate(address, fallback.message, { messageId: partMessageId(sh.sendKey, part) });
  if (sh.status === "confirming")
    return finish(s, sh, { status: "awaiting", confirmationRequestedAt: now, confirmationMessage: fallback.body });
  return finish(s, sh, { status: "delivered", deliveredAt: now, message: fallback.body, channelMessageId: sent.channelId });
}

/**
 * The campaign's file list goes first (behaviours: Campaigns), the list's message as the first file's
 * caption; each file under its own stable id, so a repeated send shows each once.
 */
async function sendFileList(s: Services, driver: ChannelDriver, c: CampaignRow, sh: Shipping, address: string) {
  if (!c.fileListId) return;
  const q = scoped(s.db, c.companyId);
  const list = await q.fileLists.findById(c.fileListId);
  if (!list) return;
  const files = (await optionsOf(q, [list.id])).filter((o) => o.path);
  for (const [i, o] of files.entries()) {
    await driver.sendMedia(
      address,
      {
        data: await s.storage.read(c.companyId, o.path as string),
        mimetype: o.mimetype ?? "application/octet-stream",
        fileName: o.fileName ?? o.name,
        ...(i === 0 && list.message ? { caption: list.message } : {}),
      },
      { messageId: partMessageId(sh.sendKey, `file-${o.id}`) },
    );
  }
}

/**
 * The rows of `sh` while it is still this node's claim: each claim adds one to attempts, so a node that
 * took the shipping over since (its claim looked stale) has moved attempts on, and this one's writes
 * match nothing.
 */
const stillOurs = (sh: Shipping) =>
  and(eq(campaignShippings.id, sh.id), eq(campaignShippings.status, sh.status), eq(campaignShippings.attempts, sh.attempts));

/** Records a shipping's outcome, only if it is still the send this node claimed. */
async function finish(s: Services, sh: Shipping, values: Partial<Shipping>) {
  await s.db
    .update(campaignShippings)
    .set({ ...values, claimedAt: null, updatedAt: new Date() })
    .where(stillOurs(sh));
}

/**
 * Stamps the claim fresh just before its send: false when another node took the shipping over while
 * it waited in this node's batch (then this node leaves it alone).
 */
async function renewClaim(s: Services, sh: Shipping, at: Date): Promise<boolean> {
  const rows = await s.db
    .update(campaignShippings)
    .set({ claimedAt: at })
    .where(stillOurs(sh))
    .returning({ id: campaignShippings.id });
  return rows.length > 0;
}

/**
 * Keeps the claim fresh while a send takes long (a large file on a slow link), so no node mistakes
 * it for the send of a dead node; `stop` waits for a renewal under way.
 */
function keepClaimed(s: Services, sh: Shipping, clock: () => Date) {
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = renewing.then(() => renewClaim(s, sh, clock())).catch(() => undefined);
    },
    Math.max(1000, (s.config.campaignSendTtlSec * 1000) / 3),
  );
  timer.unref();
  return async () => {
    clearInterval(timer);
    await renewing;
  };
}

/** A failed send: tried again later, or failed for good after MAX_ATTEMPTS with its reason. */
async function failed(s: Services, sh: Shipping, err: unknown, now: Date) {
  if (sh.attempts >= MAX_ATTEMPTS) {
    return finish(s, sh, { status: "failed", failedAt: now, error: codeOf(err) });
  }
  return finish(s, sh, { status: "pending", plannedAt: new Date(now.getTime() + RETRY_AFTER_MS), error: codeOf(err) });
}

async function stillRunning(s: Services, c: CampaignRow): Promise<boolean> {
  const [row] = await s.db
    .select({ status: campaigns.status, pausedAt: campaigns.pausedAt })
    .from(campaigns)
    .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)));
  return row?.status === "EM_ANDAMENTO" && row.pausedAt === null;
}

/** The campaign's shippings of this batch, in order; stops at once when it is cancelled or its session drops. */
async function sendCampaign(s: Services, c: CampaignRow, rows: Shipping[], now: Date) {
  const whatsappId = await connectionOf(s, c);
  const driver = whatsappId ? await s.sessions.driverFor(c.companyId, whatsappId) : null;
  if (!whatsappId || !driver) {
    await pause(s, c, now);
    return release(s, rows);
  }
  // the batch's clock moves on with real time: a long batch's later claims are stamped when they go
  const started = Date.now();
  const clock = () => new Date(now.getTime() + (Date.now() - started));
  for (let i = 0; i < rows.length; i++) {
    if (!(await stillRunning(s, c))) return release(s, rows.slice(i));
    if (!(await renewClaim(s, rows[i], clock()))) continue;
    const stopKeeping = keepClaimed(s, rows[i], clock);
    try {
      await sendOne(s, driver, c, whatsappId, rows[i], now).catch((err) => {
        if (codeOf(err) === "ERR_WAPP_NOT_INITIALIZED") throw new SessionDown();
        return failed(s, rows[i], err, now);
      });
    } catch (err) {
      if (!(err instanceof SessionDown)) throw err;
      await pause(s, c, now);
      return release(s, rows.slice(i));
    } finally {
      await stopKeeping();
    }
  }
}

/** FINALIZADA when every shipping is delivered or failed (behaviours: Campaigns). */
async function finalize(s: Services, c: CampaignRow, now: Date) {
  await s.db
    .update(campaigns)
    .set({ status: "FINALIZADA", completedAt: now, updatedAt: now })
    .where(
      and(
        eq(campaigns.companyId, c.companyId),
        eq(campaigns.id, c.id),
        eq(campaigns.status, "EM_ANDAMENTO"),
        sql`not exists (select 1 from ${campaignShippings} s where s.campaign_id = ${c.id}
          and s.status not in ('delivered', 'failed'))`,
      ),
    );
}

/** Tells the campaign's page and report that it moved. */
export async function announceCampaign(s: Services, companyId: number, id: number) {
  const q = scoped(s.db, companyId);
  const view = await findCampaignView(q, id);
  if (view) s.events.publish(await campaignChanged(q, { action: "update", record: view }));
}

/** The send sweep's batch: returns how many shippings it took. */
export async function sendDueShippings(s: Services, now: Date, limit: number): Promise<number> {
  const claimed = await claim(s, now, limit);
  const byCampaign = new Map<number, { c: CampaignRow; rows: Shipping[] }>();
  for (const { sh, c } of claimed) {
    const entry = byCampaign.get(c.id) ?? { c, rows: [] };
    entry.rows.push(sh);
    byCampaign.set(c.id, entry);
  }
  for (const { c, rows } of byCampaign.values()) {
    try {
      await sendCampaign(s, c, rows, now);
    } finally {
      await finalize(s, c, now);
      await announceCampaign(s, c.companyId, c.id);
    }
  }
  return claimed.length;
}
