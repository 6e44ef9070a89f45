import type { ContactListEvent, ContactListItemEvent } from "@charla/contracts";
import type { Scoped } from "../../db/scoped.js";
import type { DomainEvent } from "../../events/index.js";
import { campaignAudience } from "../../policies/campaigns.js";

/**
 * The events of a change to lists, for the users the campaign areas are for (read once per change,
 * through `q`): a list's change, or an item's (the presenter sends it company-wide and on its list's
 * own channel, so the list's open page reloads). The caller publishes them.
 */
export async function listEvents(q: Scoped) {
  const audience = await campaignAudience(q);
  const { companyId } = q;
  return {
    list: (change: ContactListEvent): DomainEvent<"record.changed"> => ({
      type: "record.changed",
      companyId,
      audience,
      area: "contactList",
      change,
    }),
    item: (listId: number, change: ContactListItemEvent): DomainEvent<"contact-list-item.changed"> => ({
      type: "contact-list-item.changed",
      companyId,
      listId,
      audience,
      change,
    }),
  };
}

export type ListEvents = Awaited<ReturnType<typeof listEvents>>;
