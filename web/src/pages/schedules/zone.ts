/**
 * Wall-clock times in the company's zone (secondary §9: America/Noronha unless set), whatever the
 * browser's own zone: a schedule is typed and shown as the company reads its clock.
 */
const fmtCache = new Map<string, Intl.DateTimeFormat>();

function partsIn(at: Date, zone: string) {
  let fmt = fmtCache.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    fmtCache.set(zone, fmt);
  }
  const parts = fmt.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** The zone's offset from UTC at an instant, in minutes. */
function offsetAt(at: Date, zone: string): number {
  const p = partsIn(at, zone);
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** "YYYY-MM-DD" and "HH:mm" read in `zone`, as an ISO instant with that zone's offset. */
export function zonedToIso(date: string, time: string, zone: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  // twice: the offset in force at the wall time, not at the UTC reading of it
  let offset = offsetAt(new Date(asUtc), zone);
  offset = offsetAt(new Date(asUtc - offset * 60_000), zone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date}T${time}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An instant as the date ("YYYY-MM-DD") and time ("HH:mm") it reads in `zone`. */
export function isoToZoned(iso: string, zone: string): { date: string; time: string } {
  const p = partsIn(new Date(iso), zone);
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** DD/MM/YYYY HH:mm in `zone` (secondary §1 formats). */
export function formatInZone(iso: string | null, zone: string): string {
  if (!iso) return "";
  const p = partsIn(new Date(iso), zone);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}
