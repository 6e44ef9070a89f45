import { type ContactForm, type ContactListImportResult, type ContactView, normalizeNumber } from "@charla/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiBlob, apiUpload } from "./client";
import { saveBlob } from "../lib/save-blob";
import { defineCollection } from "./collection";

/** core §7 Contacts: searched by name or number, 20 a page in name order; `company-{id}-contact` keeps it live. */
export const contactCollection = defineCollection<ContactView, ContactForm>({
  name: "contacts",
  path: "/contacts",
  pageField: "contacts",
  // the server's rule: the name contains the text, or the number contains its digits
  matches: (contact, search) => {
    const needle = search.trim().toLowerCase();
    if (!needle) return true;
    const digits = normalizeNumber(needle);
    return contact.name.toLowerCase().includes(needle) || (digits !== "" && contact.number.includes(digits));
  },
  order: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id,
  live: { channel: "contact", item: "contact", idField: "contactId" },
});

/** The file name the export is saved under, whatever the server suggests. */
export const CONTACTS_CSV_NAME = "contactos.csv";

/** core §2: the CSV export (name;number;email), fetched with the bearer and saved as contactos.csv. */
export function useExportContacts() {
  return useMutation({
    mutationFn: () => apiBlob("/contacts/export"),
    onSuccess: (blob) => saveBlob(blob, CONTACTS_CSV_NAME),
  });
}

/** What POST /contacts/import answers (docs/api-inbox.md, Contacts additions). */
export type ImportResult = { imported: number; existing: number };

/**
 * core §2: the default connection's address book added as contacts. The new ones arrive through the
 * live `create` events; the lists are refetched too, in case an event was missed.
 */
export function useImportContacts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<ImportResult>("/contacts/import", { method: "POST", body: {} }),
    // not awaited: the result toast need not wait for the refetch
    onSuccess: () => void client.invalidateQueries({ queryKey: contactCollection.keys.lists() }),
  });
}

/**
 * POST /contacts/import with a multipart `file`: a CSV such as the export (name, number, email; `;` or
 * `,`), answered with the contact lists' summary. The lists are read again after it.
 */
export function useImportContactsFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file);
      return apiUpload<ContactListImportResult>("/contacts/import", form, () => {});
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: contactCollection.keys.lists() }),
  });
}
