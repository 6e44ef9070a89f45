import type { AuthResponse } from "@charla/contracts";
import type { Connection } from "./connect";

let early: Promise<Connection | null> | null = null;

/**
 * Events that reach the early socket before the shell listens (its listeners attach when it adopts
 * the connection) are held and handed to those listeners then: the first lists were read after the
 * join, so nothing that happened after that read may be dropped on the floor.
 */
function holdEvents(made: Connection): Connection {
  const held: { event: string; args: unknown[] }[] = [];
  const hold = (event: string, ...args: unknown[]) => {
    held.push({ event, args });
  };
  made.socket.onAny(hold);
  made.release = () => {
    made.socket.offAny(hold);
    for (const { event, args } of held.splice(0)) for (const listener of made.socket.listeners(event)) listener(...args);
  };
  return made;
}

/** The user and company an access token names (its payload is not secret; the server checked it). */
function claimsOf(token: string | null): { userId: number; companyId: number } | null {
  try {
    const payload = JSON.parse(atob((token ?? "").split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as {
      sub?: unknown;
      cid?: unknown;
    };
    return { userId: Number(payload.sub), companyId: Number(payload.cid) };
  } catch {
    return null;
  }
}

/**
 * A page load with a stored session connects the socket at once with the stored access token, while
 * that session is being refreshed (the two take about as long, so neither waits for the other; an
 * expired token is refused and tried again with the refreshed one, connect.ts), and answers the
 * session once the socket has joined its rooms, or could not: the first lists, asked for then, need no
 * second read after the join (useOnConnect). The shell takes this connection (takeEarlyConnection);
 * a session that is refused, or turns out to be another user's, closes it.
 */
export function joinEarly(session: Promise<AuthResponse>, token: string | null): Promise<AuthResponse> {
  const connection = import("./connect").then((module) => holdEvents(module.connectSocket()));
  const current = connection.catch(() => null);
  early = current;
  const drop = () => {
    if (early !== current) return;
    early = null;
    void current.then((made) => made?.close());
  };
  const claims = claimsOf(token);
  return session.then(
    async (auth) => {
      if (claims?.userId !== auth.user.id || claims.companyId !== auth.user.companyId) drop();
      // the socket usually joined meanwhile; a dropped one never will (the shell connects anew)
      else await current.then((made) => made?.joined);
      return auth;
    },
    (error: unknown) => {
      drop();
      throw error;
    },
  );
}

/** The connection joinEarly made, once; null when there is none (a login, or already taken). */
export function takeEarlyConnection(): Promise<Connection | null> | null {
  const made = early;
  early = null;
  return made;
}
