import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send } from "../send.js";

/**
 * `company-{id}-payment` with action CONCLUIDA to the paying company's room only (secondary §4
 * Checkout): its users see the renewal and the new due date.
 */
export function paymentPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("payment.confirmed", { id: "realtime.payment-confirmed", phase: "commit" }, (e) => {
    send(rt.toCompany(e.companyId), "payment", e.companyId, {
      action: "CONCLUIDA",
      company: { id: e.companyId, dueDate: e.dueDate },
      invoiceId: e.invoiceId,
    });
  });
}
