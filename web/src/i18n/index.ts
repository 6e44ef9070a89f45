import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { StorageKeys, writeItem } from "../lib/storage";
import {
  authNamespaces,
  detectLanguage,
  fallbackLanguage,
  type Language,
  languages,
  loadBundle,
  loadPageTexts,
  pageNamespaces,
  toLanguage,
} from "./texts";

export { type Language, languages };

// i18next asks per language and namespace; a language change reloads every namespace in use
const bundleBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    const texts = pageNamespaces.includes(namespace)
      ? loadPageTexts(language, namespace)
      : loadBundle(language, authNamespaces.includes(namespace) ? "auth" : "app").then((bundle) => bundle[namespace] ?? {});
    texts.then(
      (found) => callback(null, found),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

export function currentLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language) ?? fallbackLanguage;
}

function onLanguage(language: string): void {
  writeItem(StorageKeys.language, language);
  document.documentElement.lang = language;
}

i18n.on("languageChanged", onLanguage);

/** Settles once the login page's texts are in (or failed to arrive): boot.tsx renders after it, so no key ever shows. */
export const authTextsReady: Promise<unknown> = i18n
  .use(bundleBackend)
  .use(initReactI18next)
  .init({
    lng: detectLanguage(),
    fallbackLng: fallbackLanguage,
    supportedLngs: [...languages],
    defaultNS: "common",
    // a copy: i18next adds every namespace it loads later to this array
    ns: [...authNamespaces],
    showSupportNotice: false,
    interpolation: { escapeValue: false },
  })
  .catch(() => undefined);

let appTexts: Promise<unknown> | null = null;

/** The signed-in areas' texts (of the language and of the Spanish fallback), loaded with the shell. */
export function loadAppTexts(): Promise<unknown> {
  appTexts ??= loadBundle(currentLanguage(), "app")
    .then((bundle) => i18n.loadNamespaces(Object.keys(bundle)))
    .catch((error: unknown) => {
      appTexts = null;
      throw error;
    });
  return appTexts;
}

export default i18n;
