import { randomBytes } from "node:crypto";
import type { DeliveryView, IntegrationForm, IntegrationView, WebhookBody } from "@charla/contracts";
import type { z } from "zod";
import { forgetDeliveryIntegrations, sendNow, writeDelivery } from "../../automation/deliveries.js";
import { clearAutomationRefs } from "../../automation/references.js";
import { isDeliveryType } from "../../automation/resolve.js";
import type { RequestCtx } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { checkOutboundUrl } from "../../lib/outbound-url.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { integrationChanged } from "./announce.js";
import { deliveryView, findIntegrationView, type IntegrationRow } from "./queries.js";

type Input = z.output<typeof IntegrationForm>;

/**
 * A webhook signing secret in the Standard Webhooks format: `whsec_` and the base64 of 32 random
 * bytes. Receivers verify deliveries with it (and compare the `secret-key` header to it).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function nameTaken(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_INTEGRATION_NAME_EXISTS");
  throw err;
}

/** The URL is checked when saved (and again before each call): http(s), and no private address unless allowed. */
async function checkedUrl(ctx: RequestCtx, f: Input): Promise<void> {
  if (f.urlN8N) await checkOutboundUrl(ctx.config, f.urlN8N);
}

const columns = (f: Input) => ({
  type: f.type,
  name: f.name,
  // secondary §3: the project name is the name
  projectName: f.name,
  urlN8N: f.urlN8N,
  typebotSlug: f.typebotSlug,
  typebotExpires: f.typebotExpires,
  typebotDelayMessage: f.typebotDelayMessage,
  typebotKeywordFinish: f.typebotKeywordFinish,
  typebotUnknownMessage: f.typebotUnknownMessage,
  jsonContent: f.jsonContent,
  language: f.language,
});

export async function createIntegration(ctx: RequestCtx, f: Input): Promise<IntegrationView> {
  await checkedUrl(ctx, f);
  const view = await withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const row = await q.queueIntegrations.insert({
      ...columns(f),
      apikeySealed: isDeliveryType(f.type) ? ctx.secrets.seal(newWebhookSecret()) : "",
    });
    const view = found(await findIntegrationView(q, ctx.secrets, row.id), "ERR_NO_INTEGRATION_FOUND");
    await publish(await integrationChanged(q, { action: "create", queueIntegration: view }));
    return view;
  }).catch(nameTaken);
  forgetDeliveryIntegrations(ctx, ctx.companyId);
  return view;
}

/** An edit keeps the secret key; a type that receives deliveries and had none gets one. */
export async function updateIntegration(ctx: RequestCtx, id: number, f: Input): Promise<IntegrationView> {
  await checkedUrl(ctx, f);
  const view = await withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const current: IntegrationRow = found(await q.queueIntegrations.lockById(id), "ERR_NO_INTEGRATION_FOUND");
    const apikeySealed =
      isDeliveryType(f.type) && !current.apikeySealed ? ctx.secrets.seal(newWebhookSecret()) : current.apikeySealed;
    await q.queueIntegrations.update(id, { ...columns(f), apikeySealed });
    const view = found(await findIntegrationView(q, ctx.secrets, id), "ERR_NO_INTEGRATION_FOUND");
    await publish(await integrationChanged(q, { action: "update", queueIntegration: view }));
    return view;
  }).catch(nameTaken);
  forgetDeliveryIntegrations(ctx, ctx.companyId);
  return view;
}

/**
 * The integration and its delivery log; areas, options and connections that pointed at it no longer
 * do, and tickets it was talking to go back to the usual flow (one transaction).
 */
export async function deleteIntegration(ctx: RequestCtx, id: number): Promise<void> {
  await withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.queueIntegrations.lockById(id), "ERR_NO_INTEGRATION_FOUND");
    await clearAutomationRefs(tx, ctx.companyId, { integrationId: id });
    await q.queueIntegrations.delete(id);
    await publish(await integrationChanged(q, { action: "delete", integrationId: id }));
  });
  forgetDeliveryIntegrations(ctx, ctx.companyId);
}

/**
 * POST /queueIntegration/{id}/test: a "test" event delivered like any other (signed, retried, logged),
 * sent right away; its body has no messages, ticket or contact. Typebot and dialogflow receive no
 * events (ERR_INTEGRATION_NOT_DELIVERABLE).
 */
export async function sendTestEvent(ctx: RequestCtx, id: number): Promise<DeliveryView> {
  const q = scoped(ctx.db, ctx.companyId);
  const integration = found(await q.queueIntegrations.findById(id), "ERR_NO_INTEGRATION_FOUND");
  if (!isDeliveryType(integration.type)) throw new AppError("ERR_INTEGRATION_NOT_DELIVERABLE");
  await checkOutboundUrl(ctx.config, integration.urlN8N);
  const payload: WebhookBody = { msg: [], eventintegration: "test", ticket: null, userData: null };
  const webhookId = `test_${ctx.companyId}_${id}_${randomBytes(9).toString("base64url")}`;
  const { row, jobId } = await withTransaction(ctx, async (tx, { publish }) => {
    const written = found(
      await writeDelivery(tx, ctx.companyId, { integrationId: id, webhookId, event: "test", payload }),
      "ERR_NO_INTEGRATION_FOUND",
    );
    const tq = scoped(tx, ctx.companyId);
    const row = found(await tq.integrationDeliveries.findById(written.deliveryId), "ERR_NO_INTEGRATION_FOUND");
    const view = found(await findIntegrationView(tq, ctx.secrets, id), "ERR_NO_INTEGRATION_FOUND");
    await publish(await integrationChanged(tq, { action: "update", queueIntegration: view }));
    return { row, jobId: written.jobId };
  });
  // sent off the request: the log shows it pending, then its outcome (the integration's event)
  if (jobId !== null) {
    void sendNow(ctx, jobId).catch((err) =>
      ctx.log.warn({ err: (err as Error).message, integrationId: id }, "test event not sent"),
    );
  }
  return deliveryView(row);
}
