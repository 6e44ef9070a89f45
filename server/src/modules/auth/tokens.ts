import { createHmac, randomBytes } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { AppError } from "../../lib/app-error.js";

export type AccessClaims = { userId: number; companyId: number; sessionId: string };

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

  async verifyAccess(token: string): Promise<AccessClaims> {
    try {
      // a token that never expires is not one this server issues: exp (and iat, sub) must be present
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"], requiredClaims: ["exp", "iat", "sub"] });
      const userId = Number(payload.sub);
      const companyId = Number(payload.cid);
      if (!Number.isInteger(userId) || !Number.isInteger(companyId) || typeof payload.sid !== "string") {
        throw new AppError("ERR_SESSION_EXPIRED");
      }
      return { userId, companyId, sessionId: payload.sid };
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
