import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { inboundMessages } from "../../channels/cloud/receive.js";
import { verifySignature } from "../../channels/cloud/signature.js";
import type { Services } from "../../context.js";
import { whatsapps } from "../../db/schema/index.js";
import { cloudWebhookJob } from "../../jobs/durable/cloud-webhook.js";
import { enqueue } from "../../jobs/durable/enqueue.js";
import { runJobNow } from "../../jobs/durable/run.js";
import { AppError } from "../../lib/app-error.js";
import { KeyedQueue } from "../../lib/keyed-queue.js";

/** Meta batches updates into one POST, each a few hundred bytes; far beyond any real one. */
export const CLOUD_WEBHOOK_BODY_LIMIT = 3 * 1024 * 1024;
/** Meta's challenge is a short number; an echo is bounded all the same. */
const CHALLENGE_MAX = 200;

const Params = z.object({ key: z.string().min(1).max(200) });
const VerifyQuery = z.object({
  "hub.mode": z.string().max(50).optional(),
  "hub.verify_token": z.string().max(2_000).optional(),
  "hub.challenge": z.string().max(CHALLENGE_MAX).optional(),
});

type Connection = { id: number; companyId: number; appSecretSealed: string; verifyTokenSealed: string };

/** The Cloud API connection whose webhook URL carries this key; null for any other key. */
async function connectionOf(s: Services, key: string): Promise<Connection | null> {
  const [row] = await s.db
    .select({
      id: whatsapps.id,
      companyId: whatsapps.companyId,
      appSecretSealed: whatsapps.cloudAppSecretSealed,
      verifyTokenSealed: whatsapps.cloudVerifyTokenSealed,
    })
    .from(whatsapps)
    .where(and(eq(whatsapps.cloudWebhookKey, key), eq(whatsapps.provider, "cloud")))
    .limit(1);
  return row ?? null;
}

/** A sealed secret opened; "" when there is none or it cannot be opened (the install's key changed: logged). */
function opened(s: Services, req: FastifyRequest, sealed: string, what: string, whatsappId: number): string {
  try {
    return s.secrets.open(sealed);
  } catch (err) {
    req.log.error({ whatsappId, what, err: (err as Error).message }, "whatsapp cloud secret cannot be opened");
    return "";
  }
}

const sameText = (a: string, b: string) => {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
};

const param = (req: FastifyRequest) => Params.safeParse(req.params);

/**
 * Meta's webhook for Cloud API connections (issue 31), public, outside /api/v1: its URL is the
 * connection's (`/api/whatsapp-cloud/webhook/{key}`, the key random and unique, shown on the
 * connection). GET answers Meta's verification: `hub.mode=subscribe` with the connection's verify
 * token echoes `hub.challenge` as text; anything else is 403 ERR_CLOUD_VERIFY_TOKEN. POST takes an
 * event only with a valid `X-Hub-Signature-256` over the raw body under the connection's app secret
 * (unsigned or forged: 401 ERR_CLOUD_SIGNATURE, logged); then writes it as ONE job row — keyed by the
 * body's SHA-256, so Meta's retry of the same body adds nothing — and answers 200 at once. The row is
 * processed right after on this node (cloud-webhook.ts), or by any node's runner after a crash.
 */
export async function cloudWebhookRoutes(app: FastifyInstance, s: Services) {
  // one customer's webhooks run one after another on this node, in the order they came (a slow
  // download holds up that customer only); statuses and other customers' messages at once
  const lanes = new KeyedQueue();
  const runSoon = (lane: string, jobId: number) => {
    setImmediate(() => {
      void lanes
        .run(lane, () => runJobNow(s, [cloudWebhookJob], jobId))
        .catch((err) =>
          s.log.warn({ job: jobId, err: (err as Error).message }, "whatsapp cloud webhook not run now: the runner takes it"),
        );
    });
  };

  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    // JSON only, kept as the bytes Meta signed; any other type is refused (415) before it is read
    raw.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: CLOUD_WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    const config = { public: true } as const;

    raw.get("/api/whatsapp-cloud/webhook/:key", { config }, async (req, reply) => {
      const key = param(req);
      const query = VerifyQuery.safeParse(req.query);
      const connection = key.success ? await connectionOf(s, key.data.key) : null;
      if (!connection) throw new AppError("ERR_NO_WAPP_FOUND");
      const expected = opened(s, req, connection.verifyTokenSealed, "verifyToken", connection.id);
      const q = query.success ? query.data : {};
      const token = q["hub.verify_token"] ?? "";
      if (q["hub.mode"] !== "subscribe" || !expected || !token || !sameText(token, expected)) {
        req.log.warn(
          { whatsappId: connection.id, mode: q["hub.mode"]?.slice(0, 20), ip: req.ip },
          "whatsapp cloud webhook verification refused",
        );
        throw new AppError("ERR_CLOUD_VERIFY_TOKEN");
      }
      return reply.type("text/plain; charset=utf-8").send(q["hub.challenge"] ?? "");
    });

    raw.post("/api/whatsapp-cloud/webhook/:key", { config, bodyLimit: CLOUD_WEBHOOK_BODY_LIMIT }, async (req) => {
      const key = param(req);
      const connection = key.success ? await connectionOf(s, key.data.key) : null;
      if (!connection) throw new AppError("ERR_NO_WAPP_FOUND");
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers["x-hub-signature-256"];
      const signature = typeof header === "string" ? header.slice(0, 200) : undefined;
      const secret = opened(s, req, connection.appSecretSealed, "appSecret", connection.id);
      if (!verifySignature(secret, bytes, signature)) {
        req.log.warn(
          { whatsappId: connection.id, reason: signature ? "forged" : "unsigned", ip: req.ip },
          "whatsapp cloud webhook refused: no valid signature",
        );
        throw new AppError("ERR_CLOUD_SIGNATURE");
      }
      let text: string;
      let json: unknown;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        json = JSON.parse(text);
      } catch {
        throw new AppError("ERR_BAD_REQUEST");
      }
      const digest = createHash("sha256").update(bytes).digest("hex");
      const jobId = await s.db.transaction((tx) =>
        enqueue(
          tx,
          connection.companyId,
          cloudWebhookJob,
          { whatsappId: connection.id, body: text },
          { idempotencyKey: `cloud:${digest}` },
        ),
      );
      // a replay of a body already taken: its row exists (done, or still to run)
      if (jobId !== null) {
        const sender = inboundMessages(json).find((m) => typeof m.from === "string")?.from;
        runSoon(typeof sender === "string" ? `${connection.id}:${sender.slice(0, 40)}` : `job:${jobId}`, jobId);
      }
      return { received: true, ...(jobId === null ? { duplicate: true } : {}) };
    });
  });
}
