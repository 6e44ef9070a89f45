import { ClientEvents, Limits } from "@charla/contracts";
import { io, type Socket } from "socket.io-client";
import { ApiError, onTokenRefreshed, refreshToken } from "../api/client";
import { readToken } from "../lib/storage";
import { noteJoin } from "./joins";

// A refreshed token the server still calls expired must not turn into a refresh loop.
const RENEW_GAP_MS = 10_000;
// Refusals of the token itself: a newer token (a refresh under way at a page load) may be accepted.
const TOKEN_REFUSALS = new Set(["ERR_TOKEN_EXPIRED", "ERR_SESSION_EXPIRED"]);
// After a server-side drop: long enough for a logout in progress to clear the token first.
const SERVER_DROP_GRACE_MS = 1000;
const RETRY_MS = 5000;

/**
 * One connection per session, same origin. The handshake reads the token on every (re)connect,
 * so a refreshed token is used without rebuilding the socket.
 */
export type Connection = {
  socket: Socket;
  /**
   * Settles at the first connect (the socket is in its rooms) or the first refusal, whichever comes
   * first; a refusal of the token is not one: the socket tries again with the renewed token.
   */
  joined: Promise<void>;
  /** Hands events held until the app listened to its listeners (early.ts); nothing to do otherwise. */
  release: () => void;
  close: () => void;
};

export function connectSocket(): Connection {
  // the token the latest handshake carried: a page load connects with the stored token while it is
  // being refreshed, so a refusal of that token is answered by the newer one (now, or once it arrives)
  let handshakeToken: string | null = null;
  let tokenRefused = false;
  const socket = io({
    path: "/socket.io",
    auth: (send) => {
      handshakeToken = readToken();
      send({ token: handshakeToken });
    },
  });
  // before any other listener: whatever runs on a connect sees this join counted
  socket.on("connect", () => noteJoin(socket));
  const joined = new Promise<void>((resolve) => {
    socket.once("connect", () => resolve());
    const refused = (error: Error) => {
      if (TOKEN_REFUSALS.has(error.message)) return;
      socket.off("connect_error", refused);
      resolve();
    };
    socket.on("connect_error", refused);
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
    tokenRefused = false;
    socket.emit(ClientEvents.joinNotification);
    mark("connected");
  });
  socket.on("connect_error", (error) => {
    if (!TOKEN_REFUSALS.has(error.message)) return;
    tokenRefused = true;
    if (readToken() !== handshakeToken) reconnectSoon(0);
    else if (error.message === "ERR_TOKEN_EXPIRED") renew();
  });
  // a token the handshake refused (the stored one of a page load), then a refresh: try the new one
  const stopListening = onTokenRefreshed(() => {
    if (tokenRefused) reconnectSoon(0);
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
      stopListening();
      clearInterval(statusTimer);
      clearTimeout(reconnectTimer);
      clearTimeout(renewTimer);
      socket.removeAllListeners();
      socket.disconnect();
      delete document.documentElement.dataset.socket;
    },
  };
}
