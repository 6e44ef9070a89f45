import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { and, eq, ne } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { isDeliveryType } from "../../automation/resolve.js";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { integrationDeliveries } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { checkOutboundUrl, outboundLookup } from "../../lib/outbound-url.js";
import { announceIntegration } from "../../modules/integrations/announce.js";
import { openSecret } from "../../modules/integrations/queries.js";
import { defineJobKind } from "./kind.js";

/** Attempts before a delivery is dead: 10 s, 20 s, 40 s … between them, about 20 minutes in all. */
export const WEBHOOK_MAX_ATTEMPTS = 8;
export const WEBHOOK_BACKOFF = { baseSec: 10, capSec: 3600 } as const;
/** What the log keeps of a failure (the receiver's answer included): bounded. */
export const DELIVERY_ERROR_MAX = 500;
/** How much of a receiver's answer is read (for the log); the rest is dropped unread. */
const RESPONSE_READ_MAX = 4096;
const USER_AGENT = "Charla-Webhooks/1";

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

const clean = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters of a receiver's answer are not kept
  text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

/**
 * One POST of these exact bytes, with its headers, within `timeoutMs` (connect, send and the whole
 * answer). Redirects are not followed (a 3xx is a failure, as its target was never checked).
 */
function post(s: Services, url: URL, body: string, headers: Record<string, string>): Promise<Outcome> {
  const timeoutMs = s.config.webhookTimeoutMs;
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: outboundLookup(s.config),
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < RESPONSE_READ_MAX) chunks.push(c);
          size += c.length;
        });
        res.on("error", (err) => done({ ok: false, status, error: err.message }));
        res.on("end", () => {
          if (status >= 200 && status < 300) return done({ ok: true, status });
          const answer = clean(Buffer.concat(chunks).toString("utf8").slice(0, 300));
          done({ ok: false, status, error: `HTTP ${status}${answer ? `: ${answer}` : ""}` });
        });
      },
    );
    const timer = setTimeout(() => {
      done({ ok: false, status: null, error: `ERR_WEBHOOK_TIMEOUT: no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) => {
      const code = err instanceof AppError ? err.code : ((err as { code?: string }).code ?? "");
      done({ ok: false, status: null, error: [code, err.message].filter(Boolean).join(": ") });
    });
    req.end(body);
  });
}

/**
 * Sends one delivery (automation/deliveries.ts wrote it with its job): its stored payload, as the same
 * bytes on every attempt, with `secret-key` and the Standard Webhooks headers (`webhook-id` the row's,
 * the same on every attempt; `webhook-timestamp` this attempt's; `webhook-signature` over id, timestamp
 * and the bytes, under the integration's `whsec_` secret). A 2xx delivers it; anything else is written
 * on the row (retrying, or dead at the last attempt) and fails the job, which the runner retries with
 * backoff. Each attempt is told to the integration's admins (their page shows the last delivery).
 */
export async function deliverWebhook(s: Services, companyId: number, deliveryId: number, attempt: number): Promise<void> {
  const q = scoped(s.db, companyId);
  const delivery = await q.integrationDeliveries.findById(deliveryId);
  // gone with its integration, or settled by an earlier run
  if (!delivery || delivery.status === "delivered" || delivery.status === "dead") return;
  const integration = await q.queueIntegrations.findById(delivery.integrationId);
  if (!integration) return;
  const last = attempt >= WEBHOOK_MAX_ATTEMPTS;
  const body = JSON.stringify(delivery.payload);
  let outcome: Outcome;
  if (!isDeliveryType(integration.type)) {
    outcome = { ok: false, status: null, error: "ERR_INTEGRATION_NOT_DELIVERABLE" };
  } else {
    const secret = openSecret(s.secrets, integration.apikeySealed);
    let url: URL | null = null;
    try {
      url = await checkOutboundUrl(s.config, integration.urlN8N);
    } catch (err) {
      outcome = { ok: false, status: null, error: err instanceof AppError ? err.code : String(err) };
    }
    if (url) {
      if (!secret) outcome = { ok: false, status: null, error: "ERR_WEBHOOK_SECRET_UNREADABLE" };
      else {
        const sentAt = new Date();
        const signature = new Webhook(secret).sign(delivery.webhookId, sentAt, body);
        outcome = await post(s, url, body, {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          "secret-key": secret,
          "webhook-id": delivery.webhookId,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": signature,
        });
      }
    }
  }
  const done = outcome!;
  const at = new Date();
  const notDelivered = and(eq(integrationDeliveries.id, deliveryId), ne(integrationDeliveries.status, "delivered"));
  if (done.ok) {
    await q.db
      .update(integrationDeliveries)
      .set({
        status: "delivered",
        attempts: attempt,
        lastStatus: done.status,
        lastError: "",
        lastAttemptAt: at,
        deliveredAt: at,
        updatedAt: at,
      })
      .where(q.integrationDeliveries.where(notDelivered));
  } else {
    await q.db
      .update(integrationDeliveries)
      .set({
        status: last ? "dead" : "retrying",
        attempts: attempt,
        lastStatus: done.status,
        lastError: done.error.slice(0, DELIVERY_ERROR_MAX),
        lastAttemptAt: at,
        updatedAt: at,
      })
      .where(q.integrationDeliveries.where(notDelivered));
  }
  await announceIntegration(s, companyId, integration.id).catch((err) =>
    s.log.debug({ err: (err as Error).message, integrationId: integration.id }, "integration update not told"),
  );
  if (!done.ok) throw new Error(done.error.slice(0, DELIVERY_ERROR_MAX));
}

/** `integration.deliver`: one webhook / n8n delivery, retried with backoff until delivered or dead. */
export const deliverWebhookJob = defineJobKind({
  kind: "integration.deliver",
  payload: z.object({ deliveryId: z.number().int().positive() }),
  maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  // well beyond one POST (WEBHOOK_TIMEOUT_MS, 10 s by default): a run cut off by a crash is taken
  // again once it lapses, under the same webhook-id
  leaseSec: 30,
  backoff: WEBHOOK_BACKOFF,
  run: (s, job) => deliverWebhook(s, job.companyId, job.payload.deliveryId, job.attempt),
});
