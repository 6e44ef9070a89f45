import type { ContactForm, ContactView, ExtraInfo } from "@charla/contracts";
import type { FieldPath, UseFormSetError } from "react-hook-form";
import { validationIssues } from "../../api/errors";

/** The modal's values are the contract's `ContactForm`; it starts with every part present. */
export type ContactFormValues = ContactForm;

export const emptyExtraInfo: ExtraInfo = { name: "", value: "" };

export function formValuesOf(contact?: ContactView): Required<ContactFormValues> {
  return {
    name: contact?.name ?? "",
    number: contact?.number ?? "",
    email: contact?.email ?? "",
    extraInfo: contact?.extraInfo.map((item) => ({ name: item.name, value: item.value })) ?? [],
  };
}

// A field of the form, or one cell of the extra-info list ("extraInfo.3.value").
const fieldPath = /^(name|number|email|extraInfo\.\d+\.(name|value))$/;

/** The API's zod issues (`issues[].path`) go back onto the fields they name; true when any did. */
export function applyServerIssues(error: unknown, setError: UseFormSetError<ContactFormValues>): boolean {
  let applied = false;
  for (const issue of validationIssues(error)) {
    let path: string | null = null;
    if (fieldPath.test(issue.path)) path = issue.path;
    else if (issue.path === "extraInfo" || issue.path.startsWith("extraInfo.")) path = "extraInfo.root";
    if (!path) continue;
    setError(path as FieldPath<ContactFormValues>, { type: "server", message: issue.message });
    applied = true;
  }
  return applied;
}
