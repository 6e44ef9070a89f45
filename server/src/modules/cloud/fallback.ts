import type { TemplateMessage } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import type { whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { approvedTemplate } from "./templates.js";

type Connection = Pick<
  typeof whatsapps.$inferSelect,
  "id" | "provider" | "cloudTemplateName" | "cloudTemplateLanguage" | "cloudTemplateParams"
>;

/** What goes instead of a message the window no longer lets through: the template, and its text as recorded. */
export type Fallback = { message: TemplateMessage; body: string };

/**
 * The connection's fallback template (issue 31) for what is sent without an agent (automatic messages,
 * campaigns, schedules) once the customer's window is closed, its parameters filled by `fill` (the
 * variables of the sending path). Without one configured, ERR_CLOUD_WINDOW_CLOSED: the send fails
 * visibly instead of going as free text Meta would drop. Meta refuses an empty parameter, so an empty
 * value goes as "-".
 */
export async function fallbackTemplate(
  s: Services,
  companyId: number,
  wa: Connection,
  fill: (param: string) => string,
): Promise<Fallback> {
  const name = wa.cloudTemplateName.trim();
  const language = wa.cloudTemplateLanguage.trim();
  if (wa.provider !== "cloud" || !name || !language) throw new AppError("ERR_CLOUD_WINDOW_CLOSED");
  const params = (wa.cloudTemplateParams ?? []).map((p) => fill(p).trim() || "-");
  const { body } = await approvedTemplate(s, companyId, wa.id, name, language, params);
  return { message: { name, language, params }, body };
}
