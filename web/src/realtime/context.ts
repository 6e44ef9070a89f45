import { createContext, useContext, useEffect, useRef } from "react";
import type { Socket } from "socket.io-client";
import { joinOf } from "./joins";

export const SocketContext = createContext<Socket | null>(null);

export function useSocket(): Socket | null {
  return useContext(SocketContext);
}

/** Listens to one event while mounted; the latest handler is used without re-subscribing. */
export function useSocketEvent<T>(event: string | null, handler: (payload: T) => void): void {
  const socket = useSocket();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!socket || !event) return;
    const listener = (payload: T) => handlerRef.current(payload);
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
