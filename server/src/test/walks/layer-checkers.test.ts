import { describe, expect, it } from "vitest";
import { blankComments } from "./code-text.js";
import { importCircles, importEdges, parseImports, upwardEdges } from "./import-graph.js";
import { rawHandleExempt, unscopedStatements } from "./raw-handle.js";

/** The checkers behind layers.test.ts, on sources written here: a checker that saw nothing would pass. */
describe("parseImports", () => {
  it("reads static, re-exported, side-effect and dynamic imports, and which are type-only", () => {
    const src = [
      `import { a,`,
      `  b } from "./multi.js";`,
      `import type { T } from "../types.js";`,
      `import { type U, type V } from "./only-types.js";`,
      `import W, { type X } from "./mixed.js";`,
      `export { y } from "./re.js";`,
      `export * from "./star.js";`,
      `export const z = 1;`,
      `import "./side.js";`,
      `const lazy = () => import("./lazy.js");`,
      `type Q = typeof import("./typeof.js");`,
      `// import { gone } from "./commented.js";`,
      `/* import { gone } from "./block.js"; */`,
      "const url = `http://x//y`; const re = /\\/\\//;",
    ].join("\n");
    expect(parseImports(src).map((i) => [i.spec, i.typeOnly, i.line])).toEqual([
      ["./multi.js", false, 1],
      ["../types.js", true, 3],
      ["./only-types.js", true, 4],
      ["./mixed.js", false, 5],
      ["./re.js", false, 6],
      ["./star.js", false, 7],
      ["./side.js", false, 9],
      ["./lazy.js", false, 10],
      ["./typeof.js", true, 11],
    ]);
  });

  it("blanks comments but not a `//` inside strings, templates or regexes", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a sample, not a template
    const src = 'const a = "//no"; // yes\nconst b = `${x}//no`; const c = /\\/\\//; /* yes */';
    const out = blankComments(src);
    expect(out).toHaveLength(src.length);
    expect(out).toContain('"//no"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a sample, not a template
    expect(out).toContain("`${x}//no`");
    expect(out).not.toContain("yes");
  });
});

describe("import graph", () => {
  const sources: Record<string, string> = {
    "realtime/socket.ts": `import { loadPrincipal } from "../modules/auth/principal.js";\nimport { x } from "../lib/x.js";`,
    "modules/auth/principal.ts": `import { a } from "./a.js";`,
    "modules/auth/a.ts": `import type { P } from "./principal.js";`,
    "lib/x.ts": `import { y } from "./y.js";`,
    "lib/y.ts": `import { z } from "./z/index.js";`,
    "lib/z/index.ts": `import { x } from "../x.js";`,
  };
  const edges = importEdges(Object.keys(sources), (f) => sources[f]);

  it("resolves relative specifiers to the source files, index.ts included", () => {
    expect(edges.map((e) => `${e.from} -> ${e.to}`)).toContain("lib/y.ts -> lib/z/index.ts");
  });

  it("lists the imports that run up the layers", () => {
    const up = upwardEdges(edges, ["realtime", "lib"], ["modules", "pipeline"]);
    expect(up.map((e) => `${e.from}:${e.line} -> ${e.to}`)).toEqual(["realtime/socket.ts:1 -> modules/auth/principal.ts"]);
  });

  it("finds each circle once, and tells the type-only ones", () => {
    expect(importCircles(edges)).toEqual(
      expect.arrayContaining([
        { files: ["lib/x.ts", "lib/y.ts", "lib/z/index.ts"], typeOnly: false },
        { files: ["modules/auth/a.ts", "modules/auth/principal.ts"], typeOnly: true },
      ]),
    );
    expect(importCircles(edges)).toHaveLength(2);
  });
});

describe("unscopedStatements", () => {
  const tenant = [
    { name: "tickets", sqlName: "tickets" },
    { name: "messages", sqlName: "messages" },
  ];
  const head = `import { companies, messages, tickets } from "../../db/schema/index.js";\n`;
  const check = (body: string) =>
    unscopedStatements("modules/tags/routes.ts", head + body, tenant).map((u) => `${u.kind} ${u.table}`);

  it("lists a select, update, delete, insert or sql text on a tenant table without its company", () => {
    expect(check("const rows = await db.select().from(tickets);")).toEqual(["from tickets"]);
    expect(check("await tx.update(tickets).set({ companyId: 2 }).where(eq(tickets.id, id));")).toEqual(["update tickets"]);
    expect(check("await tx.delete(messages).where(eq(messages.ticketId, id));")).toEqual(["delete messages"]);
    expect(check("await tx.insert(messages).values(rows);")).toEqual(["insert messages"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a sample, not a template
    expect(check("await db.execute(sql`select id from tickets where id = ${id}`);")).toEqual(["sql tickets"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a sample, not a template
    expect(check("await db.execute(sql`update ${tickets} set status = 'closed'`);")).toEqual(["sql tickets"]);
  });

  it("does not take the selected columns or a join key for a company condition", () => {
    expect(check("await db.select({ c: tickets.companyId }).from(tickets).where(eq(tickets.id, 1));")).toEqual(["from tickets"]);
    expect(
      check(
        "await db.select().from(tickets).innerJoin(companies, eq(companies.id, tickets.companyId)).where(eq(companies.status, true));",
      ),
    ).toEqual(["from tickets"]);
  });

  it("accepts a company condition, the scoped door, and conditions held in a name or a local helper", () => {
    expect(check("await db.select().from(tickets).where(and(eq(tickets.companyId, cid), eq(tickets.id, 1)));")).toEqual([]);
    expect(check("await q.db.select().from(tickets).where(q.tickets.where(eq(tickets.id, 1)));")).toEqual([]);
    expect(check("await tx.insert(messages).values({ companyId, ticketId, body });")).toEqual([]);
    expect(check("const where = q.tickets.where(eq(tickets.id, 1));\nawait q.db.select().from(tickets).where(where);")).toEqual(
      [],
    );
    expect(check("await db.delete(messages).where(own(ref));\nconst own = (r) => eq(messages.companyId, r.companyId);")).toEqual(
      [],
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a sample, not a template
    expect(check("await db.execute(sql`select id from tickets where company_id = ${cid}`);")).toEqual([]);
  });

  it("ignores comments, non-tenant tables and other `.from` calls", () => {
    expect(check("// await db.select().from(tickets);\nawait db.select().from(companies);\nArray.from(tickets);")).toEqual([]);
  });

  it("exempts db/ and the module services and finders, not routes or other files", () => {
    expect(
      ["db/seed.ts", "modules/tags/service.ts", "modules/queues/option-service.ts", "modules/tags/queries.ts"].map(
        rawHandleExempt,
      ),
    ).toEqual([true, true, true, true]);
    expect(["modules/tags/routes.ts", "modules/messages/send.ts", "jobs/ticket-expiry.ts"].map(rawHandleExempt)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
