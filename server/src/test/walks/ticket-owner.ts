import { blankComments } from "./code-text.js";

/**
 * Who writes a ticket's status and its tracking episodes (issue 40): the lifecycle's own files, and the
 * inbound statement, which creates a customer's new pending ticket and its first episode by the same rule.
 */
export const TICKET_OWNERS: Record<string, string> = {
  "modules/tickets/transitions.ts": "the transitions: accept, return, transfer, resolve, reopen, expire, routing, the bot's step",
  "modules/tickets/openings.ts": "which ticket a customer's or the company's message goes to (new, reopened, taken)",
  "modules/tickets/episodes.ts": "the tracking episodes the transitions keep",
  "pipeline/writer.ts": "the inbound statement: a new contact's pending ticket and its first episode, in one statement",
};

export type TicketWrite = { file: string; line: number; what: "status" | "tracking"; text: string };

const lineOf = (src: string, at: number) => src.slice(0, at).split("\n").length;
/** The statement a write starts: up to its end (`;`) or a bounded stretch, enough to hold its values. */
const statementAt = (code: string, at: number) => {
  const end = code.indexOf(";", at);
  return code.slice(at, end < 0 ? at + 800 : Math.min(end, at + 1500));
};

const TRACKING = [
  /\.(?:insert|update)\(\s*ticketTracking\s*\)/g,
  /\bticketTracking\.(?:insert|update)\(/g,
  /\b(?:insert\s+into|update)\s+ticket_tracking\b/gi,
];
const TICKET_WRITES = [
  /\.(?:insert|update)\(\s*tickets\s*\)/g,
  /\btickets\.(?:insert|update)\(/g,
  /\b(?:insert\s+into|update)\s+tickets\b/gi,
];
/** A status among the values written: `status:` in a patch, or the column in SQL. */
const STATUS = /\bstatus\s*:|\bstatus\s*=|[(,]\s*status\s*[,)]/;

/** The writes of ticket status or episodes outside the owners, in product sources (comments ignored). */
export function ticketWriteOffences(sources: { file: string; source: string }[]): TicketWrite[] {
  const found: TicketWrite[] = [];
  for (const { file, source } of sources) {
    if (file in TICKET_OWNERS) continue;
    const code = blankComments(source);
    for (const re of TRACKING) {
      for (const m of code.matchAll(re)) {
        found.push({ file, line: lineOf(code, m.index ?? 0), what: "tracking", text: m[0] });
      }
    }
    for (const re of TICKET_WRITES) {
      for (const m of code.matchAll(re)) {
        const statement = statementAt(code, m.index ?? 0);
        if (STATUS.test(statement))
          found.push({ file, line: lineOf(code, m.index ?? 0), what: "status", text: statement.split("\n")[0].trim() });
      }
    }
  }
  return found;
}
