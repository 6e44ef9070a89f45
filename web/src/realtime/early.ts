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

/**
 * A page load with a stored session connects the socket as soon as the token refresh is back (its
 * client's chunk fetched meanwhile) and answers the session once the socket has joined its rooms, or
 * could not: the first lists, asked for then, need no second read after the join (useOnConnect), which
 * doubled the first load's list requests. The shell takes this connection (takeEarlyConnection).
 */
export function joinEarly(session: Promise<AuthResponse>): Promise<AuthResponse> {
  const code = import("./connect");
  const connection = session.then(() => code).then((module) => holdEvents(module.connectSocket()));
  early = connection.catch(() => null);
  return connection.then(
    (made) => made.joined.then(() => session),
    () => session,
  );
}

/** The connection joinEarly made, once; null when there is none (a login, or already taken). */
export function takeEarlyConnection(): Promise<Connection | null> | null {
  const made = early;
  early = null;
  return made;
}
