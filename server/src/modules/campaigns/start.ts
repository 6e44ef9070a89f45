import { randomBytes } from "node:crypto";
import type { CampaignSettings } from "@charla/contracts";
import { and, asc, eq, ne, or, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { campaignShippings, campaigns, contactListItems, contacts, tickets, ticketTags } from "../../db/schema/index.js";
import type { CampaignRow } from "./queries.js";

type Audience = { contactListItemId: number | null; contactId: number | null; number: string; name: string; email: string };

/**
 * Who a campaign goes to (behaviours: Campaigns): with a tag, every contact with a ticket bearing it;
 * else the list's numbers not known to lack WhatsApp (those not checked yet are asked at send time).
 */
async function audienceOf(tx: Tx, c: CampaignRow): Promise<Audience[]> {
  if (c.tagListId) {
    const rows = await tx
      .selectDistinctOn([contacts.id], { id: contacts.id, number: contacts.number, name: contacts.name, email: contacts.email })
      .from(ticketTags)
      .innerJoin(tickets, and(eq(tickets.companyId, ticketTags.companyId), eq(tickets.id, ticketTags.ticketId)))
      .innerJoin(contacts, and(eq(contacts.companyId, tickets.companyId), eq(contacts.id, tickets.contactId)))
      .where(and(eq(ticketTags.companyId, c.companyId), eq(ticketTags.tagId, c.tagListId), eq(contacts.isGroup, false)))
      .orderBy(asc(contacts.id));
    return rows.map((r) => ({ contactListItemId: null, contactId: r.id, number: r.number, name: r.name, email: r.email }));
  }
  if (!c.contactListId) return [];
  const rows = await tx
    .select()
    .from(contactListItems)
    .where(
      and(
        eq(contactListItems.companyId, c.companyId),
        eq(contactListItems.contactListId, c.contactListId),
        or(isNull(contactListItems.isWhatsappValid), ne(contactListItems.isWhatsappValid, false)),
      ),
    )
    .orderBy(asc(contactListItems.id));
  return rows.map((r) => ({ contactListItemId: r.id, contactId: null, number: r.number, name: r.name, email: r.email }));
}

/**
 * Planned send times (behaviours: Campaigns): the first contact at `start`, each next one a random 0 to
 * messageInterval seconds after the previous, and every longerIntervalAfter-th greaterInterval seconds
 * after it instead.
 */
export function plannedTimes(n: number, start: Date, s: CampaignSettings, random: () => number = Math.random): Date[] {
  const times: Date[] = [];
  let at = start.getTime();
  for (let k = 0; k < n; k++) {
    if (k > 0) {
      const longer = s.longerIntervalAfter > 0 && s.greaterInterval > 0 && k % s.longerIntervalAfter === 0;
      at += 1000 * (longer ? s.greaterInterval : Math.floor(random() * (s.messageInterval + 1)));
    }
    times.push(new Date(at));
  }
  return times;
}

const CHUNK = 1000;

/**
 * Starts a campaign inside the caller's transaction (which holds its row): one shipping per number of
 * its audience (a number once, whatever the list holds) and EM_ANDAMENTO; with nobody to send to, it
 * is FINALIZADA at once. Returns the updated row.
 */
export async function startCampaign(tx: Tx, c: CampaignRow, settings: CampaignSettings, now: Date): Promise<CampaignRow> {
  const seen = new Set<string>();
  const audience = (await audienceOf(tx, c)).filter((a) => a.number && !seen.has(a.number) && seen.add(a.number));
  const times = plannedTimes(audience.length, now, settings);
  for (let i = 0; i < audience.length; i += CHUNK) {
    await tx
      .insert(campaignShippings)
      .values(
        audience.slice(i, i + CHUNK).map((a, j) => ({
          ...a,
          companyId: c.companyId,
          campaignId: c.id,
          plannedAt: times[i + j],
          sendKey: randomBytes(12).toString("hex"),
        })),
      )
      .onConflictDoNothing();
  }
  const done = audience.length === 0;
  const [row] = await tx
    .update(campaigns)
    .set({
      status: done ? "FINALIZADA" : "EM_ANDAMENTO",
      startedAt: now,
      completedAt: done ? now : null,
      pausedAt: null,
      updatedAt: now,
    })
    .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)))
    .returning();
  return row;
}
