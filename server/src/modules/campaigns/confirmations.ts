import { sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { GroupCommit } from "../../lib/group-commit.js";
import { rowsOf } from "../../lib/rate-limit.js";
import { announceCampaign } from "./sender.js";

/**
 * Contacts' messages on a connection confirm the campaign confirmations they were asked on that number
 * (behaviours: Campaigns: the next reply, while the campaign runs); the real message then goes at once.
 * One indexed statement for any number of contacts; nothing when nobody is awaited.
 */
export async function confirmByReplies(
  s: Services,
  companyId: number,
  whatsappId: number,
  numbers: string[],
  now = new Date(),
): Promise<{ number: string; campaignId: number }[]> {
  if (numbers.length === 0) return [];
  const rows = rowsOf<{ number: string; campaignId: number }>(
    await s.db.execute(sql`
      update campaign_shippings sh set status = 'pending', confirmed_at = ${now}, planned_at = ${now}, updated_at = ${now}
      from campaigns c
      where sh.company_id = ${companyId} and sh.address in ${numbers} and sh.status = 'awaiting'
        and c.company_id = sh.company_id and c.id = sh.campaign_id and c.status = 'EM_ANDAMENTO'
        and (c.whatsapp_id = ${whatsappId}
          or (c.whatsapp_id is null and exists (select 1 from whatsapps w
            where w.company_id = c.company_id and w.id = ${whatsappId} and w.is_default)))
      returning sh.address as "number", sh.campaign_id as "campaignId"`),
  );
  for (const id of new Set(rows.map((r) => r.campaignId))) await announceCampaign(s, companyId, id);
  return rows;
}

/** One contact's reply: how many of their confirmations it confirmed. */
export async function confirmByReply(
  s: Services,
  companyId: number,
  whatsappId: number,
  number: string,
  now = new Date(),
): Promise<number> {
  return (await confirmByReplies(s, companyId, whatsappId, [number], now)).length;
}

/** Numbers a statement takes at most. */
const NUMBERS_PER_STATEMENT = 500;
type Connection = { companyId: number; whatsappId: number };
const lanesOf = new WeakMap<Services, GroupCommit<Connection, string, undefined>>();

/**
 * Confirms one connection's replies a statement at a time (group commit, as inbound messages and acks
 * are stored): the replies that arrive while one statement runs go together in the next, so a busy
 * inbox costs a statement per burst, not one per message; a lone reply goes at once.
 */
function confirmInLane(s: Services, companyId: number, whatsappId: number, number: string): Promise<undefined> {
  let lanes = lanesOf.get(s);
  if (!lanes) {
    lanes = new GroupCommit(NUMBERS_PER_STATEMENT, async (c, numbers) => {
      await confirmByReplies(s, c.companyId, c.whatsappId, [...new Set(numbers)]);
      return numbers.map(() => undefined);
    });
    lanesOf.set(s, lanes);
  }
  return lanes.add(`${companyId}:${whatsappId}`, { companyId, whatsappId }, number);
}

/** A contact's stored message confirms their campaign confirmations, off the inbound path, one number's after another. */
export function registerCampaignConfirmations(s: Services): void {
  s.events.on(
    "message.received",
    { id: "campaigns.confirm-by-reply", phase: "detached", lane: (e) => `${e.companyId}:${e.msg.number}` },
    async ({ companyId, whatsappId, msg }) => {
      if (msg.fromMe || msg.isGroup) return;
      await confirmInLane(s, companyId, whatsappId, msg.number);
    },
  );
}
