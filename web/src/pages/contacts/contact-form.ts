import type { ContactForm, ContactView, ExtraInfo } from "@charla/contracts";

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
