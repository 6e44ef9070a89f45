import { sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { rowsOf } from "../../lib/rate-limit.js";
import { announceCampaign } from "./sender.js";

/**
 * A contact's message on a connection confirms the campaign confirmations it was asked on that number
 * (behaviours: Campaigns: the next reply, while the campaign runs); the real message then goes at once.
 * One indexed statement per inbound message; nothing when nobody is awaited.
 */
export async function confirmByReply(
  s: Services,
  companyId: number,
  whatsappId: number,
  number: string,
  now = new Date(),
): Promise<number> {
  const rows = rowsOf<{ campaignId: number }>(
    await s.db.execute(sql`
      update campaign_shippings sh set status = 'pending', confirmed_at = ${now}, planned_at = ${now}, updated_at = ${now}
      from campaigns c
      where sh.company_id = ${companyId} and sh.address = ${number} and sh.status = 'awaiting'
        and c.company_id = sh.company_id and c.id = sh.campaign_id and c.status = 'EM_ANDAMENTO'
        and (c.whatsapp_id = ${whatsappId}
          or (c.whatsapp_id is null and exists (select 1 from whatsapps w
            where w.company_id = c.company_id and w.id = ${whatsappId} and w.is_default)))
      returning sh.campaign_id as "campaignId"`),
  );
  for (const id of new Set(rows.map((r) => r.campaignId))) await announceCampaign(s, companyId, id);
  return rows.length;
}

/** A contact's stored message confirms their campaign confirmations, off the inbound path, one number's after another. */
export function registerCampaignConfirmations(s: Services): void {
  s.events.on(
    "message.received",
    { id: "campaigns.confirm-by-reply", phase: "detached", lane: (e) => `${e.companyId}:${e.msg.number}` },
    async ({ companyId, whatsappId, msg }) => {
      if (msg.fromMe || msg.isGroup) return;
      await confirmByReply(s, companyId, whatsappId, msg.number);
    },
  );
}
