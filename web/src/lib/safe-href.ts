/**
 * Only web addresses become links: anything the URL parser rejects or maps elsewhere (javascript:,
 * data:, a custom scheme) stays text. Bodies, captions and cards are contact-controlled.
 */
export function safeHref(raw: string | undefined): string | null {
  if (!raw) return null;
  const candidate = /^www\./i.test(raw) ? `https://${raw}` : raw;
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}
