import {
  type ContactListForm,
  type ContactListImportResult,
  type ContactListItemCreate,
  type ContactListItemForm,
  type ContactListItemView,
  type ContactListView,
  normalizeNumber,
} from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Language } from "../i18n/texts";
import { saveBlob } from "../lib/save-blob";
import { useSocketEvent } from "../realtime/context";
import { api, apiBlob, apiUpload } from "./client";
import { defineCollection } from "./collection";

export type { ContactListImportResult, ContactListItemView, ContactListView };

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;

/**
 * secondary §7 Contact lists: 20 a page by name, searched by name, each with how many numbers it
 * holds; `company-{id}-ContactList` keeps the page live (an import or a new number moves the count).
 */
export const contactListCollection = defineCollection<ContactListView, ContactListForm>({
  name: "contact-lists",
  path: "/contact-lists",
  pageField: "records",
  matches: (list, search) => list.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: byName,
  live: { channel: "contactList", item: "record", idField: "id" },
});

/** GET /contact-lists/list: every list of the company, by name (the campaign dialog's picker). */
export function useContactListOptions(enabled = true) {
  return useQuery({
    queryKey: [...contactListCollection.keys.all, "options"],
    queryFn: ({ signal }) => api<ContactListView[]>("/contact-lists/list", { signal }),
    enabled,
    // read again each time the dialog opens a few seconds apart: a list made meanwhile shows at once
    staleTime: 5_000,
  });
}

/** A new item names its list; an edited one is only its fields. */
export type ContactListItemSave = ContactListItemCreate | ContactListItemForm;

function defineItems(listId: number) {
  return defineCollection<ContactListItemView, ContactListItemSave>({
    name: `contact-list-items:${listId}`,
    path: "/contact-list-items",
    pageField: "contacts",
    params: { contactListId: listId },
    // the server's rule: name or email contain the text, or the number its digits (three at least)
    matches: (item, search) => {
      const needle = search.trim().toLowerCase();
      if (!needle) return true;
      const digits = normalizeNumber(needle);
      return (
        item.name.toLowerCase().includes(needle) ||
        item.email.toLowerCase().includes(needle) ||
        (digits.length >= 3 && item.number.includes(digits))
      );
    },
    order: byName,
  });
}

export type ContactListItemCollection = ReturnType<typeof defineItems>;
const itemCollections = new Map<number, ContactListItemCollection>();

/** One list's numbers (GET /contact-list-items?contactListId), 20 a page by name: its caches are its own. */
export function contactListItemCollection(listId: number): ContactListItemCollection {
  let items = itemCollections.get(listId);
  if (!items) {
    items = defineItems(listId);
    itemCollections.set(listId, items);
  }
  return items;
}

/** Rows of a large import written so far, of those the sheet had. */
export type ImportProgress = { done: number; total: number };

/**
 * The list's own channel while its page is open: numbers added, changed (their WhatsApp check too) or
 * removed patch the loaded pages; `reload` reads them again; `import` is a large import's progress.
 */
export function useContactListItemEvents(listId: number, onImportProgress: (progress: ImportProgress) => void): void {
  const client = useQueryClient();
  const items = contactListItemCollection(listId);
  useSocketEvent(
    "contactListItemsOf",
    (event) => {
      switch (event.action) {
        case "create":
        case "update":
          items.upsert(client, event.record);
          return;
        case "delete":
          items.remove(client, event.id);
          return;
        case "reload":
          void client.invalidateQueries({ queryKey: items.keys.lists() });
          return;
        case "import":
          onImportProgress({ done: event.done, total: event.total });
      }
    },
    listId,
  );
}

/** GET /contact-lists/example: the example sheet in the interface's language, saved under `fileName`. */
export function useDownloadExample() {
  return useMutation({
    mutationFn: async ({ language, fileName }: { language: Language; fileName: string }) =>
      saveBlob(await apiBlob("/contact-lists/example", { query: { lang: language } }), fileName),
  });
}

/**
 * POST /contact-lists/{id}/upload: the sheet, with its upload's progress (0 to 1). The list's page
 * and the lists' counts are read again after it, in case the socket missed the events.
 */
export function useImportContactList(listId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (sent: number) => void }) => {
      const form = new FormData();
      form.append("file", file);
      return apiUpload<ContactListImportResult>(`/contact-lists/${listId}/upload`, form, onProgress);
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: contactListItemCollection(listId).keys.lists() });
      void client.invalidateQueries({ queryKey: contactListCollection.keys.lists() });
    },
  });
}
