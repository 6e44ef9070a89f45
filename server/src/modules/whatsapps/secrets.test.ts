import { Events } from "@charla/contracts";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { buildCompany, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { caller } from "../../test/http.js";
import { listeningTestApp } from "../../test/sockets.js";

// the test-mode phone of beta connections shows a real QR code (charla-demo-qr-…) before it connects
const t = listeningTestApp({ fakeWhatsapp: true });
const open = t.open;

const call = caller(() => t.app);

/** Every payload of `event` the socket receives from now on. */
function record(s: Socket, event: string): unknown[] {
  const got: unknown[] = [];
  s.on(event, (payload) => got.push(payload));
  return got;
}

describe("#connections secrets (QR code and token)", () => {
  it("are given only to staff who may manage connections, in answers and in live events", async () => {
    const c = await buildCompany(t.app, { plan: { connections: 5 } });
    const [admin, sub, agent] = await Promise.all([
      login(t.app, c.admin),
      login(t.app, await buildUser(t.app, c.id, { profile: "subadmin" })),
      login(t.app, await buildUser(t.app, c.id, { profile: "user" })),
    ]);
    const stored = await buildWhatsapp(t.app, c.id, { qrcode: "qr-secreto", token: "dG9rZW4=", status: "qrcode" });

    for (const s of [admin, sub]) {
      const listed = (await call(s, "GET", "/whatsapp")).json();
      expect(listed).toEqual([expect.objectContaining({ id: stored.id, qrcode: "qr-secreto", token: "dG9rZW4=" })]);
      expect((await call(s, "GET", `/whatsapp/${stored.id}?session=0`)).json()).toMatchObject({ qrcode: "qr-secreto" });
    }
    const listed = (await call(agent, "GET", "/whatsapp")).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: stored.id, name: stored.name, status: "qrcode" });
    expect(listed[0]).not.toHaveProperty("qrcode");
    expect(listed[0]).not.toHaveProperty("token");
    const one = await call(agent, "GET", `/whatsapp/${stored.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty("qrcode");
    expect(one.json()).not.toHaveProperty("token");
    expect(one.body).not.toContain("qr-secreto");

    // live: a beta connection starts, shows its QR code, then connects
    const [adminSocket, agentSocket] = await Promise.all([open(admin), open(agent)]);
    const adminSessions = record(adminSocket, Events.whatsappSession(c.id));
    const agentSessions = record(agentSocket, Events.whatsappSession(c.id));
    const adminConnections = record(adminSocket, Events.whatsapp(c.id));
    const agentConnections = record(agentSocket, Events.whatsapp(c.id));
    const created = await call(admin, "POST", "/whatsapp", { name: "Real", number: "5491155551234" });
    expect(created.statusCode).toBe(201);
    const wa = created.json();
    await call(admin, "POST", `/whatsappsession/${wa.id}`);
    const qrOf = (events: unknown[]) =>
      (events as { session: { id: number; status: string; qrcode?: string } }[]).find(
        (e) => e.session.id === wa.id && e.session.status === "qrcode",
      )?.session;
    await expect.poll(() => qrOf(adminSessions)?.qrcode).toMatch(/^charla-demo-qr-/);
    await expect.poll(() => qrOf(agentSessions)).toBeDefined();
    expect(qrOf(agentSessions)).not.toHaveProperty("qrcode");
    expect(JSON.stringify(agentSessions)).not.toContain("charla-demo-qr-");

    await expect.poll(() => adminConnections.length).toBeGreaterThan(0);
    await expect.poll(() => agentConnections.length).toBe(adminConnections.length);
    expect(adminConnections[0]).toMatchObject({ action: "update", whatsapp: { id: wa.id, token: expect.any(String) } });
    expect((agentConnections[0] as { whatsapp: object }).whatsapp).toMatchObject({ id: wa.id, name: "Real" });
    expect((agentConnections[0] as { whatsapp: object }).whatsapp).not.toHaveProperty("token");
    expect((agentConnections[0] as { whatsapp: object }).whatsapp).not.toHaveProperty("qrcode");
    await call(admin, "DELETE", `/whatsappsession/${wa.id}`);
  });
});
