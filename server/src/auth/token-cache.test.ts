import { afterEach, describe, expect, it, vi } from "vitest";
import { TokenService } from "./tokens.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("access tokens already verified", () => {
  it("verify again from memory until they expire, then answer ERR_TOKEN_EXPIRED; altered ones never match", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-22T12:00:00Z"), toFake: ["Date"] });
    const tokens = new TokenService("a-secret-of-at-least-32-characters!!", "refresh-secret", 60);
    const token = await tokens.signAccess({ userId: 7, companyId: 3, sessionId: "s-1" });
    const claims = { userId: 7, companyId: 3, sessionId: "s-1" };
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    const other = new TokenService("another-secret-of-32-characters!!!!!", "refresh-secret", 60);
    // the cache is per key: a token this server did not sign is checked, and refused
    await expect(other.verifyAccess(token)).rejects.toMatchObject({ code: "ERR_SESSION_EXPIRED" });
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    const [head, body, signature] = token.split(".");
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BA" : "AA"}`;
    await expect(tokens.verifyAccess(`${head}.${body}.${flipped}`)).rejects.toMatchObject({ code: "ERR_SESSION_EXPIRED" });
    vi.setSystemTime(new Date("2026-11-22T12:01:01Z"));
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ code: "ERR_TOKEN_EXPIRED" });
    // and still after it left the cache
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ code: "ERR_TOKEN_EXPIRED" });
  });
});
