import { type ChatWindow, CloudLimits } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { cloudWindows, whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";

/** The window's key: the customer's number as the channel gives it, digits only (a contact's `5511…`, Meta's `wa_id`). */
export const windowNumber = (number: string) => number.replace(/\D/g, "");

const NO_WINDOW: ChatWindow = { applies: false, open: true, closesAt: null };

/**
 * Meta's customer-service window of one customer on one connection: open until 24 h after the
 * customer's last message. Other providers have none (`applies: false`, always open); a Cloud API
 * customer who never wrote has it closed (`closesAt` null): only templates reach them.
 */
export async function chatWindow(
  db: Db | Tx,
  companyId: number,
  whatsappId: number | null,
  number: string,
  now: Date = new Date(),
): Promise<ChatWindow> {
  if (!whatsappId) return NO_WINDOW;
  const [row] = await db
    .select({ provider: whatsapps.provider, lastInboundAt: cloudWindows.lastInboundAt })
    .from(whatsapps)
    .leftJoin(
      cloudWindows,
      and(
        eq(cloudWindows.companyId, whatsapps.companyId),
        eq(cloudWindows.whatsappId, whatsapps.id),
        eq(cloudWindows.number, windowNumber(number)),
      ),
    )
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
  return windowOf(row?.provider ?? null, row?.lastInboundAt ?? null, now);
}

/** The window from its connection's provider and the customer's last message, as read alongside other rows. */
export function windowOf(provider: string | null, lastInboundAt: Date | null, now: Date = new Date()): ChatWindow {
  if (provider !== "cloud") return NO_WINDOW;
  if (!lastInboundAt) return { applies: true, open: false, closesAt: null };
  const closesAt = new Date(lastInboundAt.getTime() + CloudLimits.windowMs);
  return { applies: true, open: closesAt.getTime() > now.getTime(), closesAt: closesAt.toISOString() };
}

/** Free text only inside the window: refused with ERR_CLOUD_WINDOW_CLOSED before anything is recorded or sent. */
export async function assertWindowOpen(db: Db | Tx, companyId: number, whatsappId: number | null, number: string) {
  const window = await chatWindow(db, companyId, whatsappId, number);
  if (!window.open) throw new AppError("ERR_CLOUD_WINDOW_CLOSED");
  return window;
}

/** A text, or a file's caption, longer than Meta takes (CloudLimits): ERR_CLOUD_TEXT_TOO_LONG with the limit. */
export function assertCloudLength(body: string, { caption }: { caption: boolean }) {
  const max = caption ? CloudLimits.captionMax : CloudLimits.textMax;
  if ([...body].length > max) throw new AppError("ERR_CLOUD_TEXT_TOO_LONG", { data: { max } });
}

/**
 * The customers wrote at these times (number → their latest message): each window runs 24 h from it.
 * One statement; GREATEST, so a webhook replayed or processed late never moves one back.
 */
export async function openWindows(db: Db | Tx, companyId: number, whatsappId: number, latest: Map<string, Date>) {
  if (!latest.size) return;
  await db
    .insert(cloudWindows)
    .values([...latest].map(([number, at]) => ({ companyId, whatsappId, number: windowNumber(number), lastInboundAt: at })))
    .onConflictDoUpdate({
      target: [cloudWindows.whatsappId, cloudWindows.number],
      set: { lastInboundAt: sql`greatest(${cloudWindows.lastInboundAt}, excluded.last_inbound_at)` },
    });
}

/** One customer wrote at `at` (openWindows for one). */
export const openWindow = (db: Db | Tx, companyId: number, whatsappId: number, number: string, at: Date) =>
  openWindows(db, companyId, whatsappId, new Map([[number, at]]));
