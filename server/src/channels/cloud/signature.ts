import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Meta signs each webhook POST with the app secret: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of
 * the raw body>`. True only for that exact header over these exact bytes; compared in constant time so
 * a forger learns nothing from how long a refusal takes.
 */
export function verifySignature(appSecret: string, rawBody: Buffer | string, header: string | undefined | null): boolean {
  if (!appSecret || typeof header !== "string") return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  const given = Buffer.from(match[1], "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The header Meta would send for these bytes (tests and the fake Graph server sign with it). */
export function signatureOf(appSecret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}
