import type { AddressInfo } from "node:net";
import { SignJWT, decodeJwt } from "jose";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const key = () => new TextEncoder().encode(t.config.jwtSecret);

/** A token signed with the server's own key for a live session, shaped as asked. */
async function forge(from: string, opts: { exp?: boolean; iat?: boolean }) {
  const claims = decodeJwt(from);
  const jwt = new SignJWT({ cid: claims.cid, sid: claims.sid })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.sub));
  if (opts.iat !== false) jwt.setIssuedAt();
  if (opts.exp !== false) jwt.setExpirationTime("5m");
  return jwt.sign(key());
}

describe("#auth access tokens", () => {
  it("refuses a correctly signed token without exp (or iat) on the API and the socket; the same with exp passes", async () => {
    const c = await buildCompany(t.app);
    const session = await login(t.app, c.admin);
    expect(decodeJwt(session.token).exp).toBeGreaterThan(Date.now() / 1000);

    const withExp = await forge(session.token, {});
    expect((await call({ token: withExp }, "GET", "/auth/me")).statusCode).toBe(200);

    const forever = await forge(session.token, { exp: false });
    expect(decodeJwt(forever).exp).toBeUndefined();
    expectError(await call({ token: forever }, "GET", "/auth/me"), 401, "ERR_SESSION_EXPIRED");
    expectError(await call({ token: await forge(session.token, { iat: false }) }, "GET", "/auth/me"), 401, "ERR_SESSION_EXPIRED");
    await expect(t.app.charla.tokens.verifyAccess(forever)).rejects.toMatchObject({ code: "ERR_SESSION_EXPIRED" });

    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const socket = connect(url, { path: "/socket.io", auth: { token: forever }, transports: ["websocket"], reconnection: false });
    try {
      const outcome = await new Promise<string>((resolve) => {
        socket.on("connect", () => resolve("connected"));
        socket.on("connect_error", (err) => resolve(err.message));
      });
      expect(outcome).toBe("ERR_SESSION_EXPIRED");
    } finally {
      socket.disconnect();
    }
  });
});
