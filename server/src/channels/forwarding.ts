import type { ChannelDriver, MethodSpec } from "./driver.js";

type Call = (...args: unknown[]) => Promise<unknown>;

/** The driver's own method of that name, bound to it; undefined when it has none (an optional method). */
export function methodOf(driver: object, name: string): Call | undefined {
  const fn = (driver as Record<string, unknown>)[name];
  return typeof fn === "function" ? (...args) => fn.apply(driver, args) : undefined;
}

/**
 * A driver each of whose methods hands its name, its entry of `methods` and its arguments to
 * `forward`: the lazy loader's and the proxy of a session another process holds. `methods` must name
 * every method of T (DRIVER_METHODS, and a driver's own extras), so the forwarder has them all.
 */
export function forwardingDriver<T extends ChannelDriver>(
  provider: string,
  methods: { readonly [M in Exclude<keyof T, "provider">]-?: MethodSpec },
  forward: (method: string, spec: MethodSpec, args: unknown[]) => Promise<unknown>,
): T {
  const driver: Record<string, unknown> = { provider };
  for (const [method, spec] of Object.entries<MethodSpec>(methods)) {
    driver[method] = (...args: unknown[]) => forward(method, spec, args);
  }
  return driver as T;
}
