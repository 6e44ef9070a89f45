import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send } from "../send.js";

/**
 * `company-{id}-announcement` to every company's room, each under its own name: an announcement is
 * platform-wide (secondary §2), not only the writer's company's news.
 */
export function announcementPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("announcement.changed", { id: "realtime.announcement-changed", phase: "commit" }, (e) => {
    for (const companyId of e.companyIds) send(rt.toCompany(companyId), "announcement", companyId, e.change);
  });
}
