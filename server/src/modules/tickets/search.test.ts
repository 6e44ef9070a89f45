import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoped } from "../../db/scoped.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildContact, buildMessage, buildTicket, type Session } from "../../test/factories.js";
import { caller } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { pageTickets, SEARCH_DENSE, SEARCH_SAMPLE, type SearchStrategy, sampleStrategy, searchStrategyFor } from "./queries.js";
import { loadViewer } from "./viewer.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

/** Ana and Beto serve Soporte, where tickets land. */
const world = () =>
  scenario(t.app, {
    queues: { support: "Soporte" },
    agents: { ana: { name: "Ana", queues: ["support"] }, beto: { name: "Beto", queues: ["support"] } },
  });

const ids = async (s: Session, query: string) => {
  const res = await call(s, "GET", `/tickets?${query}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { tickets: { id: number }[] }).tickets.map((x) => x.id);
};

describe("#tickets search in every message", () => {
  it("finds a ticket by any of its messages: stems and accents ignored, beginnings of words; never deleted words, hidden tickets or other companies", async () => {
    const w = await world();
    const refund = await w.ticket({ lastMessage: "gracias" });
    await buildMessage(t.app, refund, { body: "Necesito el Reembolsó de mi pedido 4471" });
    await buildMessage(t.app, refund, { body: "gracias" });
    const wiped = await w.ticket();
    await buildMessage(t.app, wiped, { body: "un reembolso que se borró", isDeleted: true });
    // a colleague's open ticket stays hidden from an agent, whatever it says
    const hidden = await w.ticket({ status: "open", userId: w.ana.id });
    await buildMessage(t.app, hidden, { body: "reembolso urgente" });
    const elsewhere = await buildCompany(t.app);
    const foreign = await buildTicket(t.app, elsewhere.id, { contactId: (await buildContact(t.app, elsewhere.id)).id });
    await buildMessage(t.app, foreign, { body: "reembolso" });

    // the word in an older message (not the last one), in another form and without its accent
    expect(await ids(w.admin, "status=pending&searchParam=reembolsos")).toEqual([refund.id]);
    expect(await ids(w.admin, "status=pending&searchParam=REEMBOLSO")).toEqual([refund.id]);
    // the beginning of a word (as it is being typed) and of a number, and two words in one message
    expect(await ids(w.admin, "status=pending&searchParam=reemb")).toEqual([refund.id]);
    expect(await ids(w.admin, "status=pending&searchParam=447")).toEqual([refund.id]);
    expect(await ids(w.admin, "status=pending&searchParam=pedido%20reemb")).toEqual([refund.id]);
    expect(await ids(w.admin, "status=pending&searchParam=pedido%20gracias")).toEqual([]);
    // text that is no word at all matches nothing instead of failing
    expect(await ids(w.admin, "status=pending&searchParam=%22'%3A*%26%7C!()")).toEqual([]);
    expect(await ids(w.admin, "status=pending&searchParam=borró")).toEqual([]);
    // staff find the colleague's open ticket; an agent of that queue does not
    expect(await ids(w.admin, "status=open&showAll=true&searchParam=urgente")).toEqual([hidden.id]);
    expect(await ids(w.as.beto, "searchParam=urgente")).toEqual([]);
    expect(await ids(w.as.beto, "searchParam=reembolso")).toEqual([refund.id]);
  });

  it("answers the same pages whether it collects the matches or walks the list, and says which it takes", async () => {
    const w = await world();
    // 45 matching tickets (more than a page of 40) among others that do not match; one matches by name
    const matching: number[] = [];
    for (let i = 0; i < 45; i++) {
      const tk = await w.ticket();
      await buildMessage(t.app, tk, { body: i % 2 ? "quiero un reembolso" : "Reembolsó pendiente" });
      await buildMessage(t.app, tk, { body: "gracias" });
      matching.push(tk.id);
      const other = await w.ticket();
      await buildMessage(t.app, other, { body: "consulta de envío" });
    }
    const named = await w.ticket({ contactId: (await buildContact(t.app, w.companyId, { name: "Reembolsos SRL" })).id });
    matching.push(named.id);

    const q = scoped(t.app.charla.db, w.companyId);
    const viewer = await loadViewer(q, { ...w.company.admin, sessionId: "x", plan: null });
    const filters = { searchParam: "reembolso", pageNumber: 1, showAll: true } as Parameters<typeof pageTickets>[2];
    const pages = async (strategy: SearchStrategy) => {
      const first = await pageTickets(q, viewer, filters, strategy);
      const second = await pageTickets(q, viewer, { ...filters, pageNumber: 2 }, strategy);
      return { first, second, all: [...first.tickets, ...second.tickets].map((x) => x.id) };
    };
    const collect = await pages("collect");
    const walk = await pages("walk");
    expect(walk.all).toEqual(collect.all);
    expect([...collect.all].sort((a, b) => a - b)).toEqual([...matching].sort((a, b) => a - b));
    expect(collect.first).toMatchObject({ hasMore: true, count: 41 });
    expect(collect.second).toMatchObject({ hasMore: false, count: 46 });
    expect(walk.first.hasMore).toBe(true);
    // 46 of the 91 newest tickets match: common, the list is walked; a word of one ticket is collected
    expect(SEARCH_SAMPLE).toBeGreaterThan(91);
    expect(SEARCH_DENSE).toBeLessThan(46);
    expect(await sampleStrategy(q, "reembolso")).toBe("walk");
    expect(await sampleStrategy(q, "pendiente")).toBe("walk");
    expect(await searchStrategyFor(q, "factura")).toBe("collect");
    await buildMessage(t.app, named, { body: "la factura llegó" });
    expect(await sampleStrategy(q, "factura")).toBe("collect");
    expect(await sampleStrategy(q, "nada")).toBe("collect");
    // the choice is kept for a while: a word that turns common meanwhile still finds its tickets
    for (let i = 0; i < SEARCH_DENSE; i++) await buildMessage(t.app, await w.ticket(), { body: "otra factura" });
    expect(await sampleStrategy(q, "factura")).toBe("walk");
    expect(await searchStrategyFor(q, "factura")).toBe("collect");
    expect((await pageTickets(q, viewer, { ...filters, searchParam: "factura" })).tickets).toHaveLength(SEARCH_DENSE + 1);
  });
});
