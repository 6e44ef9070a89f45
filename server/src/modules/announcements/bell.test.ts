import { type AnnouncementEvent, type AnnouncementsForMe, type AnnouncementView, Events } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { announcementReads } from "../../db/schema/index.js";
import { buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { listeningTestApp } from "../../test/sockets.js";

/*
 * The top bar's bell (core §1, secondary §2): every user of every company reads the active
 * announcements, highest priority first, with the count of those they have not read. The test
 * database is shared with other files, which may add announcements of their own: assertions look at
 * this file's ids, and at the count against the same answer's records.
 */
const t = listeningTestApp();
const call = caller(() => t.app);

async function superSession() {
  const c = await buildCompany(t.app);
  const u = await buildUser(t.app, c.id, { profile: "admin", super: true });
  return { c, s: await login(t.app, u) };
}
async function userOf(companyId: number) {
  const u = await buildUser(t.app, companyId, { profile: "user" });
  return { u, s: await login(t.app, u) };
}
const create = async (s: Session, over: Record<string, unknown> = {}) => {
  const res = await call(s, "POST", "/announcements", { title: `Aviso ${uid()}`, text: "Hola a todos", ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AnnouncementView;
};
const bell = async (s: Session) => {
  const res = await call(s, "GET", "/announcements/for-me");
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as AnnouncementsForMe;
  // the count and the list come from one statement: they agree
  expect(body.unread).toBe(body.records.filter((r) => !r.read).length);
  return body;
};
const mine = (b: AnnouncementsForMe, ids: number[]) => b.records.filter((r) => ids.includes(r.id));

/** The next `company-{id}-announcement` this socket hears, or null after `ms`. */
function next(socket: Socket, companyId: number, ms = 3000): Promise<AnnouncementEvent | null> {
  return new Promise((resolve) => {
    const name = Events.announcement(companyId);
    const timer = setTimeout(() => {
      socket.off(name, on);
      resolve(null);
    }, ms);
    const on = (payload: AnnouncementEvent) => {
      clearTimeout(timer);
      socket.off(name, on);
      resolve(payload);
    };
    socket.on(name, on);
  });
}

describe("#announcements bell", () => {
  it("lists the active ones of any company's writer, highest priority first; reads are per user", async () => {
    const { s: sup } = await superSession();
    const c = await buildCompany(t.app);
    const [ana, bea] = [await userOf(c.id), await userOf(c.id)];
    const low = await create(sup, { priority: 3 });
    const high = await create(sup, { priority: 1 });
    const mid = await create(sup, { priority: "2" });
    const off = await create(sup, { priority: 1, status: false });
    const ids = [low.id, high.id, mid.id, off.id];

    const first = await bell(ana.s);
    expect(mine(first, ids).map((r) => [r.id, r.read])).toEqual([
      [high.id, false],
      [mid.id, false],
      [low.id, false],
    ]);
    expect(first.records.map((r) => r.priority)).toEqual([...first.records.map((r) => r.priority)].sort());
    expect(mine(first, ids)[0]).toEqual({ ...high, read: false });

    expect((await call(ana.s, "POST", `/announcements/${high.id}/read`)).statusCode).toBe(204);
    // reading twice is once
    expect((await call(ana.s, "POST", `/announcements/${high.id}/read`)).statusCode).toBe(204);
    const after = await bell(ana.s);
    expect(mine(after, ids).map((r) => [r.id, r.read])).toEqual([
      [high.id, true],
      [mid.id, false],
      [low.id, false],
    ]);
    expect(mine(await bell(bea.s), ids).every((r) => !r.read)).toBe(true);
    const rows = await t.app.charla.db
      .select()
      .from(announcementReads)
      .where(and(eq(announcementReads.announcementId, high.id), eq(announcementReads.userId, ana.u.id)));
    expect(rows).toMatchObject([{ companyId: c.id }]);

    // an inactive or missing one cannot be marked read, by anyone
    expectError(await call(ana.s, "POST", `/announcements/${off.id}/read`), 404, "ERR_NOT_FOUND");
    expectError(await call(ana.s, "POST", "/announcements/987654/read"), 404, "ERR_NOT_FOUND");
    expectError(await call(sup, "POST", `/announcements/${off.id}/read`), 404, "ERR_NOT_FOUND");

    // made inactive: it leaves every bell; deleted: its reads go with it
    await call(sup, "PUT", `/announcements/${mid.id}`, { title: mid.title, text: mid.text, status: false });
    expect(mine(await bell(bea.s), ids).map((r) => r.id)).toEqual([high.id, low.id]);
    await call(sup, "DELETE", `/announcements/${high.id}`);
    expect(mine(await bell(ana.s), ids).map((r) => r.id)).toEqual([low.id]);
    expect(await t.app.charla.db.select().from(announcementReads).where(eq(announcementReads.announcementId, high.id))).toEqual(
      [],
    );
  });

  it("is the same platform-wide list for users of unrelated companies", async () => {
    const { s: sup } = await superSession();
    const a = await create(sup, { priority: 2 });
    const [x, y] = [await buildCompany(t.app), await buildCompany(t.app)];
    const [ux, uy] = [await userOf(x.id), await userOf(y.id)];
    expect(mine(await bell(ux.s), [a.id])).toEqual([{ ...a, read: false }]);
    expect(mine(await bell(uy.s), [a.id])).toEqual([{ ...a, read: false }]);
    await call(ux.s, "POST", `/announcements/${a.id}/read`);
    expect(mine(await bell(ux.s), [a.id])[0].read).toBe(true);
    expect(mine(await bell(uy.s), [a.id])[0].read).toBe(false);
  });

  it("a live event reaches the sockets of every company, not only the writer's", async () => {
    const { c: home, s: sup } = await superSession();
    const far = await buildCompany(t.app);
    const farUser = await userOf(far.id);
    const farAdmin = await login(t.app, far.admin);
    const [homeSocket, farSocket, farUserSocket] = await Promise.all([sup, farAdmin, farUser.s].map((x) => t.open(x)));
    const heard = [next(homeSocket, home.id), next(farSocket, far.id), next(farUserSocket, far.id)];
    const view = await create(sup, { title: `En vivo ${uid()}` });
    for (const event of await Promise.all(heard)) expect(event).toEqual({ action: "create", record: view });

    // another company's channel name is not heard by this one's sockets
    const foreign = next(farSocket, home.id, 800);
    const deleted = next(farUserSocket, far.id);
    expect((await call(sup, "DELETE", `/announcements/${view.id}`)).statusCode).toBe(204);
    expect(await deleted).toEqual({ action: "delete", id: view.id });
    expect(await foreign).toBeNull();
  });
});
