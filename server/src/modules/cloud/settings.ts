import { randomBytes } from "node:crypto";
import { type CloudConnectionView, type ConnectionForm, type StatusReason, StatusReasons, V } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { probeCloudCredentials } from "../../channels/cloud/factory.js";
import { GraphClient } from "../../channels/cloud/graph-client.js";
import type { Services } from "../../context.js";
import { whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { type SecretBox, maskSecret } from "../../lib/secret-box.js";
import { presentTemplate } from "./templates.js";

type Input = z.output<typeof ConnectionForm>;
type Row = typeof whatsapps.$inferSelect;
type Issue = { path: string; message: string };

/** What a connection's view needs to show its Cloud API settings: the key that opens the secrets and the public address. */
export type CloudViewHost = { secrets: SecretBox; config: { publicUrl: string } };

/** Where Meta posts a connection's events (webhook-routes.ts); relative until a public address or a request makes it absolute. */
export const webhookPath = (key: string) => `/api/whatsapp-cloud/webhook/${key}`;

/**
 * The Cloud API columns a saved form writes (provider "cloud"; the provider is the current row's on an
 * edit, as it cannot change): both ids required; the three secrets required on a new connection and
 * sealed, a blank one on an edit keeping the stored one; the webhook key made once, never changed (the
 * URL pasted in Meta's app must keep working); the fallback template for automatic messages.
 */
export function cloudColumns(secrets: SecretBox, input: Input, current: Row | null): Partial<Row> {
  const provider = current?.provider ?? input.provider;
  if (provider !== "cloud") return {};
  const issues: Issue[] = [];
  const required = (value: string, path: string) => {
    if (!value) issues.push({ path, message: V.required });
    return value;
  };
  const secret = (typed: string | undefined, stored: string | undefined, path: string) => {
    if (typed) return secrets.seal(typed);
    if (stored) return stored;
    issues.push({ path, message: V.required });
    return "";
  };
  const templateName = input.templateName;
  const columns = {
    cloudPhoneNumberId: required(input.phoneNumberId, "phoneNumberId"),
    cloudBusinessAccountId: required(input.businessAccountId, "businessAccountId"),
    cloudAccessTokenSealed: secret(input.accessToken, current?.cloudAccessTokenSealed, "accessToken"),
    cloudAppSecretSealed: secret(input.appSecret, current?.cloudAppSecretSealed, "appSecret"),
    cloudVerifyTokenSealed: secret(input.verifyToken, current?.cloudVerifyTokenSealed, "verifyToken"),
    cloudWebhookKey: current?.cloudWebhookKey ?? randomBytes(24).toString("base64url"),
    cloudTemplateName: templateName,
    // a template is named with its language (Meta keys templates by both)
    cloudTemplateLanguage: templateName ? required(input.templateLanguage, "templateLanguage") : "",
    cloudTemplateParams: templateName ? input.templateParams.map((p) => p.trim()) : [],
  };
  if (issues.length) throw new AppError("ERR_VALIDATION", { issues });
  return columns;
}

/**
 * Before a save: the fallback template named must be one Meta lists as approved, with as many
 * parameters as it takes (ERR_CLOUD_TEMPLATE_NOT_FOUND, ERR_CLOUD_TEMPLATE_PARAMS), or every automatic
 * message outside the window would fail. Only when the account answers with the form's credentials:
 * a refused token or an unreachable API is the test call's to report, and the save goes on.
 */
export async function checkFallbackTemplate(
  s: Pick<Services, "config" | "secrets" | "log">,
  input: Input,
  current: Row | null,
): Promise<void> {
  if (input.provider !== "cloud" || !input.templateName || !input.templateLanguage) return;
  const accessToken = input.accessToken || (current ? openOr(s.secrets, current.cloudAccessTokenSealed) : "");
  if (!accessToken || !input.businessAccountId) return;
  let listed: Awaited<ReturnType<GraphClient["templates"]>>;
  try {
    const creds = { phoneNumberId: input.phoneNumberId, businessAccountId: input.businessAccountId, accessToken };
    listed = await new GraphClient(creds, { baseUrl: s.config.graphApiUrl }).templates();
  } catch (err) {
    s.log.warn({ err }, "Cloud API templates not listed to check the fallback template");
    return;
  }
  const template = listed.templates
    .map(presentTemplate)
    .find((t) => t.name === input.templateName && t.language === input.templateLanguage && t.status === "APPROVED");
  if (!template) {
    // a listing cut short may hold it further on: not refused on a guess
    if (listed.complete) throw new AppError("ERR_CLOUD_TEMPLATE_NOT_FOUND");
    return;
  }
  if (!template.sendable) throw new AppError("ERR_CLOUD_TEMPLATE_UNSUPPORTED");
  if (template.params !== input.templateParams.length)
    throw new AppError("ERR_CLOUD_TEMPLATE_PARAMS", { data: { count: template.params } });
}

const openOr = (secrets: SecretBox, sealed: string) => {
  if (!sealed) return "";
  try {
    return secrets.open(sealed);
  } catch {
    // sealed under another key (SECRETS_KEY changed): shown as missing, to be typed again
    return "";
  }
};

/** A Cloud API connection's settings as staff who manage connections see them: the secrets masked, never whole. */
export function cloudView(host: CloudViewHost, row: Row): CloudConnectionView | null {
  if (row.provider !== "cloud") return null;
  const accessToken = openOr(host.secrets, row.cloudAccessTokenSealed);
  const appSecret = openOr(host.secrets, row.cloudAppSecretSealed);
  const verifyToken = openOr(host.secrets, row.cloudVerifyTokenSealed);
  return {
    phoneNumberId: row.cloudPhoneNumberId,
    businessAccountId: row.cloudBusinessAccountId,
    accessToken: maskSecret(accessToken),
    appSecret: maskSecret(appSecret),
    verifyToken: maskSecret(verifyToken),
    hasAccessToken: accessToken !== "",
    hasAppSecret: appSecret !== "",
    hasVerifyToken: verifyToken !== "",
    webhookUrl: row.cloudWebhookKey ? `${host.config.publicUrl}${webhookPath(row.cloudWebhookKey)}` : "",
    templateName: row.cloudTemplateName,
    templateLanguage: row.cloudTemplateLanguage,
    templateParams: row.cloudTemplateParams ?? [],
  };
}

/** A webhook URL made absolute with the request's own address when no PUBLIC_URL is configured. */
export function absoluteUrl(url: string, origin: string): string {
  return url.startsWith("/") ? `${origin}${url}` : url;
}

const reasonOf = (err: unknown): StatusReason => {
  const code = (err as { code?: unknown })?.code;
  const reason = typeof code === "string" && (StatusReasons as readonly string[]).includes(code) ? code : "ERR_CLOUD_API";
  return reason as StatusReason;
};

/**
 * The test call on save: the connection's number and token must answer Meta's probe. CONNECTED with
 * the number Meta displays, else DISCONNECTED with the catalogue code as its reason (a token refused,
 * the API unreachable), which the connections page shows. Never throws: the connection is saved.
 */
export async function probeConnection(s: Pick<Services, "db" | "config" | "secrets" | "log">, companyId: number, id: number) {
  let values: Partial<Row>;
  try {
    const [row] = await s.db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));
    if (!row) return;
    // the saved row's credentials, an edit's new token included
    const { number } = await probeCloudCredentials(s.config, {
      phoneNumberId: row.cloudPhoneNumberId,
      businessAccountId: row.cloudBusinessAccountId,
      accessToken: openOr(s.secrets, row.cloudAccessTokenSealed),
    });
    const digits = number.replace(/\D/g, "");
    values = { status: "CONNECTED", statusReason: "", number: digits, token: Buffer.from(digits, "utf8").toString("base64") };
  } catch (err) {
    s.log.warn({ err, whatsappId: id }, "Cloud API connection did not answer its probe");
    values = { status: "DISCONNECTED", statusReason: reasonOf(err) };
  }
  await s.db
    .update(whatsapps)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));
}
