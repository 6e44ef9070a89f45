import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type TestApp, getTestApp, openOwnTestDatabase } from "../test/app.js";
import { buildCompany, buildWhatsapp } from "../test/factories.js";
import type { Database } from "../db/client.js";
import type { Share } from "./driver.js";
import type { RemoteDriver } from "./remote.js";
import type { SimulatorDriver } from "./simulator/driver.js";

// Two nodes joined by Redis on one database, as a scaled-out install runs (here two apps in one
// process: two real processes are what e2e/session-leases.e2e.ts starts). A fresh clone has no
// Redis: the test waits for REDIS_URL, which .ci/run sets.
const redisUrl = process.env.REDIS_URL;

describe.runIf(redisUrl)("a session held by another node", () => {
  let database: Database;
  let holder: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    // the nodes claim leases on the whole database: one of the file's own keeps others' connections out
    database = await openOwnTestDatabase();
    holder = await getTestApp({ redisUrl }, database);
    other = await getTestApp({ redisUrl }, database);
  });
  afterAll(async () => {
    // the simulator's delivery receipts (up to 300 ms) land before the nodes' Redis clients close
    await new Promise((r) => setTimeout(r, 400));
    await other?.close();
    await holder?.close();
    await database?.close();
  });

  it("sends text, media, a location and a contact card through the node that holds it", async () => {
    const c = await buildCompany(holder.app);
    const w = await buildWhatsapp(holder.app, c.id, { provider: "simulator", status: "CONNECTED" });
    const session = (await holder.app.charla.sessions.driverFor(c.id, w.id)) as SimulatorDriver;
    expect(holder.app.charla.sessions.runningDriver(c.id, w.id)).toBe(session);
    const text = vi.spyOn(session, "sendText");
    const media = vi.spyOn(session, "sendMedia");
    const shared = vi.spyOn(session, "sendShared");

    // the other node holds no session of it: its driver is the way to the holder's
    const driver = await other.app.charla.sessions.driverFor(c.id, w.id);
    expect(other.app.charla.sessions.runningDriver(c.id, w.id)).toBeNull();
    if (!driver) throw new Error("no way to the session");

    const to = "5215512340001";
    const photo = { data: Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]), mimetype: "image/jpeg", fileName: "foto.jpg" };
    const location: Share = { kind: "location", location: { latitude: 19.4326, longitude: -99.1332, description: "Zócalo" } };
    const card: Share = {
      kind: "contact",
      name: "Lucía Fernández",
      vcard: "BEGIN:VCARD\nVERSION:3.0\nFN:Lucía Fernández\nTEL;type=CELL;waid=5215511110001:+5215511110001\nEND:VCARD",
    };

    const sent = [
      await driver.sendText(to, "Hola desde el otro nodo", { messageId: "3EB0REMOTE0001" }),
      await driver.sendMedia(to, { ...photo, caption: "La foto" }, { messageId: "3EB0REMOTE0002" }),
      await driver.sendShared(to, location, { messageId: "3EB0REMOTE0003" }),
      await driver.sendShared(to, card, { messageId: "3EB0REMOTE0004" }),
    ];

    // each went out under the id it was given, and its time came back a Date across the wire
    expect(sent.map((s) => s.channelId)).toEqual(["3EB0REMOTE0001", "3EB0REMOTE0002", "3EB0REMOTE0003", "3EB0REMOTE0004"]);
    for (const s of sent) expect(s.timestamp).toBeInstanceOf(Date);
    // and reached the holder's session as sent, the photo's bytes included
    expect(text).toHaveBeenCalledWith(to, "Hola desde el otro nodo", { messageId: "3EB0REMOTE0001" });
    expect(media).toHaveBeenCalledTimes(1);
    const [, got] = media.mock.calls[0];
    expect(Buffer.isBuffer(got.data) && got.data.equals(photo.data)).toBe(true);
    expect(got).toMatchObject({ mimetype: "image/jpeg", fileName: "foto.jpg", caption: "La foto" });
    expect(shared.mock.calls).toEqual([
      [to, location, { messageId: "3EB0REMOTE0003" }],
      [to, card, { messageId: "3EB0REMOTE0004" }],
    ]);
  });

  it("takes a simulated customer's message and read receipt on the node that holds the simulator", async () => {
    const c = await buildCompany(holder.app);
    const w = await buildWhatsapp(holder.app, c.id, { provider: "simulator", status: "CONNECTED" });
    const session = (await holder.app.charla.sessions.driverFor(c.id, w.id)) as SimulatorDriver;
    const receive = vi.spyOn(session, "receive");
    const read = vi.spyOn(session, "readReceipt");
    const driver = (await other.app.charla.sessions.driverFor(c.id, w.id)) as RemoteDriver;

    const inbound = { number: "5215512340002", name: "Cliente", body: "¿Tienen envío?", mediaType: "chat" as const };
    expect(await driver.receive({ ...inbound, channelId: "sim-in-remote-1" })).toBe("sim-in-remote-1");
    await driver.readReceipt(["3EB0REMOTE0001"]);
    expect(receive).toHaveBeenCalledWith({ ...inbound, channelId: "sim-in-remote-1" });
    expect(read).toHaveBeenCalledWith(["3EB0REMOTE0001"]);
  });
});
