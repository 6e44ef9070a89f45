import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, type RunningServer, api, apiLogin, startServer } from "./support/server.js";

// Two real server processes joined only by Redis: an event raised on one reaches a browser socket on
// the other. Each has its own embedded database seeded alike, so company 1 exists on both.
const redisUrl = process.env.REDIS_URL;

describe.runIf(redisUrl)("scale-out with REDIS_URL", () => {
  let one: RunningServer;
  let two: RunningServer;
  beforeAll(async () => {
    [one, two] = await Promise.all([
      startServer({ REDIS_URL: redisUrl as string }),
      startServer({ REDIS_URL: redisUrl as string }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  it("delivers a user event raised on server two to a socket on server one", async () => {
    const tokenOne = await apiLogin(one.url, ADMIN.email, ADMIN.password);
    const socket = connect(one.url, { auth: { token: tokenOne }, transports: ["websocket"], reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve());
        socket.on("connect_error", reject);
      });
      const received = new Promise<{ action: string; user: { name: string } }>((resolve) =>
        socket.once("company-1-user", resolve),
      );
      const tokenTwo = await apiLogin(two.url, ADMIN.email, ADMIN.password);
      const name = `Nodo ${Date.now()}`;
      await api(
        two.url,
        "POST",
        "/users",
        { name, email: `nodo-${Date.now()}@e2e.test`, password: "nodo-123", profile: "user" },
        tokenTwo,
      );
      const event = await Promise.race([received, new Promise<null>((r) => setTimeout(() => r(null), 8000))]);
      expect(event).toMatchObject({ action: "create", user: { name } });
    } finally {
      socket.disconnect();
    }
  });
});
