import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { companies } from "../../db/schema/index.js";
import { caller } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { listeningTestApp } from "../../test/sockets.js";

const t = listeningTestApp();
const open = t.open;

const call = caller(() => t.app);

/** Resolves with the reason once the server ends the socket, or "still connected" after `ms`. */
function ended(s: Socket, ms = 1500): Promise<string> {
  return new Promise((resolve) => {
    if (!s.connected) return resolve("already disconnected");
    const timer = setTimeout(() => resolve("still connected"), ms);
    s.once("disconnect", (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/** A company with an agent, its admin and a super user of its own, each with an open socket; and a bystander company. */
async function world() {
  const w = await scenario(t.app, { connection: false, agents: { agent: {}, sup: { profile: "admin", super: true } } });
  const other = await scenario(t.app, { connection: false });
  const [agentSocket, adminSocket, superSocket, otherSocket] = await Promise.all(
    [w.as.agent, w.admin, w.as.sup, other.admin].map(open),
  );
  return { ...w, agentSocket, adminSocket, superSocket, otherSocket };
}

describe("#companies open sockets", () => {
  it("a deactivated company's sockets are ended at once and cannot come back; its super users and other companies stay", async () => {
    const w = await world();
    const [agentEnd, adminEnd, superEnd, otherEnd] = [w.agentSocket, w.adminSocket, w.superSocket, w.otherSocket].map((s) =>
      ended(s),
    );
    const res = await call(w.as.sup, "PUT", `/companies/${w.companyId}`, { status: false });
    expect(res.statusCode).toBe(200);
    expect(await agentEnd).toBe("io server disconnect");
    expect(await adminEnd).toBe("io server disconnect");
    expect(await superEnd).toBe("still connected");
    expect(await otherEnd).toBe("still connected");
    await expect(open(w.as.agent)).rejects.toThrow(/ERR_COMPANY_INACTIVE/);

    // the ones left still get the company's events
    const got = new Promise((resolve) => w.superSocket.once(Events.user(w.companyId), resolve));
    t.app.charla.realtime.toCompany(w.companyId).emit(Events.user(w.companyId), { action: "delete", userId: 0 });
    expect(await got).toEqual({ action: "delete", userId: 0 });
  });

  it("a due date set in the past ends them too", async () => {
    const w = await world();
    const agentEnd = ended(w.agentSocket);
    const res = await call(w.as.sup, "PUT", `/companies/${w.companyId}`, { dueDate: "2001-01-01" });
    expect(res.statusCode).toBe(200);
    expect(await agentEnd).toBe("io server disconnect");
    expect(w.superSocket.connected).toBe(true);
    await expect(open(w.as.agent)).rejects.toThrow(/ERR_SUBSCRIPTION_EXPIRED/);
  });

  it("a due date that passes while connected ends them at the next sweep; usable companies are left alone", async () => {
    const w = await world();
    expect(await t.app.charla.realtime.sweepCompanies()).toBe(0);
    expect(w.agentSocket.connected).toBe(true);
    // midnight passed: yesterday was the last day (nothing but the clock changed, no request was made)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await t.app.charla.db.update(companies).set({ dueDate: yesterday }).where(eq(companies.id, w.companyId));
    const [agentEnd, adminEnd, superEnd, otherEnd] = [w.agentSocket, w.adminSocket, w.superSocket, w.otherSocket].map((s) =>
      ended(s),
    );
    expect(await t.app.charla.realtime.sweepCompanies()).toBe(2);
    expect(await agentEnd).toBe("io server disconnect");
    expect(await adminEnd).toBe("io server disconnect");
    expect(await superEnd).toBe("still connected");
    expect(await otherEnd).toBe("still connected");
  });
});
