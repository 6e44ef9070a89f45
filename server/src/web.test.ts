import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "./test/app.js";
import { buildCompany, login } from "./test/factories.js";

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), "charla-web-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Charla</title>");
  writeFileSync(join(webDist, "assets", "app.js"), "console.log(1)");
  t = await getTestApp({ webDist });
});
afterAll(() => t.close());

describe("web app serving", () => {
  it("serves files, the SPA index for app routes, and 404 for missing files and API paths", async () => {
    const get = (url: string) => t.app.inject({ method: "GET", url });
    for (const url of ["/", "/users", "/tickets/abc?x=1"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
    }
    const js = await get("/assets/app.js");
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toMatch(/javascript/);
    for (const url of ["/assets/missing.js", "/api/v1/nothing-here", "/favicon.ico"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe("ERR_NOT_FOUND");
    }
  });

  it("serves a file built after start without a restart", async () => {
    writeFileSync(join(webDist, "assets", "late.js"), "console.log(2)");
    expect((await t.app.inject({ method: "GET", url: "/assets/late.js" })).statusCode).toBe(200);
  });
});

describe("shutdown", () => {
  it("closes promptly with a socket still connected", async () => {
    const other = await getTestApp({}, t.database);
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    const c = await buildCompany(other.app);
    const s = await login(other.app, c.admin);
    const url = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
    const socket = connect(url, { auth: { token: s.token }, transports: ["websocket"], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    const started = Date.now();
    await other.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    socket.disconnect();
  });
});
