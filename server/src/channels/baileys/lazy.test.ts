import { describe, expect, it, vi } from "vitest";
import { SimulatorDriver } from "../simulator/driver.js";
import { lazyDriver } from "./lazy.js";

const done = async () => undefined;
const events = { message: done, ack: done, revoked: done, edited: done, status: done };

describe("the lazy WhatsApp Web driver", () => {
  it("builds the driver on the first call and hands every call on, whenIdle before it none", async () => {
    // a simulator stands in for Baileys: it has no requestNewQr, logout or whenIdle of its own
    const real = new SimulatorDriver({ companyId: 1, whatsappId: 1, events });
    const build = vi.fn(async () => real);
    const driver = lazyDriver(build);

    await driver.whenIdle?.();
    expect(build).not.toHaveBeenCalled();

    const connect = vi.spyOn(real, "connect");
    const disconnect = vi.spyOn(real, "disconnect");
    const shared = vi.spyOn(real, "sendShared");
    const share = { kind: "location", location: { latitude: 1, longitude: 2 } } as const;
    // a driver without requestNewQr connects instead, one without logout disconnects
    await driver.requestNewQr?.();
    expect(connect).toHaveBeenCalledTimes(1);
    const sent = await driver.sendShared("5215512340001", share, { messageId: "3EB0LAZY" });
    expect(sent.channelId).toBe("3EB0LAZY");
    expect(shared).toHaveBeenCalledWith("5215512340001", share, { messageId: "3EB0LAZY" });
    await driver.logout?.();
    expect(disconnect).toHaveBeenCalledTimes(1);
    expect(await driver.pairWithCode?.("5215512340001")).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(1);
    expect(driver.provider).toBe("beta");
  });
});
