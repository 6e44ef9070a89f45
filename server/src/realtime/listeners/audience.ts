import type { Audience } from "../../events/index.js";
import type { Realtime } from "../realtime.js";

/** The emitter for an event's audience (read when the event goes out, so a test's stand-in is used). */
export function emitterFor(rt: Realtime, companyId: number, audience: Audience) {
  if (audience === "company") return rt.toCompany(companyId);
  if (Array.isArray(audience)) return rt.toUsers(companyId, audience);
  return rt.toCompanyExcept(companyId, audience.except);
}
