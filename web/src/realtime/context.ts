import { createContext, useContext, useEffect, useRef } from "react";
import type { Socket } from "socket.io-client";

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
 * Runs on every connect of the socket, the first one included. Live lists call it to read themselves
 * again: events are not replayed, so whatever happened before the socket joined its rooms (a list's
 * first read may go out before the connection is up) or while it was down would otherwise be missed.
 */
export function useOnConnect(handler: () => void): void {
  const socket = useSocket();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = () => handlerRef.current();
    socket.on("connect", listener);
    return () => {
      socket.off("connect", listener);
    };
  }, [socket]);
}
