import type { ContactListEvent, ContactListItemEvent } from "@charla/contracts";
import type { RequestCtx } from "../../context.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";

/**
 * Live events of a change to lists, for the users the campaign areas are for (read once per change).
 * The returned publishers are for `afterCommit`: a list's change, or an item's (the presenter sends it
 * company-wide and on its list's own channel, so the list's open page reloads).
 */
export async function listAnnouncer(ctx: Pick<RequestCtx, "events" | "companyId">, q: Scoped) {
  const audience = await campaignAudience(q);
  const { companyId } = ctx;
  return {
    list: (change: ContactListEvent) => () =>
      ctx.events.publish({ type: "record.changed", companyId, audience, area: "contactList", change }),
    item: (listId: number, change: ContactListItemEvent) => () =>
      ctx.events.publish({ type: "contact-list-item.changed", companyId, listId, audience, change }),
  };
}
