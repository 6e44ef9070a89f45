import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "./test/app.js";
import { buildCompany, buildContact, login } from "./test/factories.js";

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), "charla-web-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Charla</title>");
  writeFileSync(join(webDist, "assets", "app.js"), "console.log(1)");
  // what web/scripts/precompress.mjs leaves beside a built asset
  const big = `console.log("${"charla ".repeat(500)}");`;
  writeFileSync(join(webDist, "assets", "big-abc123.js"), big);
  writeFileSync(join(webDist, "assets", "big-abc123.js.br"), brotliCompressSync(big));
  writeFileSync(join(webDist, "assets", "big-abc123.js.gz"), gzipSync(big));
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

  it("sends precompressed assets as the browser accepts them, cached for a year; index.html revalidated", async () => {
    const get = (url: string, encoding?: string) =>
      t.app.inject({ method: "GET", url, headers: encoding ? { "accept-encoding": encoding } : {} });
    const br = await get("/assets/big-abc123.js", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.rawPayload).toString()).toMatch(/^console\.log\("charla/);
    const gz = await get("/assets/big-abc123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toMatch(/^console\.log\("charla/);
    const plain = await get("/assets/big-abc123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toMatch(/^console\.log\("charla/);
    for (const url of ["/", "/tickets"]) expect((await get(url, "br")).headers["cache-control"]).toBe("no-cache");
  });

  it("compresses API answers for clients that accept it", async () => {
    const c = await buildCompany(t.app);
    for (let i = 0; i < 30; i++) await buildContact(t.app, c.id, { name: `Cliente comprimido ${i}` });
    const s = await login(t.app, c.admin);
    const get = (encoding?: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/v1/contacts",
        headers: { authorization: `Bearer ${s.token}`, ...(encoding ? { "accept-encoding": encoding } : {}) },
      });
    const plain = await get();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const gz = await get("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    const br = await get("br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });

  it("serves an asset only by a plain name of the assets folder", async () => {
    writeFileSync(join(webDist, "secret.txt"), "not an asset");
    for (const url of [
      "/assets/..%2Fsecret.txt",
      "/assets/%2E%2E%2Fsecret.txt",
      "/assets/.hidden",
      "/assets/..",
      "/assets/a%5Cb.js",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.body, url).not.toContain("not an asset");
      if (url !== "/assets/..") expect(res.statusCode, url).toBe(404);
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
