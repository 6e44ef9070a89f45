import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send } from "../send.js";

/** Sessions and companies whose sockets end, and connections whose secrets only some may see. */
export function accessPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("session.replaced", { id: "realtime.session-replaced", phase: "commit" }, (e) => {
    send(rt.toSession(e.sessionId), "auth", e.companyId, { action: "update", user: { id: e.userId } });
    // after the default delay, so the notice reaches the web before its socket ends
    rt.endSession(e.sessionId);
  });
  bus.on("session.ended", { id: "realtime.session-ended", phase: "commit" }, (e) => rt.endSession(e.sessionId, 0));
  bus.on("company.blocked", { id: "realtime.company-blocked", phase: "commit" }, (e) =>
    rt.endCompany(e.companyId, e.keepUserIds),
  );
  bus.on("connection.changed", { id: "realtime.connection-changed", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.holders), "whatsapp", e.companyId, { action: "update", whatsapp: e.whatsapp });
    send(rt.toCompanyExcept(e.companyId, e.holders), "whatsapp", e.companyId, { action: "update", whatsapp: e.redacted });
  });
  bus.on("connection.deleted", { id: "realtime.connection-deleted", phase: "commit" }, (e) => {
    send(rt.toCompany(e.companyId), "whatsapp", e.companyId, { action: "delete", whatsappId: e.whatsappId });
  });
  bus.on("connection.status", { id: "realtime.connection-status", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.holders), "whatsappSession", e.companyId, { action: "update", session: e.session });
    send(rt.toCompanyExcept(e.companyId, e.holders), "whatsappSession", e.companyId, { action: "update", session: e.redacted });
  });
}
