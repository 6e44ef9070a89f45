import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { campaignCompany } from "../../test/campaign-kit.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const call = caller(() => t.app);

const stored = {
  messageInterval: 5,
  longerIntervalAfter: 10,
  greaterInterval: 120,
  variables: [{ key: "cupon", value: "DESC10" }],
};

describe("#campaign-settings writes", () => {
  it("a write changes only what it names: the other settings and the variables stay", async () => {
    const w = await campaignCompany(t);
    expect((await call(w.session, "POST", "/campaign-settings", stored)).statusCode).toBe(200);
    const res = await call(w.session, "POST", "/campaign-settings", { messageInterval: 15 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...stored, messageInterval: 15 });
    expect((await call(w.session, "GET", "/campaign-settings")).json()).toEqual({ ...stored, messageInterval: 15 });
  });

  it("takes the settings wrapped as {settings: {…}} too (the reference client's body), saving only what it names", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", stored);
    const res = await call(w.session, "POST", "/campaign-settings", { settings: { greaterInterval: 30 } });
    expect(res.statusCode).toBe(200);
    expect((await call(w.session, "GET", "/campaign-settings")).json()).toEqual({ ...stored, greaterInterval: 30 });
    const bad = await call(w.session, "POST", "/campaign-settings", { settings: { messageInterval: 7 } });
    expectError(bad, 400, "ERR_VALIDATION");
    expect(bad.json().issues).toEqual([{ path: "body.messageInterval", message: "validation.invalid" }]);
  });

  it("a body of another shape is 400 ERR_VALIDATION and erases nothing", async () => {
    const w = await campaignCompany(t);
    await call(w.session, "POST", "/campaign-settings", stored);
    for (const body of [
      {},
      { config: { messageInterval: 5 } },
      { settings: { messageInterval: 5 }, extra: 1 },
      { settings: "5" },
      { settings: { colour: "red" } },
      { messageInterval: 5, colour: "red" },
      { settings: {} },
    ]) {
      expectError(await call(w.session, "POST", "/campaign-settings", body), 400, "ERR_VALIDATION");
    }
    expect((await call(w.session, "GET", "/campaign-settings")).json()).toEqual(stored);
  });

  it("a variable list that repeats a key names where, wrapped or not", async () => {
    const w = await campaignCompany(t);
    const variables = [
      { key: "a", value: "1" },
      { key: "a", value: "2" },
    ];
    for (const body of [{ variables }, { settings: { variables } }]) {
      const res = await call(w.session, "POST", "/campaign-settings", body);
      expect(res.json().issues).toEqual([{ path: "body.variables.1.key", message: "validation.duplicateKey" }]);
    }
  });
});
