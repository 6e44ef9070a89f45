import { describe, expect, it } from "vitest";
import { CloudError, cloudErrorCode, graphError, unreachable } from "./errors.js";

describe("Graph API errors as the catalogue's codes", () => {
  it("maps Meta's codes, edges of the ranges included", () => {
    expect(cloudErrorCode(131047)).toBe("ERR_CLOUD_REENGAGEMENT");
    expect(cloudErrorCode(131026)).toBe("ERR_CLOUD_UNDELIVERABLE");
    for (const code of [130429, 131048, 131056, 80007, 4]) expect(cloudErrorCode(code)).toBe("ERR_CLOUD_RATE_LIMITED");
    for (const code of [0, 10, 190, 200, 299]) expect(cloudErrorCode(code)).toBe("ERR_CLOUD_AUTH");
    for (const code of [131052, 131053]) expect(cloudErrorCode(code)).toBe("ERR_CLOUD_MEDIA");
    for (const code of [132000, 132007, 132016]) expect(cloudErrorCode(code)).toBe("ERR_CLOUD_TEMPLATE_REJECTED");
    for (const code of [131999, 132017, 132068, 300, 131000, 100]) expect(cloudErrorCode(code)).toBe("ERR_CLOUD_API");
  });

  it("counts the OAuthException type only without a code (Meta gives most errors that type), and HTTP 401 always", () => {
    expect(cloudErrorCode(null, { type: "OAuthException" })).toBe("ERR_CLOUD_AUTH");
    expect(cloudErrorCode(131047, { type: "OAuthException" })).toBe("ERR_CLOUD_REENGAGEMENT");
    expect(cloudErrorCode(131030, { type: "OAuthException" })).toBe("ERR_CLOUD_API");
    expect(cloudErrorCode(131030, { httpStatus: 401 })).toBe("ERR_CLOUD_AUTH");
    expect(cloudErrorCode(undefined)).toBe("ERR_CLOUD_API");
  });

  it("reads Meta's error body: details first, the code named once; a body that is none says its HTTP status", () => {
    const e = graphError(400, {
      error: {
        message: "(#131047) Re-engagement message",
        type: "OAuthException",
        code: 131047,
        error_data: {
          messaging_product: "whatsapp",
          details:
            "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
        },
        fbtrace_id: "Az8or2yhqkZfEZ-_4Qn_Bam",
      },
    });
    expect(e).toBeInstanceOf(CloudError);
    expect(e).toMatchObject({ code: "ERR_CLOUD_REENGAGEMENT", graphCode: 131047, httpStatus: 400 });
    expect(e.reason).toBe(
      "(#131047) Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
    );
    expect(graphError(400, { error: { message: "(#100) Invalid parameter", code: 100 } }).reason).toBe(
      "(#100) Invalid parameter",
    );
    expect(graphError(502, "<html>Bad gateway</html>")).toMatchObject({
      code: "ERR_CLOUD_API",
      reason: "HTTP 502",
      graphCode: null,
    });
    expect(graphError(400, { error: { code: "131026", message: "Message undeliverable" } })).toMatchObject({
      code: "ERR_CLOUD_UNDELIVERABLE",
      graphCode: 131026,
    });
    expect(graphError(400, { error: { message: "x".repeat(5000), code: 1 } }).reason.length).toBeLessThanOrEqual(300);
  });

  it("carries the reason where the answer's text fills it (ERR_CLOUD_API's {{reason}})", () => {
    const e = graphError(400, { error: { message: "(#131030) Recipient phone number not in allowed list", code: 131030 } });
    expect(e.code).toBe("ERR_CLOUD_API");
    expect(e.data).toEqual({ reason: "(#131030) Recipient phone number not in allowed list" });
    expect(e.message).toContain("Recipient phone number not in allowed list");
  });

  it("tells a time-out from a network failure", () => {
    expect(unreachable(Object.assign(new Error("t"), { name: "TimeoutError" }), 15_000).reason).toBe(
      "no answer from the Graph API within 15 s",
    );
    expect(unreachable(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }), 15_000).reason).toBe(
      "the Graph API could not be reached (ECONNREFUSED)",
    );
  });
});
