import { type ConnectionEvent, type ConnectionSessionEvent, type ConnectionView, type Profile, can } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Services, Principal } from "../../context.js";
import type { Db, Tx } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import type { DomainEvent } from "../../events/index.js";

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
async function secretHolders(db: Db | Tx, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id, profile: users.profile, super: users.super })
    .from(users)
    .where(eq(users.companyId, companyId));
  return rows
    .filter((u) => seesConnectionSecrets({ profile: u.profile as Profile, super: u.super, plan: null }))
    .map((u) => u.id);
}

/**
 * `company-{id}-whatsapp`: whole to those who manage connections, without QR code and token to the
 * rest. The holders are read through `db`: the publisher's transaction, or the handle after a commit.
 */
export async function connectionChanged(
  db: Db | Tx,
  companyId: number,
  payload: ConnectionEvent,
): Promise<DomainEvent<"connection.changed" | "connection.deleted">> {
  if (payload.action === "delete") return { type: "connection.deleted", companyId, whatsappId: payload.whatsappId };
  const holders = await secretHolders(db, companyId);
  const whatsapp = payload.whatsapp;
  return { type: "connection.changed", companyId, whatsapp, redacted: withoutSecrets(whatsapp), holders };
}

/** `company-{id}-whatsappSession`: the live status, with the QR code only for those who manage connections. */
export async function emitConnectionSession(
  s: Pick<Services, "db" | "events">,
  companyId: number,
  session: ConnectionSessionEvent["session"],
) {
  const holders = await secretHolders(s.db, companyId);
  s.events.publish({ type: "connection.status", companyId, session, redacted: withoutSecrets(session), holders });
}
