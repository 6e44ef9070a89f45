/** The seeded company's zone (core §9's default): every date and hour of the web reads on it. */
export const COMPANY_ZONE = "America/Noronha";

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant on the company's clock as the web shows it: DD/MM/YYYY and HH:mm, whatever the zone of
 * the browser (or of this process).
 */
export function onCompanyClock(at: Date | string | number, zone = COMPANY_ZONE): { date: string; time: string } {
  let fmt = formatters.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(zone, fmt);
  }
  const parts = fmt.formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { date: `${get("day")}/${get("month")}/${get("year")}`, time: `${get("hour")}:${get("minute")}` };
}

/** The company's clock `minutes` from now, as the date-and-hour fields take it (and show it back). */
export const companyNow = (minutes = 0, zone = COMPANY_ZONE) => onCompanyClock(Date.now() + minutes * 60_000, zone);

/** The company's clock `minutes` from now as a user types it in the date-and-hour fields: digits only (they add the slashes and colon). */
export function companyTyped(minutes = 0, zone = COMPANY_ZONE): { date: string; time: string } {
  const when = companyNow(minutes, zone);
  return { date: when.date.replace(/\D/g, ""), time: when.time.replace(/\D/g, "") };
}
