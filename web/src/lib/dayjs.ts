import dayjs from "dayjs";
import "dayjs/locale/es-mx";
import "dayjs/locale/pt-br";
import i18n from "../i18n";

/** core §1: es-MX unless the interface is Portuguese (pt-BR) or English. */
const dayjsLocales: Record<string, string> = { es: "es-mx", pt: "pt-br", en: "en" };

function applyDateLocale(language: string | undefined): void {
  dayjs.locale(dayjsLocales[(language ?? "es").slice(0, 2)] ?? dayjsLocales.es);
}

// dayjs in the interface's language, for the screens that need more than i18n/dates.ts; it comes
// with their chunks, not with the first screen's
applyDateLocale(i18n.language);
i18n.on("languageChanged", applyDateLocale);

export default dayjs;
