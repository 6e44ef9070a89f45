import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import type { Config } from "../config.js";
import { AppError } from "./app-error.js";

/**
 * Addresses a company's integration must not reach when INTEGRATIONS_ALLOW_PRIVATE is off: this host,
 * private networks, link-local (cloud metadata), carrier-grade NAT, unspecified and multicast ranges.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** Whether an IP address (v4, v6 or v4-mapped v6) is one the outbound calls must not reach. */
export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return blocked.check(mapped[1], "ipv4");
  const family = isIP(plain);
  if (family === 4) return blocked.check(plain, "ipv4");
  if (family === 6) return blocked.check(plain, "ipv6");
  return true;
}

const notAllowed = () => new AppError("ERR_URL_NOT_ALLOWED");

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );
}

/**
 * The URL a company gave for an outbound call (webhook, n8n, typebot, an AI endpoint), checked before
 * it is saved and again before each call: http(s) only, and, unless config.integrationsAllowPrivate,
 * no name or address that leads to this host or a private network (every address the name resolves
 * to is checked). Refused with ERR_URL_NOT_ALLOWED; returns the parsed URL.
 */
export async function checkOutboundUrl(config: Pick<Config, "integrationsAllowPrivate">, url: string): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notAllowed();
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw notAllowed();
  if (parsed.username || parsed.password) throw notAllowed();
  if (config.integrationsAllowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!host || /^localhost$|\.localhost$/i.test(host)) throw notAllowed();
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw notAllowed();
    return parsed;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw notAllowed();
  }
  if (!addresses.length || addresses.some((a) => isPrivateAddress(a.address))) throw notAllowed();
  return parsed;
}

/**
 * A `lookup` for node's http(s) requests that refuses private addresses at connect time too, so a
 * name that resolved to a public address when checked and to a private one a moment later (DNS
 * rebinding) is still not reached. With private addresses allowed it is node's own lookup.
 */
export function outboundLookup(config: Pick<Config, "integrationsAllowPrivate">): LookupFunction {
  if (config.integrationsAllowPrivate) return dnsLookup as unknown as LookupFunction;
  return ((host: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(host, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as LookupAddress[];
      if (!list.length || list.some((a) => isPrivateAddress(a.address))) return callback(notAllowed());
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  }) as unknown as LookupFunction;
}
