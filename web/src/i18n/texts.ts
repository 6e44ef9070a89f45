import { readItem, StorageKeys } from "../lib/storage";

export const languages = ["es", "pt", "en"] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = "es";

/*
 * Texts are fetched per language, and per language in two bundles (./bundles): what the login page
 * shows (`auth`) and every other area (`app`), loaded with the signed-in shell. The login page thus
 * carries neither the other languages nor the inbox's texts. Every <lang>/<namespace>.json is picked
 * up by its language's bundle, so a new area only adds its files. This module has no i18next in it:
 * main.tsx starts the first bundle from here while the rest of the app's code is still arriving.
 */
export type Bundle = Record<string, Record<string, unknown>>;
export type Group = "auth" | "app";
export const authNamespaces: readonly string[] = ["common", "login", "errors"];
/**
 * Areas only their own pages read (administration, the dashboard): each language's file is its own
 * chunk, fetched when a page first asks for it, so the inbox does not carry them. Keep this list and
 * the exclusions in ./bundles/*.app.ts alike.
 */
export const pageNamespaces: readonly string[] = [
  "home",
  "queues",
  "tags",
  "quick-messages",
  "kanban",
  "contact-lists",
  "campaigns",
  "file-lists",
  "users",
  "settings",
  "simulator",
  "todolist",
  "helps",
  "financeiro",
  "messagesApi",
  "signup",
  "prompts",
  "integrations",
];
const bundleFiles = import.meta.glob<Bundle>("./bundles/*.{auth,app}.ts", { import: "default" });
const pageFiles = import.meta.glob<Record<string, unknown>>(
  [
    "./*/home.json",
    "./*/queues.json",
    "./*/tags.json",
    "./*/quick-messages.json",
    "./*/kanban.json",
    "./*/contact-lists.json",
    "./*/campaigns.json",
    "./*/file-lists.json",
    "./*/users.json",
    "./*/settings.json",
    "./*/simulator.json",
    "./*/todolist.json",
    "./*/helps.json",
    "./*/financeiro.json",
    "./*/messagesApi.json",
    "./*/signup.json",
    "./*/prompts.json",
    "./*/integrations.json",
  ],
  { import: "default" },
);

/** One page namespace of one language ({} when there is no such file). */
export function loadPageTexts(language: string, namespace: string): Promise<Record<string, unknown>> {
  const load = pageFiles[`./${language}/${namespace}.json`];
  return load ? load() : Promise.resolve({});
}
const bundles = new Map<string, Promise<Bundle>>();

export function loadBundle(language: string, group: Group): Promise<Bundle> {
  const path = `./bundles/${language}.${group}.ts`;
  let bundle = bundles.get(path);
  if (!bundle) {
    const load = bundleFiles[path];
    bundle = load ? load() : Promise.resolve({});
    // a chunk that failed to arrive (network) is asked for again next time
    bundle.catch(() => bundles.delete(path));
    bundles.set(path, bundle);
  }
  return bundle;
}

export function toLanguage(value: string | null | undefined): Language | null {
  const base = value?.slice(0, 2).toLowerCase();
  return languages.find((language) => language === base) ?? null;
}

/** The remembered choice, else the browser's first language we have, else Spanish. */
export function detectLanguage(): Language {
  const candidates = [readItem(StorageKeys.language), ...(navigator.languages ?? []), navigator.language];
  for (const candidate of candidates) {
    const language = toLanguage(candidate);
    if (language) return language;
  }
  return fallbackLanguage;
}

/** The first screen's texts (and, for another language, the Spanish they fall back on), fetched early: main.tsx. */
export function preloadAuthTexts(): void {
  const language = detectLanguage();
  for (const lng of new Set([language, fallbackLanguage])) void loadBundle(lng, "auth").catch(() => undefined);
}

/** The signed-in areas' texts, fetched with the shell's code (i18n's loadAppTexts then finds them). */
export function preloadAppTexts(): void {
  const language = detectLanguage();
  for (const lng of new Set([language, fallbackLanguage])) void loadBundle(lng, "app").catch(() => undefined);
}
