import { TicketListQuery } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listConditions, type SearchStrategy } from "../modules/tickets/queries.js";
import type { Viewer } from "../modules/tickets/viewer.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, buildContact, buildTicket } from "../test/factories.js";
import { contacts, queues, tickets } from "./schema/index.js";
import { Binds, shaped } from "./shaped.js";

const dialect = new PgDialect();
const textOf = (where: ReturnType<typeof listConditions>) => dialect.sqlToQuery(sql`select 1 from ${tickets} where ${where}`);

const viewer = (over: Partial<Viewer>): Viewer => ({
  id: 7,
  name: "V",
  profile: "user",
  super: false,
  allTicket: "disable",
  queueIds: [1, 2],
  areaConnectionIds: [],
  whatsappId: null,
  ...over,
});

describe("shaped statements", () => {
  it("refuse a query that carries a value in its text: it would be served to the next caller of the shape", async () => {
    const db = drizzle.mock();
    const b = new Binds();
    b.v("companyId", 1);
    await expect(shaped(db, "test.inline", b, () => db.select().from(tickets).where(eq(tickets.id, 5)))).rejects.toThrow(
      /carries a value in its text/,
    );
  });

  it("refuse one name bound to two values", () => {
    const b = new Binds();
    b.v("companyId", 1);
    expect(() => b.v("companyId", 2)).toThrow(/two values/);
    expect(() => b.v("companyId", 1)).not.toThrow();
  });

  it("the ticket list's filters: calls of one shape build one text, whatever their values", () => {
    const viewers: Viewer[] = [
      viewer({ profile: "admin" }),
      viewer({ profile: "user", super: true }),
      viewer({}),
      viewer({ id: 9, queueIds: [3] }),
      viewer({ queueIds: [] }),
      viewer({ allTicket: "enable" }),
      viewer({ allTicket: "enable", queueIds: [] }),
      // agents of areas some connection serves: the chatbot's queue-less tickets there are theirs to watch
      viewer({ areaConnectionIds: [4] }),
      viewer({ id: 9, queueIds: [3], areaConnectionIds: [4, 5] }),
      viewer({ allTicket: "enable", areaConnectionIds: [4] }),
    ];
    const filters: Record<string, unknown>[] = [
      {},
      { status: "open" },
      // an agent's pending tab: the same names as the open tab, without its "own tickets only"
      { status: "pending" },
      { status: "open", showAll: "true" },
      { status: "pending", queueIds: "[1,2]" },
      { status: "closed", queueIds: "[4]" },
      { users: "[3,4]" },
      { users: "[5]", status: "open" },
      { tags: "[1]" },
      { tags: "[1,2,2]" },
      { withUnreadMessages: "true" },
      { date: "2026-01-02" },
      { updatedAt: "2026-01-03", date: "2026-01-01" },
      { searchParam: "reembolso" },
      { searchParam: "+55 11 4471" },
      { searchParam: "ana", status: "open", tags: "[2]", queueIds: "[2]" },
    ];
    const strategies: SearchStrategy[] = ["collect", "walk"];
    const byShape = new Map<string, string>();
    let checked = 0;
    for (const v of viewers) {
      for (const raw of filters) {
        for (const strategy of strategies) {
          const f = TicketListQuery.parse(raw);
          for (const companyId of [1, 2]) {
            const b = new Binds();
            const query = textOf(listConditions(b, companyId, v, f, strategy));
            const shape = b.shape;
            const seen = byShape.get(shape);
            if (seen === undefined) byShape.set(shape, query.sql);
            else expect(query.sql, `shape ${shape}`).toBe(seen);
            // every value travels as a placeholder: none is written into the text
            expect(query.params.every((p) => typeof p === "object" && p !== null && "name" in p)).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(viewers.length * filters.length * strategies.length * 2);
    // shapes are few: the statements PostgreSQL keeps prepared stay bounded
    expect(byShape.size).toBeGreaterThan(20);
    expect(byShape.size).toBeLessThan(checked / 2);
  });
});

describe("shaped statements on a database", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await getTestApp();
  });
  afterAll(() => t.close());

  it("are built once for the pool and every transaction after it, with the same rows (left joins' nulls included)", async () => {
    const { id: companyId } = await buildCompany(t.app);
    const contact = await buildContact(t.app, companyId, { name: "Pía" });
    const ticket = await buildTicket(t.app, companyId, { contactId: contact.id, queueId: null });
    const db = t.app.charla.db;
    let builds = 0;
    const run = (handle: typeof db) => {
      const b = new Binds();
      const id = b.v("id", ticket.id);
      const owner = b.v("companyId", companyId);
      return shaped(handle, "test.ticketWithRelations", b, () => {
        builds++;
        return handle
          .select({
            id: tickets.id,
            createdAt: tickets.createdAt,
            contact: { name: contacts.name },
            queue: { name: queues.name },
          })
          .from(tickets)
          .leftJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, owner)))
          .leftJoin(queues, and(eq(queues.id, tickets.queueId), eq(queues.companyId, owner)))
          .where(and(eq(tickets.companyId, owner), eq(tickets.id, id)));
      });
    };
    const onPool = await run(db);
    const inTransactions = [
      await db.transaction((tx) => run(tx as unknown as typeof db)),
      await db.transaction((tx) => run(tx as unknown as typeof db)),
    ];
    expect(builds).toBe(1);
    expect(onPool).toEqual([{ id: ticket.id, createdAt: ticket.createdAt, contact: { name: "Pía" }, queue: null }]);
    for (const rows of inTransactions) expect(rows).toEqual(onPool);
    expect(onPool[0].createdAt).toBeInstanceOf(Date);
  });
});
