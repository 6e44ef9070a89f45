import type { AddressInfo } from "node:net";
import { type Socket, io as connect } from "socket.io-client";
import { afterAll, beforeAll } from "vitest";
import type { Config } from "../config.js";
import { type TestApp, getTestApp } from "./app.js";
import type { Session } from "./factories.js";

/**
 * A test file's app listening on a free port, for tests that need real Socket.IO clients: `open`
 * connects one as a user (resolving once connected, rejecting when refused); all are closed with the app.
 */
export function listeningTestApp(overrides: Partial<Config> = {}) {
  let t: TestApp | undefined;
  let base = "";
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await getTestApp(overrides);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t?.close();
  });
  return {
    get app(): TestApp["app"] {
      if (!t) throw new Error("the app starts in beforeAll");
      return t.app;
    },
    open(session: Pick<Session, "token">): Promise<Socket> {
      const s = connect(base, {
        path: "/socket.io",
        auth: { token: session.token },
        transports: ["websocket"],
        reconnection: false,
      });
      sockets.push(s);
      return new Promise((resolve, reject) => {
        s.on("connect", () => resolve(s));
        s.on("connect_error", reject);
      });
    },
  };
}
