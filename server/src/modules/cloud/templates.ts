import { CloudLimits, type CloudTemplate, type CloudTemplatesList, isErrorCode } from "@charla/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { ChannelTemplate } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { cloudTemplates } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";

type Component = { type?: unknown; text?: unknown; format?: unknown };

const textOf = (components: unknown[], type: string): string => {
  const c = components.find(
    (x): x is Component => !!x && typeof x === "object" && String((x as Component).type).toUpperCase() === type,
  );
  // a HEADER may be an image, video or document: only a text one has words to show
  if (!c || typeof c.text !== "string") return "";
  if (type === "HEADER" && c.format !== undefined && String(c.format).toUpperCase() !== "TEXT") return "";
  return c.text;
};

/** How many body parameters a template text takes: its highest `{{n}}`. */
export function paramCount(body: string): number {
  let max = 0;
  for (const m of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** The body with its `{{n}}` replaced by the parameters, as the customer reads it (and as the message is recorded). */
export function filledBody(body: string, params: string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n: string) => params[Number(n) - 1] ?? all);
}

const typeOf = (c: unknown) => (c && typeof c === "object" ? String((c as Component).type).toUpperCase() : "");
const hasVariable = (v: unknown) => typeof v === "string" && /\{\{\s*\d+\s*\}\}/.test(v);

/**
 * Whether body variables are all it takes: a HEADER that is a file (image, video, document, location)
 * or has a variable, or a button whose URL has one, needs parameters of its own, which Charla does not send.
 */
export function sendableWithBody(components: unknown[]): boolean {
  for (const c of components) {
    const type = typeOf(c);
    const part = c as Component & { buttons?: unknown };
    if (type === "HEADER") {
      if (part.format !== undefined && String(part.format).toUpperCase() !== "TEXT") return false;
      if (hasVariable(part.text)) return false;
    }
    if (type === "BUTTONS" && Array.isArray(part.buttons))
      for (const b of part.buttons) if (b && typeof b === "object" && hasVariable((b as { url?: unknown }).url)) return false;
  }
  return true;
}

export function presentTemplate(
  t: Pick<ChannelTemplate, "name" | "language" | "status" | "category" | "components">,
): CloudTemplate {
  const components = Array.isArray(t.components) ? t.components : [];
  const body = textOf(components, "BODY");
  return {
    name: t.name,
    language: t.language,
    status: t.status,
    category: t.category,
    body,
    params: paramCount(body),
    header: textOf(components, "HEADER"),
    footer: textOf(components, "FOOTER"),
    sendable: sendableWithBody(components),
  };
}

/** The connection, which must be a Cloud API one (another company's is not found). */
export async function cloudConnection(s: Pick<Services, "db">, companyId: number, whatsappId: number) {
  const wa = found(await scoped(s.db, companyId).whatsapps.findById(whatsappId), "ERR_NO_WAPP_FOUND");
  if (wa.provider !== "cloud") throw new AppError("ERR_CLOUD_NOT_A_CLOUD_CONNECTION");
  return wa;
}

/**
 * The business account's templates: from the cache while it is younger than CloudLimits.templatesCacheMs,
 * else (or when `refresh`) listed from the API and cached again whole (templates deleted at Meta go).
 */
export async function listTemplates(
  s: Services,
  companyId: number,
  whatsappId: number,
  { refresh = false }: { refresh?: boolean } = {},
): Promise<CloudTemplatesList> {
  await cloudConnection(s, companyId, whatsappId);
  const cached = await cachedTemplates(s, companyId, whatsappId);
  const fetchedAt = cached[0]?.fetchedAt;
  if (!refresh && fetchedAt && Date.now() - fetchedAt.getTime() < CloudLimits.templatesCacheMs)
    return { templates: cached.map(presentTemplate), fetchedAt: fetchedAt.toISOString() };
  const driver = await s.sessions.driverFor(companyId, whatsappId);
  if (!driver?.templates) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  let listed: ChannelTemplate[];
  try {
    listed = await driver.templates();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: unknown })?.code;
    throw new AppError(isErrorCode(code) ? code : "ERR_CLOUD_API", { data: { reason: (err as Error)?.message ?? "" } });
  }
  const now = new Date();
  await withTransaction(s.db, async (tx) => {
    await tx
      .delete(cloudTemplates)
      .where(and(eq(cloudTemplates.companyId, companyId), eq(cloudTemplates.whatsappId, whatsappId)));
    if (listed.length === 0) return;
    await tx
      .insert(cloudTemplates)
      .values(
        listed.map((t) => ({
          companyId,
          whatsappId,
          name: t.name,
          language: t.language,
          status: t.status,
          category: t.category ?? "",
          components: Array.isArray(t.components) ? t.components : [],
          fetchedAt: now,
        })),
      )
      // a listing naming one template twice, or a refresh at the same moment: the first copy stays
      .onConflictDoNothing();
  });
  const sorted = [...listed].sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
  return { templates: sorted.map(presentTemplate), fetchedAt: now.toISOString() };
}

function cachedTemplates(s: Pick<Services, "db">, companyId: number, whatsappId: number) {
  return s.db
    .select()
    .from(cloudTemplates)
    .where(and(eq(cloudTemplates.companyId, companyId), eq(cloudTemplates.whatsappId, whatsappId)))
    .orderBy(asc(cloudTemplates.name), asc(cloudTemplates.language));
}

/**
 * An approved template by name and language, with its parameters checked: from the cache, else listed
 * again once (a template approved since the last listing). Its body filled is what the message records.
 */
export async function approvedTemplate(
  s: Services,
  companyId: number,
  whatsappId: number,
  name: string,
  language: string,
  params: string[],
): Promise<{ template: CloudTemplate; body: string }> {
  const pick = (list: CloudTemplate[]) => list.find((t) => t.name === name && t.language === language && t.status === "APPROVED");
  let template = pick((await listTemplates(s, companyId, whatsappId)).templates);
  if (!template) template = pick((await listTemplates(s, companyId, whatsappId, { refresh: true })).templates);
  if (!template) throw new AppError("ERR_CLOUD_TEMPLATE_NOT_FOUND");
  if (!template.sendable) throw new AppError("ERR_CLOUD_TEMPLATE_UNSUPPORTED");
  if (params.length !== template.params) throw new AppError("ERR_CLOUD_TEMPLATE_PARAMS", { data: { count: template.params } });
  return { template, body: filledBody(template.body, params) || `[${template.name}]` };
}
