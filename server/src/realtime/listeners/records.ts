import type { SocketPayloads } from "@charla/contracts";
import type { EventBus } from "../../events/index.js";
import type { RecordArea } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send, sendToList } from "../send.js";
import { emitterFor } from "./audience.js";

type Emitter = ReturnType<Realtime["toCompany"]>;

/** One area's change on its channel (generic, so `area` and `change` stay tied to each other). */
function sendChange<A extends RecordArea>(to: Emitter, companyId: number, e: { area: A; change: SocketPayloads[A] }): void {
  send(to, e.area, companyId, e.change);
}

/** The CRUD areas' changes, as they are, on their channels (core §7, secondary §7). */
export function recordPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("record.changed", { id: "realtime.record-changed", phase: "commit" }, (e) => {
    sendChange(emitterFor(rt, e.companyId, e.audience), e.companyId, e);
  });
  bus.on("contact-list-item.changed", { id: "realtime.contact-list-item-changed", phase: "commit" }, (e) => {
    const to = emitterFor(rt, e.companyId, e.audience);
    send(to, "contactListItem", e.companyId, e.change);
    // the list's own page hears its items on a channel of their own
    sendToList(to, e.companyId, e.listId, e.change);
  });
}
