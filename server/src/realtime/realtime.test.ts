import type { AddressInfo } from "node:net";
import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { type Socket, io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { as, buildCompany, login } from "../test/factories.js";

let t: TestApp;
let base: string;
const sockets: Socket[] = [];

async function listen(app: TestApp["app"]) {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function open(url: string, token?: string): Promise<Socket> {
  const s = connect(url, { path: "/socket.io", auth: token ? { token } : {}, transports: ["websocket"], reconnection: false });
  sockets.push(s);
  return new Promise((resolve, reject) => {
    s.on("connect", () => resolve(s));
    s.on("connect_error", (err) => reject(err));
  });
}

/** Resolves with the first payload of `event`, or with "timeout" after `ms` (absence is the claim). */
function next(s: Socket, event: string, ms = 1500): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), ms);
    s.once(event, (payload) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

beforeAll(async () => {
  t = await getTestApp();
  base = await listen(t.app);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

describe("realtime", () => {
  it("refuses a socket without a valid token", async () => {
    await expect(open(base)).rejects.toThrow(/ERR_SESSION_EXPIRED/);
    await expect(open(base, "not-a-token")).rejects.toThrow(/ERR_SESSION_EXPIRED/);
  });

  it("takes the token from the handshake's auth only, never from the query string (REST refuses it too)", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const inQuery = connect(base, {
      path: "/socket.io",
      query: { token: s.token },
      transports: ["websocket"],
      reconnection: false,
    });
    sockets.push(inQuery);
    const refused = await new Promise<string>((resolve) => {
      inQuery.on("connect", () => resolve("connected"));
      inQuery.on("connect_error", (err) => resolve(err.message));
    });
    expect(refused).toBe("ERR_SESSION_EXPIRED");
    // the same token in auth connects
    expect((await open(base, s.token)).connected).toBe(true);
  });

  it("delivers company events to that company only", async () => {
    const a = await buildCompany(t.app);
    const b = await buildCompany(t.app);
    const sa = await login(t.app, a.admin);
    const sb = await login(t.app, b.admin);
    const socketA = await open(base, sa.token);
    const socketB = await open(base, sb.token);
    // the wait for A's event covers the request too (argon2 hashing the password on a busy machine)
    const gotA = next(socketA, Events.user(a.id), 10_000);
    const gotB = next(socketB, Events.user(a.id));
    const res = await as(t.app, sa, {
      method: "POST",
      url: "/api/v1/users",
      payload: { name: "Realtime Agent", email: `rt-${a.id}@test.charla`, password: "12345", profile: "user" },
    });
    expect(res.statusCode).toBe(201);
    expect(await gotA).toMatchObject({ action: "create", user: { name: "Realtime Agent" } });
    expect(await gotB).toBe("timeout");
  });

  it("tells only the older session that the account was used elsewhere, and marks presence", async () => {
    const c = await buildCompany(t.app);
    const first = await login(t.app, c.admin);
    const oldSocket = await open(base, first.token);
    // the wait covers the second login too (argon2 on a busy machine); it ends as the event arrives
    const told = next(oldSocket, Events.auth(c.id), 15_000);
    const second = await login(t.app, c.admin);
    const newSocket = await open(base, second.token);
    const notTold = next(newSocket, Events.auth(c.id), 800);
    expect(await told).toEqual({ action: "update", user: { id: c.admin.id } });
    expect(await notTold).toBe("timeout");

    newSocket.emit("userStatus");
    await expect
      .poll(async () => (await t.app.charla.db.select().from(users).where(eq(users.id, c.admin.id)))[0])
      .toMatchObject({ online: true, lastSeenAt: expect.any(Date) });
  });

  it.runIf(process.env.REDIS_URL)("with REDIS_URL two servers deliver each other's events", async () => {
    const redisUrl = process.env.REDIS_URL as string;
    const one = await getTestApp({ redisUrl }, t.database);
    const two = await getTestApp({ redisUrl }, t.database);
    try {
      const url1 = await listen(one.app);
      const c = await buildCompany(one.app);
      const s1 = await login(one.app, c.admin);
      const socket = await open(url1, s1.token);
      const got = next(socket, Events.user(c.id), 4000);
      // an admin of company c acting on server two; the socket is on server one
      const admin2 = await login(two.app, c.admin);
      const res = await as(two.app, admin2, {
        method: "POST",
        url: "/api/v1/users",
        payload: { name: "Across Nodes", email: `an-${c.id}@test.charla`, password: "12345", profile: "user" },
      });
      expect(res.statusCode).toBe(201);
      expect(await got).toMatchObject({ action: "create", user: { name: "Across Nodes" } });
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });
});
