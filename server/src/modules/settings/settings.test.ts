import { type Profile, SettingDefinitions, companySettingKeys as settingKeys } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type Session, as, buildCompany, buildUser, login } from "../../test/factories.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

type Setting = { key: string; value: string; updatedAt?: string };
const getSettings = async (s: Session): Promise<Setting[]> => {
  const res = await as(t.app, s, { method: "GET", url: "/api/v1/settings" });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const put = (s: Session, key: string, value: unknown) =>
  as(t.app, s, { method: "PUT", url: `/api/v1/settings/${key}`, payload: { value } as object });
const settingValue = (list: Setting[], key: string) => list.find((x) => x.key === key)?.value;
const secretKeys = settingKeys.filter((k) => "secret" in SettingDefinitions[k]);
const publicKeys = settingKeys.filter((k) => !("secret" in SettingDefinitions[k]));

/** A fresh company and a logged-in member with the given profile (its admin by default). */
async function member(profile: Profile = "admin") {
  const c = await buildCompany(t.app);
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, s: await login(t.app, u) };
}

describe("#settings auth", () => {
  it("should require authentication", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/v1/settings" })).statusCode).toBe(401);
    const res = await t.app.inject({ method: "PUT", url: "/api/v1/settings/userRating", payload: { value: "enabled" } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
  });
});

describe("#settings.list", () => {
  it("gives an admin of a new company every key with its default", async () => {
    const { s } = await member();
    const list = await getSettings(s);
    expect(list.map((x) => x.key).sort()).toEqual([...settingKeys].sort());
    for (const key of settingKeys) expect(settingValue(list, key), key).toBe(SettingDefinitions[key].default);
    expect(secretKeys).toEqual(expect.arrayContaining(["asaas", "tokenixc"]));
  });

  it("hides the secret keys from a `user` profile", async () => {
    const { s } = await member("user");
    const keys = (await getSettings(s)).map((x) => x.key);
    expect(keys.sort()).toEqual([...publicKeys].sort());
    for (const k of ["asaas", "tokenixc", "clientsecretmkauth"]) expect(keys).not.toContain(k);
  });
});

describe("#settings.update", () => {
  it("an admin stores a value: returned, persisted and seen by the company's users", async () => {
    const { c, s } = await member();
    const res = await put(s, "userRating", "enabled");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ key: "userRating", value: "enabled" });
    expect(typeof res.json().updatedAt).toBe("string");
    expect(settingValue(await getSettings(s), "userRating")).toBe("enabled");
    const user = await login(t.app, await buildUser(t.app, c.id));
    expect(settingValue(await getSettings(user), "userRating")).toBe("enabled");
    expect((await put(s, "scheduleType", "company")).json().value).toBe("company");
    expect((await put(s, "scheduleType", "queue")).json().value).toBe("queue");
    expect(settingValue(await getSettings(s), "scheduleType")).toBe("queue");
  });

  it("stores free text in a secret key for admins only to read", async () => {
    const { c, s } = await member();
    expect((await put(s, "asaas", "tok_123456")).json()).toMatchObject({ key: "asaas", value: "tok_123456" });
    expect(settingValue(await getSettings(s), "asaas")).toBe("tok_123456");
    const user = await login(t.app, await buildUser(t.app, c.id));
    expect(settingValue(await getSettings(user), "asaas")).toBeUndefined();
  });

  it("refuses a `user` or a subadmin with 403 ERR_NO_PERMISSION and changes nothing", async () => {
    for (const profile of ["user", "subadmin"] as const) {
      const { s } = await member(profile);
      const res = await put(s, "userRating", "enabled");
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
      expect(settingValue(await getSettings(s), "userRating")).toBe("disabled");
    }
  });

  it("refuses a value the key does not allow (400 ERR_INVALID_SETTING_VALUE)", async () => {
    const { s } = await member();
    for (const [key, value] of [
      ["userRating", "maybe"],
      ["scheduleType", "always"],
      ["chatBotType", "TEXT"],
    ]) {
      const res = await put(s, key, value);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().error).toBe("ERR_INVALID_SETTING_VALUE");
    }
    expect(settingValue(await getSettings(s), "userRating")).toBe("disabled");
  });

  it("requires a string value (400 ERR_VALIDATION)", async () => {
    const { s } = await member();
    for (const value of [undefined, 5, "x".repeat(2001)]) {
      const res = await put(s, "asaas", value);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().issues.map((i: { path: string }) => i.path)).toContain("body.value");
    }
  });

  it("answers 404 ERR_NO_SETTING_FOUND for an unknown key", async () => {
    const { s } = await member();
    for (const key of ["noSuchSetting", "__proto__", "toString"]) {
      const res = await put(s, key, "enabled");
      expect(res.statusCode, key).toBe(404);
      expect(res.json().error).toBe("ERR_NO_SETTING_FOUND");
    }
  });

  it("a change in company A is not visible in company B", async () => {
    const a = await member();
    const b = await member();
    expect((await put(a.s, "chatBotType", "keyword")).statusCode).toBe(200);
    expect((await put(a.s, "tokenixc", "secret-of-a")).statusCode).toBe(200);
    const inB = await getSettings(b.s);
    expect(settingValue(inB, "chatBotType")).toBe("text");
    expect(settingValue(inB, "tokenixc")).toBe("");
    expect(settingValue(await getSettings(a.s), "chatBotType")).toBe("keyword");
  });
});
