import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../app.js";
import { as, buildCompany, buildUser, login, type Session } from "../factories.js";
import { fillParams } from "./samples.js";

/**
 * The spec writes list routes with a trailing slash (`GET /users/`, `/tags/`, `/campaigns/`…) and
 * clients copy it. Every route must answer the same with and without it — in particular `/users/`
 * must reach the list, not `/users/:id` with an empty id.
 */
let t: TestApp;
let session: Session;
let sup: Awaited<ReturnType<typeof buildUser>>;

beforeAll(async () => {
  t = await getTestApp();
  const c = await buildCompany(t.app);
  sup = await buildUser(t.app, c.id, { profile: "admin", super: true });
  session = await login(t.app, sup);
});
afterAll(() => t.close());

function shapeOf(body: string): string {
  try {
    const json = JSON.parse(body);
    return Array.isArray(json)
      ? "array"
      : Object.keys(json ?? {})
          .sort()
          .join(",");
  } catch {
    return body;
  }
}

describe("trailing-slash walk", () => {
  it("every route answers the same with and without a trailing slash", async () => {
    const routes = t.app.routeTable.filter((r) => r.url.startsWith("/api/"));
    const differences: string[] = [];
    const send = async (method: string, url: string, payload?: string) => {
      let res = await as(t.app, session, {
        method: method as "GET",
        url,
        payload,
        headers: payload === undefined ? {} : { "content-type": "application/json" },
      });
      if (res.statusCode === 401 && !url.includes("/auth/")) {
        session = await login(t.app, sup);
        res = await as(t.app, session, { method: method as "GET", url, payload });
      }
      return res;
    };
    let compared = 0;
    for (const route of routes) {
      // ids that exist nowhere; reads are compared whole, writes get a body no parser accepts so nothing changes
      const path = fillParams(route.url, (name) => (name === "key" ? "userRating" : "987654"));
      const isRead = route.method === "GET";
      const query = isRead ? "?searchParam=abc" : "";
      const payload = isRead ? undefined : "{bad";
      if (route.url.includes("/auth/")) continue; // login, refresh and logout change the session itself
      const plain = await send(route.method, `${path}${query}`, payload);
      const slashed = await send(route.method, `${path}/${query}`, payload);
      compared++;
      // the same route answers both: same status and, for a read, a body of the same shape (the rows
      // themselves may differ: other test files write to a shared database meanwhile)
      const same = plain.statusCode === slashed.statusCode && (!isRead || shapeOf(plain.body) === shapeOf(slashed.body));
      if (!same)
        differences.push(
          `${route.method} ${route.url}: ${plain.statusCode} without, ${slashed.statusCode} with (${slashed.body.slice(0, 120)})`,
        );
    }
    expect(compared).toBeGreaterThan(50);
    expect(differences).toEqual([]);
  });

  it("GET /users/?searchParam= reaches the users list", async () => {
    const res = await as(t.app, session, { method: "GET", url: `/api/v1/users/?searchParam=${encodeURIComponent(sup.name)}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().users.map((u: { id: number }) => u.id)).toContain(sup.id);
  });
});
