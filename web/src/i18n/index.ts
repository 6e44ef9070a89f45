import { ErrorCatalogue, errorCodes } from "@charla/contracts";
import i18n, { type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { readItem, StorageKeys, writeItem } from "../lib/storage";
import { applyDateLocale } from "./dates";

export const languages = ["es", "pt", "en"] as const;
export type Language = (typeof languages)[number];
const fallbackLanguage: Language = "es";

// Every <lang>/<namespace>.json is picked up, so a new area only adds its files.
const files = import.meta.glob<Record<string, unknown>>("./*/*.json", { eager: true, import: "default" });

function buildResources(): Resource {
  const resources: Resource = {};
  for (const language of languages) {
    // The error texts have one source, the contracts catalogue, shared with the API.
    resources[language] = {
      errors: Object.fromEntries(errorCodes.map((code) => [code, ErrorCatalogue[code][language]])),
    };
  }
  for (const [path, content] of Object.entries(files)) {
    const match = /^\.\/(\w+)\/([\w-]+)\.json$/.exec(path);
    if (match && match[1] in resources) resources[match[1]][match[2]] = content;
  }
  return resources;
}

function toLanguage(value: string | null | undefined): Language | null {
  const base = value?.slice(0, 2).toLowerCase();
  return languages.find((language) => language === base) ?? null;
}

function detectLanguage(): Language {
  const candidates = [readItem(StorageKeys.language), ...(navigator.languages ?? []), navigator.language];
  for (const candidate of candidates) {
    const language = toLanguage(candidate);
    if (language) return language;
  }
  return fallbackLanguage;
}

export function currentLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language) ?? fallbackLanguage;
}

function onLanguage(language: string): void {
  writeItem(StorageKeys.language, language);
  applyDateLocale(language);
  document.documentElement.lang = language;
}

i18n.on("languageChanged", onLanguage);

void i18n.use(initReactI18next).init({
  resources: buildResources(),
  lng: detectLanguage(),
  fallbackLng: fallbackLanguage,
  supportedLngs: [...languages],
  defaultNS: "common",
  ns: ["common", "errors"],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export default i18n;
