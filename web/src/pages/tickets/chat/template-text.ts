import type { CloudTemplate } from "@charla/contracts";

/** A template is one name in one language: the same name may exist in es_MX and pt_BR. */
export const templateKey = (template: Pick<CloudTemplate, "name" | "language">) => `${template.name}|${template.language}`;

/** The body as sent: `{{n}}` becomes the n-th value; one still blank keeps its placeholder, to be seen. */
export function fillTemplateBody(body: string, params: readonly string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n: string) => {
    const value = params[Number(n) - 1];
    return value?.trim() ? value : all;
  });
}
