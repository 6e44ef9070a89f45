import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../lib/app-error.js";

type RedisClient = {
  eval(script: string, opts: { keys: string[]; arguments: string[] }): Promise<unknown>;
  quit(): Promise<unknown>;
  on(event: "error", fn: (err: Error) => void): unknown;
  connect(): Promise<unknown>;
};
type Incr = (err: Error | null, res?: { current: number; ttl: number }) => void;

// one round trip: count the hit and start the window on the first one
const INCR = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/**
 * @fastify/rate-limit's own Redis store needs ioredis; Charla speaks node-redis (as the Socket.IO
 * adapter does), so this is the same counter on that client. Every node shares the counts.
 */
function nodeRedisStore(client: RedisClient) {
  return class NodeRedisStore {
    private readonly prefix = "charla:rl:";
    incr(key: string, cb: Incr, timeWindow: number) {
      client
        .eval(INCR, { keys: [this.prefix + key], arguments: [String(timeWindow)] })
        .then((r) => {
          const [current, ttl] = r as [number, number];
          cb(null, { current, ttl });
        })
        .catch((err: Error) => cb(err));
    }
    // every limit's keys are already distinct (`ip:…`, `user:…`), so children share the counter space
    child() {
      return this;
    }
  };
}

export type RateLimitOptions = { perIp: number; perUser: number; redisUrl: string | null; windowMs?: number };

type Check = ReturnType<FastifyInstance["createRateLimit"]>;

/** Counts the request against one limit; over it, 429 ERR_RATE_LIMITED with Retry-After. */
async function enforce(check: Check, req: FastifyRequest, reply: FastifyReply) {
  const r = await check(req);
  if (r.isAllowed) return;
  reply.header("x-ratelimit-limit", r.max).header("x-ratelimit-remaining", r.remaining);
  if (r.isExceeded) {
    reply.header("retry-after", Math.max(1, r.ttlInSeconds));
    throw new AppError("ERR_RATE_LIMITED");
  }
}

const isApi = (req: FastifyRequest) => req.url.startsWith("/api/");

/**
 * Meta's Cloud API webhook POSTs come from a few addresses at the pace of a connection's traffic (each
 * message sent brings up to three statuses, a campaign thousands a minute), signed and answered after
 * one insert: counted apart, under a bound this many times the API's, so a busy number is not held
 * back with 429s while a flood still meets a limit.
 */
export const WEBHOOK_PATH = "/api/whatsapp-cloud/webhook/";
export const WEBHOOK_IP_FACTOR = 20;

/**
 * API rate limits: per address before authentication (so floods never reach token checks or the
 * database) and per user after it (one account cannot starve the others behind a shared address).
 * Counts live in Redis when REDIS_URL is set, so every node enforces one limit; otherwise in this
 * process. A Redis outage lets requests through rather than taking the API down.
 *
 * Register before the auth plugin (the per-address hook must run first); the per-user check is
 * `app.rateLimitPerUser`, hooked once the auth plugin has set `req.ctx`.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  let store: ReturnType<typeof nodeRedisStore> | undefined;
  if (opts.redisUrl) {
    const { createClient } = await import("redis");
    const client = createClient({ url: opts.redisUrl }) as unknown as RedisClient;
    client.on("error", (err) => app.log.error({ err: err.message }, "redis rate limit"));
    await client.connect();
    store = nodeRedisStore(client);
    app.addHook("onClose", async () => {
      await client.quit().catch(() => undefined);
    });
  }
  await app.register(rateLimit, { global: false, store, skipOnError: true, timeWindow: opts.windowMs ?? 60_000 });
  const perIp: Check = app.createRateLimit({ max: opts.perIp, keyGenerator: (req) => `ip:${req.ip}` });
  const perUser: Check = app.createRateLimit({ max: opts.perUser, keyGenerator: (req) => `user:${req.ctx.user.id}` });
  const perWebhookIp: Check = app.createRateLimit({
    max: opts.perIp * WEBHOOK_IP_FACTOR,
    keyGenerator: (req) => `hook:${req.ip}`,
  });
  app.addHook("onRequest", async (req, reply) => {
    if (req.url.startsWith(WEBHOOK_PATH)) await enforce(perWebhookIp, req, reply);
    else if (isApi(req)) await enforce(perIp, req, reply);
  });
  app.decorate("rateLimitPerUser", async (req: FastifyRequest, reply: FastifyReply) => {
    if (isApi(req) && req.ctx?.user) await enforce(perUser, req, reply);
  });
});

declare module "fastify" {
  interface FastifyInstance {
    /** The per-user limit: an onRequest hook added after the auth plugin, so the user is known. */
    rateLimitPerUser: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}
