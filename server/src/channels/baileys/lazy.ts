import type { BaileysHost } from "../baileys-deps.js";
import { type ChannelDriver, DRIVER_METHODS, type DriverContext, type DriverFactory } from "../driver.js";
import { forwardingDriver, methodOf } from "../forwarding.js";

type Load = (ctx: DriverContext) => Promise<ChannelDriver>;

/**
 * Provider "beta" with Baileys loaded by the first session that runs, not at start: the library alone
 * holds ~64 MB, which a process with no WhatsApp Web session to run (an API node of a scaled-out
 * install, whose sessions are leased elsewhere; a demo on the simulator) never needs.
 */
export function lazyBaileysFactory(s: BaileysHost): DriverFactory {
  let factory: Promise<DriverFactory> | null = null;
  const load: Load = async (ctx) => {
    factory ??= Promise.all([import("./driver.js"), import("../baileys-deps.js")]).then(([driver, deps]) =>
      driver.baileysFactory(deps.baileysDeps(s)),
    );
    return (await factory)(ctx);
  };
  return (ctx) => lazyDriver(() => load(ctx));
}

/** Forwards every call (DRIVER_METHODS) to the driver, built on the first one. */
export function lazyDriver(build: () => Promise<ChannelDriver>): ChannelDriver {
  let driver: Promise<ChannelDriver> | null = null;
  return forwardingDriver<ChannelDriver>("beta", DRIVER_METHODS, async (method, spec, args) => {
    if (spec.unbuilt === "skip" && !driver) return undefined;
    driver ??= build();
    const d = await driver;
    const call = methodOf(d, method) ?? (spec.otherwise ? methodOf(d, spec.otherwise) : undefined);
    return call?.(...args);
  });
}
