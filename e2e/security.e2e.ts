import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginThroughUi, newPage } from "./support/browser.js";
import { ADMIN, type RunningServer } from "./support/server.js";
import { withServerAndBrowser } from "./support/suite.js";

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

// "another site": a second server on this machine that counts what the browser asks of it
let outside: Server;
let outsideUrl: string;
const outsideHits: string[] = [];
beforeAll(async () => {
  outside = createServer((req, res) => {
    outsideHits.push(String(req.url));
    res.writeHead(200, { "content-type": "image/png" }).end();
  });
  await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", resolve));
  outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => outside.close(() => resolve())));

describe("content security policy in the browser", () => {
  it("the logged-in app runs under its policy and refuses foreign images and scripts", async () => {
    const { context, page } = await newPage(browser);
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await loginThroughUi(page, server.url, ADMIN.email, ADMIN.password);
    await expect.poll(() => page.getByTestId("greeting").textContent(), { timeout: 15_000 }).toMatch(/Admin/);
    // the app itself needs nothing the policy forbids
    expect(violations).toEqual([]);

    // what a crafted message would do if it reached the page: point an image and a script elsewhere
    const blocked = await page.evaluate(async (url) => {
      const seen: string[] = [];
      document.addEventListener("securitypolicyviolation", (e) => seen.push(e.violatedDirective));
      const img = document.createElement("img");
      img.src = `${url}/pixel.png`;
      document.body.append(img);
      const script = document.createElement("script");
      script.src = `${url}/evil.js`;
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 1000));
      return seen;
    }, outsideUrl);
    expect(blocked.some((d) => d.startsWith("img-src"))).toBe(true);
    expect(blocked.some((d) => d.startsWith("script-src"))).toBe(true);
    expect(outsideHits).toEqual([]);
    await context.close();
  });
});
