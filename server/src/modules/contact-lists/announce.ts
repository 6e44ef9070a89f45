import { type ContactListEvent, type ContactListItemEvent, Events } from "@charla/contracts";
import type { RequestCtx } from "../../context.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";

/**
 * Live events of a change to lists, for the users the campaign areas are for (read once per change).
 * The emitters are for `afterCommit`: a list's event on its channel; an item's company-wide and on its
 * list's own channel (the list's open page reloads).
 */
export async function listAnnouncer(ctx: Pick<RequestCtx, "realtime" | "companyId">, q: Scoped) {
  const to = ctx.realtime.toUsers(ctx.companyId, await campaignAudience(q));
  return {
    list: (event: ContactListEvent) => () => to.emit(Events.contactList(ctx.companyId), event),
    item: (listId: number, event: ContactListItemEvent) => () => {
      to.emit(Events.contactListItem(ctx.companyId), event);
      to.emit(Events.contactListItemsOf(ctx.companyId, listId), event);
    },
  };
}
