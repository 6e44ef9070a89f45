import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema/index.js";
import { importCircles, importEdges, productSources, upwardEdges } from "./import-graph.js";
import { type Allowed, type TenantTable, rawHandleOffences } from "./raw-handle.js";
import { TICKET_OWNERS, ticketWriteOffences } from "./ticket-owner.js";

/**
 * The layers of style.md, read from the source (issue 27 point 7): the lower folders never import
 * modules/ or pipeline/, server/src has no import circle (type-only imports count: they still tie the
 * files together), and outside db/ and the module services no statement touches a tenant table
 * without naming its company, but for the cross-tenant ones listed below with their reason.
 */
const LOWER = ["auth", "channels", "db", "lib", "plugins", "policies", "realtime"];
const UPPER = ["modules", "pipeline"];

/** Statements that act across companies by design: each entry is a file's count and why. */
const ALLOWED_UNSCOPED: Record<string, Allowed> = {
  "auth/principal.ts": {
    count: 1,
    reason: "login: a refused token's session is read by its id to tell a company swap (403) from a revoked session (401)",
  },
  "modules/external-api/auth.ts": {
    count: 1,
    reason:
      "external API: a bearer token names its connection, and so its company, by the token's hash (as a login names its user); everything after works in that company",
  },
  "modules/cloud/webhook-routes.ts": {
    count: 1,
    reason:
      "Meta's webhook: the random key in its URL names the Cloud API connection, and so its company (as an API token does); the job it writes works in that company",
  },
  "channels/leases.ts": {
    count: 4,
    reason: "leases: the nodes share out every company's connections, read by id and status, never shown to a user",
  },
  "jobs/durable/run.ts": {
    count: 8,
    reason:
      "durable jobs: claim, lease, settle and prune take due rows of every company by id (SKIP LOCKED); the handler then works in its job's company",
  },
  "jobs/ticket-expiry.ts": {
    count: 1,
    reason:
      "sweep: the connections with an expiry in every company in good standing; each ticket is then closed through scoped()",
  },
  "modules/campaigns/lifecycle.ts": {
    count: 2,
    reason: "sweep: due campaigns of every company start, and their waiting shippings move, by the claimed rows' ids",
  },
  "modules/campaigns/sender.ts": {
    count: 7,
    reason:
      "sweep: due shippings of every company are claimed (SKIP LOCKED), then settled by the claimed row's id; a campaign ends when none of its own is left",
  },
  "modules/schedules/sender.ts": {
    count: 2,
    reason:
      "sweep: due schedules of every company are claimed (SKIP LOCKED) and leased by the claimed rows' ids; each is then sent and settled within its company",
  },
  "channels/baileys/auth-state.ts": {
    count: 2,
    reason:
      "company-bound, not cross-tenant: the rows spread `ref` (companyId + whatsappId), which a reading of the text cannot see into",
  },
  "channels/baileys/contacts-book.ts": {
    count: 1,
    reason: "company-bound through `ref` (companyId + whatsappId) spread into each row",
  },
  "channels/baileys/lid-store.ts": {
    count: 1,
    reason: "company-bound through `ref` (companyId + whatsappId) spread into the row",
  },
};

const root = fileURLToPath(new URL("../..", import.meta.url));
const files = productSources(root);
const read = (file: string) => readFileSync(`${root}/${file}`, "utf8");
const edges = importEdges(files, read);

const tenant: TenantTable[] = (Object.values(schema) as unknown[])
  .filter((v): v is PgTable => is(v, PgTable) && "companyId" in getTableColumns(v))
  .map((t) => ({ name: exportName(t), sqlName: getTableName(t) }));

function exportName(table: PgTable): string {
  return Object.entries(schema).find(([, v]) => v === table)?.[0] ?? getTableName(table);
}

/** Entries that no longer hold: other helpers land their work in any order, the integrator removes these. */
function printDone(done: string[]) {
  if (done.length) console.warn(`layers: no longer needed, remove from the lists:\n  ${done.join("\n  ")}`);
}

describe("layers of server/src", () => {
  it("finds the product's files and their imports", () => {
    // a walk that read nothing would pass every rule below
    expect(files.length).toBeGreaterThan(150);
    expect(edges.length).toBeGreaterThan(500);
    expect(tenant.map((t) => t.name)).toEqual(expect.arrayContaining(["tickets", "messages", "jobs", "userSessions"]));
  });

  it(`${LOWER.join("/, ")}/ import nothing from ${UPPER.join("/ or ")}/`, () => {
    const upward = upwardEdges(edges, LOWER, UPPER);
    const offences = upward.map((e) => `${e.from}:${e.line} imports ${e.to}${e.typeOnly ? " (type only)" : ""}`);
    expect(offences, "a lower layer reaches up; move the code down (or invert it through a port)").toEqual([]);
  });

  it("has no import circle", () => {
    const circles = importCircles(edges);
    const offences = circles.map((c) => `${c.typeOnly ? "type-only " : ""}circle of ${c.files.length}: ${c.files.join(", ")}`);
    expect(offences).toEqual([]);
  });

  it("reaches tenant tables with a company condition outside db/ and the module services, but for the listed", () => {
    const sources = files.map((file) => ({ file, source: read(file) }));
    const { offences, slack } = rawHandleOffences(sources, tenant, ALLOWED_UNSCOPED);
    printDone(slack);
    expect(offences, "scope the statement (q.<table>.where, a companyId condition) or list it with its reason").toEqual([]);
  });

  it("writes a ticket's status and its tracking episodes only in the ticket lifecycle's files (issue 40)", () => {
    const sources = files.map((file) => ({ file, source: read(file) }));
    for (const owner of Object.keys(TICKET_OWNERS)) expect(files, `${owner} is gone: update the owners`).toContain(owner);
    const offences = ticketWriteOffences(sources).map((o) => `${o.file}:${o.line} writes ${o.what}: ${o.text}`);
    expect(offences, "change a ticket through modules/tickets/transitions.ts (or openings.ts)").toEqual([]);
  });

  it("catches a ticket closed, or an episode written, by hand outside them", () => {
    const file = "modules/tags/service.ts";
    const forged = `${read(file)}
export const closeByHand = (q: Scoped, id: number) => q.tickets.update(id, { status: "closed" });
export const trackByHand = (tx: Tx) => tx.update(ticketTracking).set({ finishedAt: new Date() });
// a comment naming q.tickets.update(id, { status: "open" }) is no write
`;
    const offences = ticketWriteOffences([{ file, source: forged }]);
    expect(offences.map((o) => o.what).sort()).toEqual(["status", "tracking"]);
    expect(ticketWriteOffences([{ file: "modules/tickets/transitions.ts", source: forged }])).toEqual([]);
  });

  it("fails a route that reads tickets on the raw handle, through the same rule and lists", () => {
    const file = "modules/tags/routes.ts";
    const sources = files.map((f) => ({
      file: f,
      source:
        f === file
          ? `${read(f)}\nimport { tickets as t } from "../../db/schema/index.js";\nexport const leak = (db: Db) => db.select().from(t);\n`
          : read(f),
    }));
    const { offences } = rawHandleOffences(sources, tenant, ALLOWED_UNSCOPED);
    expect(offences.join("\n")).toContain(`${file}: 1 statements on a tenant table without a company condition, 0 allowed`);
    expect(offences.join("\n")).toMatch(/modules\/tags\/routes\.ts:\d+ from\(tickets\): db\.select\(\)\.from\(t\)/);
  });
});
