import { type ContactListEvent, type ContactListItemEvent, Events } from "@charla/contracts";
import type { RequestCtx } from "../../context.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";

/** A change of a list, to the users the campaign areas are for; run it after the commit. */
export async function listAnnouncement(ctx: Pick<RequestCtx, "realtime" | "companyId">, q: Scoped, event: ContactListEvent) {
  const audience = await campaignAudience(q);
  return () => ctx.realtime.toUsers(ctx.companyId, audience).emit(Events.contactList(ctx.companyId), event);
}

/** A change of a list's items: company-wide and on the list's own channel (its open page reloads). */
export async function itemAnnouncement(
  ctx: Pick<RequestCtx, "realtime" | "companyId">,
  q: Scoped,
  listId: number,
  event: ContactListItemEvent,
) {
  const audience = await campaignAudience(q);
  return () => {
    const to = ctx.realtime.toUsers(ctx.companyId, audience);
    to.emit(Events.contactListItem(ctx.companyId), event);
    to.emit(Events.contactListItemsOf(ctx.companyId, listId), event);
  };
}
