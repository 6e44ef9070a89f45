/** core §9: a service time in minutes shown as "HH h mm m" (hours may pass 99). */
export function durationParts(minutes: number): { hours: string; minutes: string } {
  const total = Math.max(0, Math.round(minutes));
  return { hours: String(Math.floor(total / 60)).padStart(2, "0"), minutes: String(total % 60).padStart(2, "0") };
}

/** core §9: filter mode 1 starts on the first of the month and ends today (the company's today, YYYY-MM-DD). */
export function defaultRange(today: string): { from: string; to: string } {
  return { from: `${today.slice(0, 8)}01`, to: today };
}
