import { Events, type SocketChannel, type SocketPayloads } from "@charla/contracts";
import { createContext, useContext, useEffect, useRef } from "react";
import type { Socket } from "socket.io-client";
import { AuthContext } from "../auth/context";
import { joinOf } from "./joins";

export const SocketContext = createContext<Socket | null>(null);

export function useSocket(): Socket | null {
  return useContext(SocketContext);
}

/** What a channel's name needs beyond the company (a contact list's own channel: the list's id). */
type ChannelArgs<C extends SocketChannel> = Parameters<(typeof Events)[C]> extends [number, ...infer Rest] ? Rest : never;

/**
 * Listens to one channel of the signed-in user's company while mounted (`null`: none for now). The
 * event's name and its payload's type both come from the contracts (`Events`, `SocketPayloads`), as the
 * server's, so no caller picks a payload type. The latest handler is used without re-subscribing.
 */
export function useSocketEvent<C extends SocketChannel>(
  channel: C | null,
  handler: (payload: SocketPayloads[C]) => void,
  ...args: ChannelArgs<C>
): void {
  const socket = useSocket();
  // no socket without a session; read softly, as a screen without one (sign-in) listens to nothing
  const companyId = useContext(AuthContext)?.user?.companyId ?? null;
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  // every channel's name is built from numbers: the company's id, then what ChannelArgs adds
  const nameOf = (c: C) => Events[c] as (...ids: number[]) => string;
  const event = channel === null || companyId === null ? null : nameOf(channel)(companyId, ...(args as number[]));
  useEffect(() => {
    if (!socket || !event) return;
    const listener = (payload: SocketPayloads[C]) => handlerRef.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}

/**
 * Runs on every join of the socket to its rooms (each connect), with that join's number (joins.ts); if
 * the socket had already joined when this mounts (it connects while the page's code is still arriving),
 * once at once for that join. Live lists read themselves again for it, but only those whose read began
 * before it (reads.ts readBefore): events are not replayed, so what happened between such a read and
 * the join, or while the socket was down, would otherwise be missed.
 */
export function useOnConnect(handler: (join: number) => void): void {
  const socket = useSocket();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = () => {
      const join = joinOf(socket);
      if (join !== null) handlerRef.current(join);
    };
    if (socket.connected) listener();
    socket.on("connect", listener);
    return () => {
      socket.off("connect", listener);
    };
  }, [socket]);
}
