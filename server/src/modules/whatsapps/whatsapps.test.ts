import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChannelDriver, registerDriver } from "../../channels/driver.js";
import { Sessions } from "../../channels/sessions.js";
import { channelInbox } from "../../pipeline/channel-inbox.js";
import { SimulatorDriver } from "../../channels/simulator/driver.js";
import { plans, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { as, buildCompany, buildQueue, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const form = (over: object = {}) => ({ name: "Ventas", number: "+52 1 55 1234 5678", ...over });

async function world(connections = 5) {
  const c = await buildCompany(t.app, { plan: { connections } });
  return { c, s: await login(t.app, c.admin) };
}

describe("#connections", () => {
  it("creates with the spec's defaults; the first one is the default; the number is kept as a base64 token", async () => {
    const { s } = await world();
    const res = await call(s, "POST", "/whatsapp", form());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: "Ventas",
      provider: "beta",
      status: "DISCONNECTED",
      isDefault: true,
      maxUseBotQueues: 3,
      timeSendQueue: 0,
      sendIdQueue: null,
      expiresTicket: 0,
      timeUseBotQueues: 0,
      number: "5215512345678",
      token: Buffer.from("5215512345678").toString("base64"),
    });
    expectError(await call(s, "POST", "/whatsapp", form({ name: "x" })), 400, "ERR_VALIDATION");
    expectError(await call(s, "POST", "/whatsapp", form({ number: "" })), 400, "ERR_VALIDATION");
  });

  it("starts a new simulator connection at once: it answers CONNECTED and takes a customer's message (issue 26)", async () => {
    const { s } = await world();
    const res = await call(s, "POST", "/whatsapp", form({ name: "Demo", provider: "simulator" }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: "Demo", provider: "simulator", status: "CONNECTED" });
    expect((await call(s, "GET", `/whatsapp/${res.json().id}`)).json().status).toBe("CONNECTED");
    const inbound = await call(s, "POST", `/simulator/${res.json().id}/inbound`, { number: "5215511112222", body: "Hola" });
    expect(inbound.statusCode).toBe(201);
  });

  it("a new simulator connection that fails to start is still answered 201, saved and not started", async () => {
    const { s } = await world();
    const sessions = t.app.charla.sessions;
    const original = sessions.restart;
    sessions.restart = async () => {
      throw new Error("database went away");
    };
    let res: Awaited<ReturnType<typeof call>>;
    try {
      res = await call(s, "POST", "/whatsapp", form({ name: "Sin arrancar", provider: "simulator" }));
    } finally {
      sessions.restart = original;
    }
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: "Sin arrancar", provider: "simulator", status: "DISCONNECTED" });
    const list = (await call(s, "GET", "/whatsapp")).json() as { name: string }[];
    expect(list.filter((w) => w.name === "Sin arrancar")).toHaveLength(1);
  });

  it("keeps exactly one default per company", async () => {
    const { s } = await world();
    const a = (await call(s, "POST", "/whatsapp", form({ name: "Uno" }))).json();
    const b = (await call(s, "POST", "/whatsapp", form({ name: "Dos", isDefault: true }))).json();
    const list = (await call(s, "GET", "/whatsapp")).json() as { id: number; isDefault: boolean }[];
    expect(list.filter((w) => w.isDefault).map((w) => w.id)).toEqual([b.id]);
    expectError(await call(s, "PUT", `/whatsapp/${b.id}`, form({ name: "Dos", isDefault: false })), 400, "ERR_NO_OTHER_WHATSAPP");
    // deleting the default hands the role on
    expect((await call(s, "DELETE", `/whatsapp/${b.id}`)).statusCode).toBe(204);
    expect((await call(s, "GET", `/whatsapp/${a.id}`)).json().isDefault).toBe(true);
  });

  it("requires a greeting with more than one queue, and queues of the company", async () => {
    const { c, s } = await world();
    const q1 = await buildQueue(t.app, c.id);
    const q2 = await buildQueue(t.app, c.id);
    expectError(await call(s, "POST", "/whatsapp", form({ queueIds: [q1.id, q2.id] })), 400, "ERR_WAPP_GREETING_REQUIRED");
    const ok = await call(s, "POST", "/whatsapp", form({ queueIds: [q1.id, q2.id], greetingMessage: "¡Hola! Elija un área:" }));
    expect(
      ok
        .json()
        .queues.map((q: { id: number }) => q.id)
        .sort(),
    ).toEqual([q1.id, q2.id].sort());
    const foreign = await buildQueue(t.app, (await buildCompany(t.app)).id);
    expectError(await call(s, "POST", "/whatsapp", form({ queueIds: [foreign.id] })), 404, "ERR_NO_QUEUE_FOUND");
  });

  it("stops at the plan's connection limit; agents may list but not manage", async () => {
    const { c, s } = await world(1);
    await call(s, "POST", "/whatsapp", form());
    expectError(await call(s, "POST", "/whatsapp", form({ name: "Otra" })), 403, "ERR_CONNECTION_LIMIT_REACHED");
    await t.app.charla.db.update(plans).set({ connections: 5 }).where(eq(plans.id, c.planId));
    const agent = await login(t.app, await buildUser(t.app, c.id));
    expect((await call(agent, "GET", "/whatsapp")).statusCode).toBe(200);
    expectError(await call(agent, "POST", "/whatsapp", form()), 403, "ERR_NO_PERMISSION");
    const [wa] = (await call(s, "GET", "/whatsapp")).json();
    expectError(await call(agent, "DELETE", `/whatsappsession/${wa.id}`), 403, "ERR_NO_PERMISSION");
  });

  it("runs the session buttons on a simulator connection, with live session updates", async () => {
    const { c, s } = await world();
    const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator" });
    const events: { status: string }[] = [];
    // session events go whole to the staff who manage connections, stripped to everyone else
    const original = t.app.charla.realtime.toUsers;
    t.app.charla.realtime.toUsers = (companyId, userIds) => ({
      emit: (event: string, payload: unknown) => {
        if (event === Events.whatsappSession(companyId) && userIds.includes(c.admin.id))
          events.push((payload as { session: { status: string } }).session);
      },
    });
    try {
      expect((await call(s, "POST", `/whatsappsession/${wa.id}`)).json()).toMatchObject({ status: "CONNECTED" });
      expect((await call(s, "DELETE", `/whatsappsession/${wa.id}`)).json()).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
      expect((await call(s, "PUT", `/whatsappsession/${wa.id}`)).json()).toMatchObject({ status: "CONNECTED" });
    } finally {
      t.app.charla.realtime.toUsers = original;
    }
    expect(events.map((e) => e.status)).toEqual(expect.arrayContaining(["CONNECTED", "DISCONNECTED"]));
    const other = await world();
    expectError(await call(other.s, "POST", `/whatsappsession/${wa.id}`), 404, "ERR_NO_WAPP_FOUND");
  });

  it("shows why a session stopped by itself, live and in the API, until its next status", async () => {
    const { c, s } = await world();
    const provider = `reason-${Date.now()}`;
    let replaced = true;
    registerDriver(provider, (ctx) => {
      const driver = new SimulatorDriver(ctx);
      const connect = driver.connect.bind(driver);
      // the first start ends as a replaced WhatsApp Web session would; Retry connects
      driver.connect = async () => {
        if (!replaced) return connect();
        replaced = false;
        await ctx.events.status("DISCONNECTED", { reason: "REPLACED" });
      };
      return driver;
    });
    const wa = await buildWhatsapp(t.app, c.id, { provider });
    const events: { status: string; statusReason: string }[] = [];
    const original = t.app.charla.realtime.toUsers.bind(t.app.charla.realtime);
    t.app.charla.realtime.toUsers = ((companyId: number, ids: number[]) => {
      const room = original(companyId, ids);
      return {
        emit: (event: string, payload: { session?: { status: string; statusReason: string } }) => {
          if (event === Events.whatsappSession(c.id) && payload.session) events.push(payload.session);
          return room.emit(event, payload);
        },
      } as unknown as ReturnType<typeof original>;
    }) as typeof t.app.charla.realtime.toUsers;
    try {
      await call(s, "POST", `/whatsappsession/${wa.id}`);
      await expect.poll(async () => (await call(s, "GET", `/whatsapp/${wa.id}`)).json().statusReason).toBe("REPLACED");
      expect((await call(s, "GET", "/whatsapp")).json()).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: wa.id, status: "DISCONNECTED", statusReason: "REPLACED" })]),
      );
      expect(events).toContainEqual(expect.objectContaining({ status: "DISCONNECTED", statusReason: "REPLACED" }));
      // Retry: the next status clears it
      expect((await call(s, "PUT", `/whatsappsession/${wa.id}`)).json()).toMatchObject({ status: "CONNECTED", statusReason: "" });
      expect(events.at(-1)).toMatchObject({ status: "CONNECTED", statusReason: "" });
    } finally {
      t.app.charla.realtime.toUsers = original;
      await t.app.charla.sessions.stop(wa.id).catch(() => undefined);
    }
  });

  it("shutdown waits for the events a driver already received before the database closes", async () => {
    const { c } = await world();
    const provider = `drain-${Date.now()}`;
    let stored = false;
    registerDriver(provider, (ctx) => {
      const driver: ChannelDriver = new SimulatorDriver(ctx);
      // an event still being stored when shutdown begins
      driver.whenIdle = () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            stored = true;
            resolve();
          }, 150),
        );
      return driver;
    });
    await buildWhatsapp(t.app, c.id, { provider, status: "CONNECTED" });
    const sessions = new Sessions(t.app.charla, channelInbox(t.app.charla), { providers: () => [provider] });
    expect(await sessions.resumeAll()).toBe(1);
    const [id] = await whatsappsOf(c.id, provider);
    await expect.poll(async () => sessions.runningDriver(c.id, id) !== null).toBe(true);
    await sessions.stopAll();
    expect(stored).toBe(true);
  });

  it("links a WhatsApp Web (beta) connection by a code typed on the phone (test-mode phone)", async () => {
    const app = await getTestApp({ fakeWhatsapp: true });
    try {
      const c = await buildCompany(app.app);
      const s = await login(app.app, c.admin);
      const wa = (
        await as(app.app, s, { method: "POST", url: "/api/v1/whatsapp", payload: form({ name: "Por código" }) })
      ).json();
      const pair = (payload: object) =>
        as(app.app, s, { method: "POST", url: `/api/v1/whatsappsession/${wa.id}/pairing-code`, payload });
      expectError(await pair({ number: "12" }), 400, "ERR_VALIDATION");
      // the connection's own number by default
      expect((await pair({})).statusCode).toBe(200);
      const status = async () => (await as(app.app, s, { method: "GET", url: `/api/v1/whatsapp/${wa.id}` })).json();
      await expect.poll(async () => (await status()).status).toBe("PAIRING");
      expect((await status()).qrcode).toBe("CHRL2468");
      await expect.poll(async () => (await status()).status).toBe("CONNECTED");
      expect((await status()).qrcode).toBe("");
      // another company's connection, and an agent: refused
      const other = await buildCompany(app.app);
      const so = await login(app.app, other.admin);
      expectError(
        await as(app.app, so, { method: "POST", url: `/api/v1/whatsappsession/${wa.id}/pairing-code`, payload: {} }),
        404,
        "ERR_NO_WAPP_FOUND",
      );
      const agent = await buildUser(app.app, c.id);
      const sa = await login(app.app, agent);
      expectError(
        await as(app.app, sa, { method: "POST", url: `/api/v1/whatsappsession/${wa.id}/pairing-code`, payload: {} }),
        403,
        "ERR_NO_PERMISSION",
      );
    } finally {
      await app.close();
    }
  });

  it("resumes running sessions at start and keeps their status through a shutdown", async () => {
    const { c } = await world();
    // a provider of this test's own: connections of other test files sharing the database stay out
    const provider = `resume-${Date.now()}`;
    registerDriver(provider, (ctx) => new SimulatorDriver(ctx));
    const running = await buildWhatsapp(t.app, c.id, { provider, status: "CONNECTED" });
    const stopped = await buildWhatsapp(t.app, c.id, { provider, status: "DISCONNECTED" });
    const sessions = new Sessions(t.app.charla, channelInbox(t.app.charla), { providers: () => [provider] });
    expect(await sessions.resumeAll()).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => sessions.runningDriver(c.id, running.id)?.provider).toBe("simulator");
    expect(sessions.runningDriver(c.id, stopped.id)).toBeNull();
    await sessions.stopAll();
    const [after] = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, running.id));
    expect(after.status).toBe("CONNECTED");
    const [untouched] = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, stopped.id));
    expect(untouched.status).toBe("DISCONNECTED");
  });

  it("starts a WhatsApp Web (beta) session: QR, then CONNECTED with the phone's number (test-mode phone)", async () => {
    const app = await getTestApp({ fakeWhatsapp: true });
    try {
      const c = await buildCompany(app.app);
      const s = await login(app.app, c.admin);
      const wa = (await as(app.app, s, { method: "POST", url: "/api/v1/whatsapp", payload: form({ name: "Real" }) })).json();
      expect(wa.provider).toBe("beta");
      await as(app.app, s, { method: "POST", url: `/api/v1/whatsappsession/${wa.id}` });
      const status = async () => (await as(app.app, s, { method: "GET", url: `/api/v1/whatsapp/${wa.id}` })).json();
      await expect.poll(async () => (await status()).status).toBe("qrcode");
      expect((await status()).qrcode).toMatch(/^charla-demo-qr-/);
      await expect.poll(async () => (await status()).status).toBe("CONNECTED");
      expect((await status()).qrcode).toBe("");
    } finally {
      await app.close();
    }
  });
});

async function whatsappsOf(companyId: number, provider: string): Promise<number[]> {
  const rows = await t.app.charla.db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId, provider: whatsapps.provider })
    .from(whatsapps);
  return rows.filter((r) => r.companyId === companyId && r.provider === provider).map((r) => r.id);
}
