import { blankComments, lineAt } from "./code-text.js";
import type { Allowed } from "./raw-handle.js";

/** A change told by hand from inside a transaction, instead of through its hooks' `publish`. */
export type HandPublication = { file: string; line: number; text: string };

/** What an `afterCommit` argument says when it tells of a change: an event, a socket, an announcer. */
const TELLS = /publish|emit|\.events\.|announce|tell|broadcast/;

/**
 * `afterCommit(…)` calls whose argument publishes or emits (`afterCommit(change.emit)`,
 * `afterCommit(() => ctx.events.publish(…))`): withTransaction's `publish` says the same in one way,
 * and runs the event's write and durable listeners in the transaction. What is not an event (a file
 * removed once its row is gone) stays `afterCommit`. A reading of the text: a helper whose name says
 * nothing of telling is not seen.
 */
export function handPublications(file: string, source: string): HandPublication[] {
  const code = blankComments(source);
  const found: HandPublication[] = [];
  for (const m of code.matchAll(/\bafterCommit\s*\(/g)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const close = closingParen(code, open);
    const call = code.slice(m.index, close + 1);
    if (TELLS.test(code.slice(open + 1, close))) found.push({ file, line: lineAt(code, m.index ?? 0), text: oneLine(call) });
  }
  return found;
}

/** `events.within(tx, afterCommit, event)`: the bus's older form of a transaction's `publish`. */
export function withinCalls(file: string, source: string): HandPublication[] {
  const code = blankComments(source);
  return [...code.matchAll(/\bevents\s*\.\s*within\s*\(/g)].map((m) => {
    const close = closingParen(code, (m.index ?? 0) + m[0].length - 1);
    return { file, line: lineAt(code, m.index ?? 0), text: oneLine(code.slice(m.index, close + 1)) };
  });
}

/**
 * The offences among what a rule found, file by file against the allowed counts: a file with more
 * than its count lists each place; `slack` names counts larger than what is left (to be lowered),
 * `known` the places still allowed (printed, so the list is seen shrinking).
 */
export function countedOffences(
  found: HandPublication[],
  allowed: Record<string, Allowed>,
  what: string,
): { offences: string[]; slack: string[]; known: string[] } {
  const byFile = new Map<string, HandPublication[]>();
  for (const f of found) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  const offences: string[] = [];
  const known: string[] = [];
  for (const [file, list] of byFile) {
    const allow = allowed[file]?.count ?? 0;
    const lines = list.map((f) => `  ${f.file}:${f.line} ${f.text}`);
    if (list.length > allow) offences.push(`${file}: ${list.length} ${what}, ${allow} allowed`, ...lines);
    else known.push(...lines);
  }
  const slack = Object.entries(allowed)
    .filter(([file, a]) => (byFile.get(file)?.length ?? 0) < a.count)
    .map(([file, a]) => `${file}: ${a.count} allowed, ${byFile.get(file)?.length ?? 0} found`);
  return { offences, slack, known };
}

/** The offset of the `)` closing the `(` at `open`, strings stepped over; the text's end if unclosed. */
function closingParen(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < code.length && code[i] !== c; ) i += code[i] === "\\" ? 2 : 1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return code.length - 1;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 160);
