import { type ConnectionEvent, type ConnectionSessionEvent, type ConnectionView, type Profile, can } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Services, Principal } from "../../context.js";
import { users } from "../../db/schema/index.js";

type Subject = Pick<Principal, "profile" | "super" | "plan">;

/**
 * A connection's QR code and token let whoever holds them link the company's number to their own
 * phone: only staff who may manage connections (the session buttons of core §6) get them.
 */
export const seesConnectionSecrets = (subject: Subject) => can(subject, "connections-page:actionButtons");

type Guarded = Partial<Pick<ConnectionView, "qrcode" | "token" | "cloud" | "webhookUrl">>;

/** The view without its QR code, token and Cloud API settings (ids, masked secrets, webhook URL), for everyone else. */
export function withoutSecrets<T extends Guarded>(view: T): T {
  const { qrcode: _qrcode, token: _token, cloud: _cloud, webhookUrl: _webhookUrl, ...rest } = view;
  return rest as T;
}

/** The view as this user may see it. */
export const connectionFor = <T extends Guarded>(subject: Subject, view: T): T =>
  seesConnectionSecrets(subject) ? view : withoutSecrets(view);

/** The company's users who get connection secrets in live events. */
async function secretHolders(s: Pick<Services, "db">, companyId: number): Promise<number[]> {
  const rows = await s.db
    .select({ id: users.id, profile: users.profile, super: users.super })
    .from(users)
    .where(eq(users.companyId, companyId));
  return rows
    .filter((u) => seesConnectionSecrets({ profile: u.profile as Profile, super: u.super, plan: null }))
    .map((u) => u.id);
}

/** `company-{id}-whatsapp`: whole to those who manage connections, without QR code and token to the rest. */
export async function emitConnection(s: Pick<Services, "db" | "events">, companyId: number, payload: ConnectionEvent) {
  if (payload.action === "delete") {
    s.events.publish({ type: "connection.deleted", companyId, whatsappId: payload.whatsappId });
    return;
  }
  const holders = await secretHolders(s, companyId);
  const whatsapp = payload.whatsapp;
  s.events.publish({ type: "connection.changed", companyId, whatsapp, redacted: withoutSecrets(whatsapp), holders });
}

/** `company-{id}-whatsappSession`: the live status, with the QR code only for those who manage connections. */
export async function emitConnectionSession(
  s: Pick<Services, "db" | "events">,
  companyId: number,
  session: ConnectionSessionEvent["session"],
) {
  const holders = await secretHolders(s, companyId);
  s.events.publish({ type: "connection.status", companyId, session, redacted: withoutSecrets(session), holders });
}
