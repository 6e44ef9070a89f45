import { safeHref } from "../../../lib/safe-href";

/**
 * WhatsApp text formatting (core §2 message text renderer) parsed into a small tree that the screen
 * turns into React elements. Nothing here produces markup: every character the contact typed ends up
 * either as a marker consumed by a span or as text.
 */
export type FormatNode =
  | { type: "text"; text: string }
  | { type: "link"; href: string; text: string }
  | { type: "bold" | "italic" | "strike"; children: FormatNode[] }
  | { type: "mono"; text: string };

const MARKERS: Record<string, "bold" | "italic" | "strike" | "mono"> = { "*": "bold", _: "italic", "~": "strike", "`": "mono" };

// Links stop at whitespace, quotes and angle brackets, so markup around a URL stays text.
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;
// Punctuation that ends a sentence rather than the address.
const TRAILING = /[.,;:!?)\]}*_~]+$/;
const WORD = /[\p{L}\p{N}]/u;

type Range = { start: number; end: number; href: string };

function findLinks(text: string): Range[] {
  const ranges: Range[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const raw = match[0].replace(TRAILING, "");
    const start = match.index ?? 0;
    if (start > 0 && /[\w@/.-]/.test(text[start - 1])) continue;
    const href = safeHref(raw);
    if (href && raw.length > 0) ranges.push({ start, end: start + raw.length, href });
  }
  return ranges;
}

const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);
const isWord = (ch: string | undefined) => ch !== undefined && WORD.test(ch);

function inLink(links: Range[], at: number): boolean {
  return links.some((range) => at >= range.start && at < range.end);
}

/** An opening marker follows a non-word character and is followed by text on the same line. */
function canOpen(text: string, at: number): boolean {
  const next = text[at + 1];
  return !isWord(text[at - 1]) && !isSpace(next) && next !== text[at];
}

/** The matching closer on the same line: preceded by text, not followed by a word character. */
function findCloser(text: string, at: number, end: number, links: Range[]): number {
  const marker = text[at];
  for (let j = at + 2; j < end; j++) {
    if (text[j] === "\n") return -1;
    if (text[j] !== marker || inLink(links, j)) continue;
    if (!isSpace(text[j - 1]) && !isWord(text[j + 1])) return j;
  }
  return -1;
}

function parseRange(text: string, start: number, end: number, links: Range[], depth: number): FormatNode[] {
  const nodes: FormatNode[] = [];
  let plainFrom = start;
  const flush = (until: number) => {
    if (until > plainFrom) nodes.push({ type: "text", text: text.slice(plainFrom, until) });
  };
  let i = start;
  while (i < end) {
    const link = links.find((range) => range.start === i && range.end <= end);
    if (link) {
      flush(i);
      nodes.push({ type: "link", href: link.href, text: text.slice(link.start, link.end) });
      i = link.end;
      plainFrom = i;
      continue;
    }
    const fence = text.startsWith("```", i) ? text.indexOf("```", i + 3) : -1;
    if (fence > i + 3 && fence + 3 <= end) {
      flush(i);
      nodes.push({ type: "mono", text: text.slice(i + 3, fence) });
      i = fence + 3;
      plainFrom = i;
      continue;
    }
    const kind = MARKERS[text[i]];
    const closer = kind && depth < 4 && canOpen(text, i) ? findCloser(text, i, end, links) : -1;
    if (kind && closer > 0) {
      flush(i);
      if (kind === "mono") nodes.push({ type: "mono", text: text.slice(i + 1, closer) });
      else nodes.push({ type: kind, children: parseRange(text, i + 1, closer, links, depth + 1) });
      i = closer + 1;
      plainFrom = i;
      continue;
    }
    i++;
  }
  flush(end);
  return nodes;
}

export function parseFormatting(text: string): FormatNode[] {
  return parseRange(text, 0, text.length, findLinks(text), 0);
}
