import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, PASSWORD } from "../test/factories.js";

let t: TestApp;
beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), "charla-web-"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Charla</title>");
  t = await getTestApp({ webDist, trustProxy: true });
});
afterAll(() => t.close());

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe("security headers", () => {
  it("the web app may load only Charla's own scripts and images and may not be framed", async () => {
    for (const url of ["/", "/tickets", "/api/v1/auth/me"]) {
      const res = await t.app.inject({ method: "GET", url });
      const csp = directives(String(res.headers["content-security-policy"]));
      expect(csp.get("default-src"), url).toEqual(["'self'"]);
      expect(csp.get("script-src"), url).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors"), url).toEqual(["'none'"]);
      expect(csp.get("object-src"), url).toEqual(["'none'"]);
      // images: our own, in-memory media, WhatsApp's own picture servers and the help videos'
      // thumbnails (one host, no wildcard); nothing a message can name
      expect(csp.get("img-src"), url).toEqual(["'self'", "data:", "blob:", "https://*.whatsapp.net", "https://i.ytimg.com"]);
      // frames: only the help videos' privacy-enhanced player, not youtube.com nor any other site
      expect(csp.get("frame-src"), url).toEqual(["https://www.youtube-nocookie.com"]);
      expect(csp.get("child-src"), url).toBeUndefined();
      expect(csp.get("connect-src"), url).toEqual(["'self'"]);
      expect(csp.has("upgrade-insecure-requests"), url).toBe(false);
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["x-frame-options"], url).toBe("DENY");
      expect(res.headers["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
    }
  });

  it("marks the refresh cookie Secure whenever the request came over HTTPS", async () => {
    const c = await buildCompany(t.app);
    const loginOver = async (proto: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { email: c.admin.email, password: PASSWORD },
        headers: { "x-forwarded-proto": proto },
      });
      expect(res.statusCode).toBe(200);
      return String(res.headers["set-cookie"]);
    };
    expect(await loginOver("https")).toMatch(/;\s*Secure/i);
    expect(await loginOver("http")).not.toMatch(/;\s*Secure/i);
  });
});
