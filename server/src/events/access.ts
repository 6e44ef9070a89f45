import type { ConnectionSessionEvent, ConnectionView } from "@charla/contracts";

/** Who stays connected, and what connections show. */
export type AccessEvents = {
  /** A newer login of the same user replaced this session: it is told, then its sockets end. */
  "session.replaced": { companyId: number; userId: number; sessionId: string };
  /** A session ended (logout, password change, user deleted or moved, refresh token reused): its sockets end now. */
  "session.ended": { sessionId: string };
  /** A company can no longer be used (deactivated, past due, deleted): its sockets end, `keepUserIds`' stay. */
  "company.blocked": { companyId: number; keepUserIds: number[]; reason: "unusable" | "deleted" };
  /**
   * A connection changed. `holders` may see its QR code and token and get `whatsapp`; the rest of the
   * company gets `redacted`, the same view without them.
   */
  "connection.changed": { companyId: number; whatsapp: ConnectionView; redacted: ConnectionView; holders: number[] };
  /** A connection deleted. */
  "connection.deleted": { companyId: number; whatsappId: number };
  /** A connection's live status (QR code, retries), whole to `holders`, `redacted` to the rest. */
  "connection.status": {
    companyId: number;
    session: ConnectionSessionEvent["session"];
    redacted: ConnectionSessionEvent["session"];
    holders: number[];
  };
};
