import { SearchMaxHighlights, type SearchSegment } from "@charla/contracts";

/** Lower case without accents, as the database's charla_unaccent compares words. */
export const foldText = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The words of a search as typed, folded: what `exact` means. */
export const typedWords = (q: string) =>
  foldText(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** Text kept before the first highlight when a long body is cut to an excerpt. */
const LEAD = 60;
const EXCERPT = 300;

/**
 * The body as segments, its words that begin with one of `terms` (typed words, their stems, the
 * look-alikes found) highlighted, at most SearchMaxHighlights (core §9). Segments are text: the
 * screen renders them as text, never as HTML. A long body is cut to an excerpt around the first one.
 */
export function highlightSegments(body: string, terms: readonly string[]): SearchSegment[] {
  const usable = [...new Set(terms.filter((t) => t.length >= 2))];
  const marks: [number, number][] = [];
  for (const m of body.matchAll(WORD)) {
    if (marks.length >= SearchMaxHighlights) break;
    const folded = foldText(m[0]);
    if (usable.some((t) => folded.startsWith(t))) marks.push([m.index, m.index + m[0].length]);
  }
  let start = 0;
  let end = body.length;
  if (body.length > EXCERPT) {
    start = marks.length ? Math.max(0, marks[0][0] - LEAD) : 0;
    end = Math.min(body.length, start + EXCERPT);
  }
  const segments: SearchSegment[] = [];
  const push = (text: string, highlight: boolean) => {
    if (!text) return;
    const last = segments.at(-1);
    if (last && !last.highlight && !highlight) last.text += text;
    else segments.push({ text, highlight });
  };
  let at = start;
  if (start > 0) push("…", false);
  for (const [from, to] of marks) {
    if (from < at || to > end) continue;
    push(body.slice(at, from), false);
    push(body.slice(from, to), true);
    at = to;
  }
  push(body.slice(at, end), false);
  if (end < body.length) push("…", false);
  return segments;
}
