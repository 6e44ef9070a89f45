import type { Socket } from "socket.io-client";

/*
 * Joins of the socket to its rooms, counted. A live list needs a second read after a join only if its
 * read began before it: events are not replayed, so what happened between that read and the join was
 * missed. A read records the count when it begins (reads.ts, and the first lists' early requests), so
 * "began before join n" is "recorded a count below n". No React here: main.tsx's first script uses it.
 */
let joins = 0;
const lastJoin = new WeakMap<Socket, number>();

export function joinsSoFar(): number {
  return joins;
}

/** Called first on every connect: the server put the socket in its rooms before it said connected. */
export function noteJoin(socket: Socket): number {
  joins += 1;
  lastJoin.set(socket, joins);
  return joins;
}

/** The number of this socket's latest join, or null while it has never joined. */
export function joinOf(socket: Socket): number | null {
  return lastJoin.get(socket) ?? null;
}
