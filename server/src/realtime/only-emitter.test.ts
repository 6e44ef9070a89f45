import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * realtime/listeners is the only place that puts events on the wire (issue 27): services, the pipeline
 * and jobs publish domain events on `s.events`. A static scan of the source (tests and test helpers
 * aside) keeps it so: outside realtime/ nothing emits, picks a room, builds a channel name or ends sockets.
 */
const SRC = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Files that emit on EventEmitters of their own (a stand-in for Baileys' socket), not on Socket.IO. */
const OWN_EMITTERS = new Set(["channels/baileys/demo-socket.ts"]);

const RULES: { name: string; pattern: RegExp }[] = [
  { name: "emits", pattern: /\.emit\s*\(/ },
  { name: "picks a room", pattern: /\.(toCompany|toCompanyExcept|toUsers|toUser|toSession)\s*\(/ },
  { name: "reaches realtime's emitters", pattern: /\brealtime\s*\.\s*(to\w*|io|endSession|endCompany)\b/ },
  { name: "ends sockets", pattern: /\b(endSession|endCompany)\s*\(/ },
  { name: "builds a channel name", pattern: /\bEvents\s*\.\s*\w+\s*\(/ },
  { name: "imports realtime's send", pattern: /from\s+["'][./]*realtime\/send\.js["']/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * The code without its comments (a comment may name what it no longer does), a call chained over
 * several lines joined into one (`s.realtime` / `.toUsers(…)`).
 */
function statements(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
    .replace(/\s*\n\s*\./g, ".")
    .split("\n");
}

function offences(file: string, text: string): string[] {
  return statements(text).flatMap((line) =>
    RULES.filter((r) => r.pattern.test(line)).map((r) => `${file}: ${r.name}: ${line.trim()}`),
  );
}

describe("socket events leave from realtime/ only", () => {
  it("finds no emit, room, channel name or socket ending outside realtime/ (test helpers aside)", () => {
    const found = sourceFiles(SRC)
      .map((path) => relative(SRC, path).split(sep).join("/"))
      .filter((file) => !file.startsWith("realtime/") && !file.startsWith("test/") && !OWN_EMITTERS.has(file))
      .flatMap((file) => offences(file, readFileSync(join(SRC, file), "utf8")));
    expect(found).toEqual([]);
  });

  it("catches each way a service used to reach the wire", () => {
    const before = [
      "ctx.realtime.toCompany(ctx.companyId).emit(Events.user(ctx.companyId), { action, user });",
      "const to = s.realtime.toUsers(companyId, audience);",
      "    s.realtime\n      .toCompanyExcept(companyId, holders)\n      .emit(event, payload);",
      "s.realtime.endSession(id);",
      "  ctx.realtime.endCompany(id);",
      "export async function campaignAnnouncer(realtime: Realtime, q: Scoped) { const to = realtime.toUsers(1, []);",
      'import { send } from "../realtime/send.js";',
    ];
    for (const line of before) expect(offences("x.ts", line), line).not.toEqual([]);
    expect(offences("x.ts", "// realtime.toUsers(companyId, audience).emit(...) is the presenter's now")).toEqual([]);
    expect(offences("x.ts", "await s.realtime.sweepCompanies();")).toEqual([]);
    expect(offences("x.ts", 's.events.publish({ type: "ticket.read", companyId, ticketId, audience });')).toEqual([]);
  });
});
