import type { ContactListItemEvent } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { ChannelDriver } from "../channels/driver.js";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { contactListItems, whatsapps } from "../db/schema/index.js";
import { listEvents } from "../modules/contact-lists/announce.js";
import { itemView } from "../modules/contact-lists/queries.js";
import { rowsOf } from "../lib/rate-limit.js";
import { campaignsAllowed } from "./eligible.js";
import type { Sweep } from "./sweep.js";

/** Longer than a batch of WhatsApp lookups takes: a claim older than this was left by a node that died. */
const CLAIM_TTL_SEC = 120;

type Claimed = { id: number; companyId: number; number: string };

/**
 * Numbers of contact lists not asked about yet, of companies with a connected connection (in good
 * standing, on a plan with campaigns): taken by
 * one statement (`FOR UPDATE SKIP LOCKED`, then stamped), so every node may run this and each number
 * is asked once. The asking happens outside any transaction.
 */
async function claim(s: Services, now: Date, limit: number): Promise<Claimed[]> {
  return rowsOf<Claimed>(
    await s.db.execute(sql`
    update contact_list_items set check_claimed_at = now()
    where id in (
      select i.id from contact_list_items i
      where i.is_whatsapp_valid is null
        and (i.check_claimed_at is null or i.check_claimed_at < now() - make_interval(secs => ${CLAIM_TTL_SEC}))
        and exists (select 1 from whatsapps w where w.company_id = i.company_id and w.status = 'CONNECTED')
        and ${campaignsAllowed(now, sql`i.company_id`)}
      order by i.id
      limit ${limit}
      for update of i skip locked)
    returning id, company_id as "companyId", number`),
  );
}

/** The company's connection to ask: its default one when connected, else any connected one. */
async function askerFor(s: Services, companyId: number): Promise<ChannelDriver | null> {
  const connected = await s.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.status, "CONNECTED")))
    .orderBy(sql`${whatsapps.isDefault} desc`, whatsapps.id);
  for (const w of connected) {
    const driver = await s.sessions.driverFor(companyId, w.id);
    if (driver) return driver;
  }
  return null;
}

/**
 * Asks WhatsApp, through the company's own connection, whether each claimed number has an account
 * (secondary §2: items flagged valid or invalid), and tells the lists' open pages item by item. A
 * number whose lookup failed stays unasked and is taken again once its claim is old.
 */
async function checkBatch(s: Services, now: Date, limit: number): Promise<number> {
  const claimed = await claim(s, now, limit);
  const byCompany = new Map<number, Claimed[]>();
  for (const c of claimed) byCompany.set(c.companyId, [...(byCompany.get(c.companyId) ?? []), c]);
  let checked = 0;
  for (const [companyId, items] of byCompany) {
    const driver = await askerFor(s, companyId);
    if (!driver) continue;
    const q = scoped(s.db, companyId);
    const tell = await listEvents(q);
    for (const item of items) {
      const answer = await driver.checkNumber(item.number).then(
        (n) => n !== null,
        () => undefined,
      );
      if (answer === undefined) continue;
      // the number may have been edited meanwhile: its new one waits for its own check
      const [row] = await s.db
        .update(contactListItems)
        .set({ isWhatsappValid: answer, checkClaimedAt: null })
        .where(q.contactListItems.where(and(eq(contactListItems.id, item.id), eq(contactListItems.number, item.number))))
        .returning();
      if (!row) continue;
      checked++;
      const event: ContactListItemEvent = { action: "update", record: itemView(row) };
      s.events.publish(tell.item(row.contactListId, event));
    }
  }
  return checked;
}

export const contactListChecks: Sweep = { name: "contact-list-checks", batch: checkBatch };
