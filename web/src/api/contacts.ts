import { type ContactForm, type ContactsPage, type ContactView, normalizeNumber } from "@charla/contracts";
import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiBlob } from "./client";
import { usePagedList, useRecord } from "./paged";

export const contactKeys = {
  all: ["contacts"] as const,
  lists: () => ["contacts", "list"] as const,
  list: (search: string) => ["contacts", "list", search] as const,
  detail: (id: number) => ["contacts", "detail", id] as const,
};

type ContactsData = InfiniteData<ContactsPage, number>;

/** What `company-{id}-contact` carries (docs/api-foundation.md, Contacts). */
export type ContactEvent = { action: "create" | "update"; contact: ContactView } | { action: "delete"; contactId: number };

/** The file name the export is saved under, whatever the server suggests. */
export const CONTACTS_CSV_NAME = "contactos.csv";

export function useContactsList(search: string) {
  return usePagedList<ContactsPage>(contactKeys.list(search), "/contacts", search);
}

export function useContact(id: number | null) {
  return useRecord<ContactView>(contactKeys.detail(id ?? 0), "/contacts", id);
}

/** The server's rule: the name contains the text, or the number contains its digits. */
function matchesSearch(contact: ContactView, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const digits = normalizeNumber(needle);
  return contact.name.toLowerCase().includes(needle) || (digits !== "" && contact.number.includes(digits));
}

const byName = (a: ContactView, b: ContactView) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;

/**
 * Lists are in name order: a new contact goes where it belongs among the loaded ones. One that sorts
 * after the last loaded contact while more pages remain is left for the page that will bring it.
 */
function insertSorted(data: ContactsData, contact: ContactView): ContactsData | null {
  const pages = data.pages;
  const last = pages[pages.length - 1];
  for (const [p, page] of pages.entries()) {
    const at = page.contacts.findIndex((c) => byName(contact, c) < 0);
    if (at === -1 && p < pages.length - 1) continue;
    if (at === -1 && last.hasMore) return null;
    const position = at === -1 ? page.contacts.length : at;
    const contacts = [...page.contacts.slice(0, position), contact, ...page.contacts.slice(position)];
    return {
      ...data,
      pages: pages.map((item, i) => ({ ...item, count: item.count + 1, contacts: i === p ? contacts : item.contacts })),
    };
  }
  return null;
}

/** Puts a created or changed contact into every loaded list (core §4 Live updates) and its detail. */
export function upsertContactInCache(client: QueryClient, contact: ContactView): void {
  client.setQueryData(contactKeys.detail(contact.id), contact);
  for (const [key, data] of client.getQueriesData<ContactsData>({ queryKey: contactKeys.lists() })) {
    if (!data) continue;
    const search = String(key[2] ?? "");
    const present = data.pages.some((page) => page.contacts.some((c) => c.id === contact.id));
    let next: ContactsData | null = null;
    if (present) {
      next = {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          contacts: page.contacts.map((c) => (c.id === contact.id ? contact : c)),
        })),
      };
    } else if (matchesSearch(contact, search)) {
      next = insertSorted(data, contact) ?? {
        ...data,
        pages: data.pages.map((page) => ({ ...page, count: page.count + 1 })),
      };
    }
    if (next) client.setQueryData<ContactsData>(key, next);
  }
}

export function removeContactFromCache(client: QueryClient, contactId: number): void {
  client.removeQueries({ queryKey: contactKeys.detail(contactId) });
  client.setQueriesData<ContactsData>({ queryKey: contactKeys.lists() }, (data) => {
    if (!data?.pages.some((page) => page.contacts.some((c) => c.id === contactId))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        count: Math.max(0, page.count - 1),
        contacts: page.contacts.filter((c) => c.id !== contactId),
      })),
    };
  });
}

export type SaveContactInput = { id: number | null; values: ContactForm };

export function useSaveContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: SaveContactInput) =>
      id === null
        ? api<ContactView>("/contacts", { method: "POST", body: values })
        : api<ContactView>(`/contacts/${id}`, { method: "PUT", body: values }),
    onSuccess: (contact) => upsertContactInCache(client, contact),
  });
}

export function useDeleteContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/contacts/${id}`, { method: "DELETE" }),
    onSuccess: (_, id) => removeContactFromCache(client, id),
  });
}

/** Hands a blob to the browser as a file download. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

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
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.lists() }),
  });
}
