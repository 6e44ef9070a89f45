import type { IntegrationEvent } from "@charla/contracts";
import type { Services } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import type { DomainEvent } from "../../events/index.js";
import { campaignAudience } from "../../policies/campaigns.js";
import { findIntegrationView } from "./queries.js";

/**
 * `company-{id}-queueIntegration` (secondary §7) to the company's admins whose plan has integrations
 * (integrations.manage): the secret key travels in the view, so no one else hears it.
 */
export async function integrationChanged(q: Scoped, change: IntegrationEvent): Promise<DomainEvent<"record.changed">> {
  const audience = await campaignAudience(q, "integrations.manage");
  return { type: "record.changed", companyId: q.companyId, audience, area: "queueIntegration", change };
}

/**
 * The integration as it now is (its last delivery included), told to its admins once a delivery's
 * outcome is committed; nothing if it is gone.
 */
export async function announceIntegration(s: Services, companyId: number, integrationId: number): Promise<void> {
  const q = scoped(s.db, companyId);
  const view = await findIntegrationView(q, s.secrets, integrationId);
  if (!view) return;
  s.events.publish(await integrationChanged(q, { action: "update", queueIntegration: view }));
}
