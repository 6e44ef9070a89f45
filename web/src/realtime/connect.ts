import { ClientEvents, Limits } from "@charla/contracts";
import { io, type Socket } from "socket.io-client";
import { ApiError, refreshToken } from "../api/client";
import { readToken } from "../lib/storage";
import { noteJoin } from "./joins";

// A refreshed token the server still calls expired must not turn into a refresh loop.
const RENEW_GAP_MS = 10_000;
// After a server-side drop: long enough for a logout in progress to clear the token first.
const SERVER_DROP_GRACE_MS = 1000;
const RETRY_MS = 5000;

/**
 * One connection per session, same origin. The handshake reads the token on every (re)connect,
 * so a refreshed token is used without rebuilding the socket.
 */
export type Connection = {
  socket: Socket;
  /** Settles at the first connect (the socket is in its rooms) or the first refusal, whichever comes first. */
  joined: Promise<void>;
  /** Hands events held until the app listened to its listeners (early.ts); nothing to do otherwise. */
  release: () => void;
  close: () => void;
};

export function connectSocket(): Connection {
  const socket = io({
    path: "/socket.io",
    auth: (send) => send({ token: readToken() }),
  });
  // before any other listener: whatever runs on a connect sees this join counted
  socket.on("connect", () => noteJoin(socket));
  const joined = new Promise<void>((resolve) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", () => resolve());
  });
  let closed = false;
  let lastRenewal = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;

  // socket.io gives up after a refused handshake or a server-side drop; these restart it by hand.
  const reconnectSoon = (delayMs: number) => {
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(() => {
      if (!closed && readToken() && !socket.connected) socket.connect();
    }, delayMs);
  };

  const renew = () => {
    if (closed || !readToken()) return;
    const wait = lastRenewal + RENEW_GAP_MS - Date.now();
    if (wait > 0) {
      clearTimeout(renewTimer);
      renewTimer = setTimeout(renew, wait);
      return;
    }
    lastRenewal = Date.now();
    refreshToken()
      .then(() => reconnectSoon(0))
      .catch((error: unknown) => {
        // A refused refresh (401) already ended the session; anything else (server away) is retried.
        if (!(error instanceof ApiError && error.status === 401)) reconnectSoon(RETRY_MS);
      });
  };

  // the page says whether it is live (`<html data-socket>`): browser tests wait on it, not on a clock
  const mark = (state: "connected" | "disconnected") => {
    document.documentElement.dataset.socket = state;
  };
  socket.on("connect", () => {
    socket.emit(ClientEvents.joinNotification);
    mark("connected");
  });
  socket.on("connect_error", (error) => {
    if (error.message === "ERR_TOKEN_EXPIRED") renew();
  });
  // A server restart or a session the server ended; a still-valid session simply connects again.
  socket.on("disconnect", (reason) => {
    mark("disconnected");
    if (reason === "io server disconnect") reconnectSoon(SERVER_DROP_GRACE_MS);
  });

  // core §4: the client reports it is alive every 5 minutes.
  const statusTimer = setInterval(() => {
    if (socket.connected) socket.emit(ClientEvents.userStatus);
  }, Limits.statusPingMs);

  return {
    socket,
    joined,
    release: () => undefined,
    close: () => {
      closed = true;
      clearInterval(statusTimer);
      clearTimeout(reconnectTimer);
      clearTimeout(renewTimer);
      socket.removeAllListeners();
      socket.disconnect();
      delete document.documentElement.dataset.socket;
    },
  };
}
