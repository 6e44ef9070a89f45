import type { IntegrationEvent } from "@charla/contracts";
import type { Services } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";
import { findIntegrationView } from "./queries.js";

/**
 * `company-{id}-queueIntegration` (secondary §7) to the company's admins whose plan has integrations
 * (integrations.manage): the secret key travels in the view, so no one else hears it.
 */
export async function integrationAnnouncer(s: Services, q: Scoped) {
  const companyId = q.companyId;
  const audience = await campaignAudience(q, "integrations.manage");
  return (change: IntegrationEvent) => () =>
    s.events.publish({ type: "record.changed", companyId, audience, area: "queueIntegration", change });
}

/** The integration as it now is (its last delivery included), told to its admins; nothing if it is gone. */
export async function announceIntegration(s: Services, companyId: number, integrationId: number): Promise<void> {
  const view = await findIntegrationView(scoped(s.db, companyId), s.secrets, integrationId);
  if (!view) return;
  (await integrationAnnouncer(s, scoped(s.db, companyId)))({ action: "update", queueIntegration: view })();
}
