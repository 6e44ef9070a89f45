import { DEFAULT_TIME_ZONE } from "@charla/contracts";

export type TemplateFacts = {
  name?: string;
  user?: string;
  queue?: string;
  email?: string;
  ticketId?: number;
  now?: Date;
  timeZone?: string;
};

function partsIn(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute") };
}

/** Buenos días / Buenas tardes / Buenas noches by the hour in the zone (behaviours: variables). */
export function greetingFor(date: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const hour = Number(partsIn(date, timeZone).hour);
  if (hour >= 5 && hour < 12) return "Buenos días";
  if (hour >= 12 && hour < 19) return "Buenas tardes";
  return "Buenas noches";
}

/**
 * Fills `{{variable}}` in an automatic message: firstName, name, greeting, protocol, date, hour,
 * queue, user, email, and the legacy aliases ms (= greeting), hora and gretting. Unknown names stay.
 */
export function fillTemplate(text: string, facts: TemplateFacts): string {
  const now = facts.now ?? new Date();
  const zone = facts.timeZone ?? DEFAULT_TIME_ZONE;
  const p = partsIn(now, zone);
  const greeting = greetingFor(now, zone);
  const values: Record<string, string> = {
    firstName: (facts.name ?? "").trim().split(/\s+/)[0] ?? "",
    name: facts.name ?? "",
    greeting,
    ms: greeting,
    gretting: greeting,
    protocol: `${p.year}${p.month}${p.day}${facts.ticketId ?? ""}`,
    date: `${p.day}/${p.month}/${p.year}`,
    hour: `${p.hour}:${p.minute}`,
    hora: `${p.hour}:${p.minute}`,
    queue: facts.queue ?? "",
    user: facts.user ?? "",
    email: facts.email ?? "",
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => (key in values ? values[key] : all));
}
