import { createHmac, randomBytes } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { AppError } from "../lib/app-error.js";

export type AccessClaims = { userId: number; companyId: number; sessionId: string };

/** Verified tokens kept (the oldest go first): a few per signed-in user. */
const VERIFIED_MAX = 10_000;

/** Short-lived access tokens (HS256); an expired one answers 403 so the client refreshes once. */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly refreshSecret: string,
    readonly accessTtlSec: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  signAccess(c: AccessClaims): Promise<string> {
    return new SignJWT({ cid: c.companyId, sid: c.sessionId })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(c.userId))
      .setIssuedAt()
      .setExpirationTime(`${this.accessTtlSec}s`)
      .sign(this.key);
  }

  /**
   * Tokens already verified, until they expire: an agent's screen sends the same token with every
   * request, and jose's HMAC through WebCrypto took ~0.3 ms of CPU a request (a tenth of a ticket list).
   * A token is a signed string: the same string verified once verifies the same until its exp.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expMs: number }>();

  async verifyAccess(token: string): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expMs > Date.now()) return known.claims;
      this.verified.delete(token);
      throw new AppError("ERR_TOKEN_EXPIRED");
    }
    return this.verifyAccessOnce(token);
  }

  private async verifyAccessOnce(token: string): Promise<AccessClaims> {
    try {
      // a token that never expires is not one this server issues: exp (and iat, sub) must be present
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"], requiredClaims: ["exp", "iat", "sub"] });
      const userId = Number(payload.sub);
      const companyId = Number(payload.cid);
      if (!Number.isInteger(userId) || !Number.isInteger(companyId) || typeof payload.sid !== "string") {
        throw new AppError("ERR_SESSION_EXPIRED");
      }
      const claims = { userId, companyId, sessionId: payload.sid };
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, { claims, expMs: (payload.exp ?? 0) * 1000 });
      return claims;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new AppError("ERR_TOKEN_EXPIRED");
      throw new AppError("ERR_SESSION_EXPIRED");
    }
  }

  /** Opaque refresh token; only its keyed hash is stored. */
  newRefreshToken(): { token: string; hash: string } {
    const token = randomBytes(32).toString("base64url");
    return { token, hash: this.hashRefresh(token) };
  }

  hashRefresh(token: string): string {
    return createHmac("sha256", this.refreshSecret).update(token).digest("base64url");
  }
}
