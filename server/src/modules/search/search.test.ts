import type { SearchPage, SearchResult } from "@charla/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../db/schema/index.js";
import { rowsOf } from "../../lib/rate-limit.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { buildMessage, type Session } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { highlightSegments } from "./highlight.js";
import { SEARCH_WINDOW } from "./queries.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

/** Ana and Beto serve Soporte, where tickets land; Ventas is nobody's. */
const world = () =>
  scenario(t.app, {
    queues: { support: "Soporte", sales: "Ventas" },
    agents: { ana: { name: "Ana", queues: ["support"] }, beto: { name: "Beto", queues: ["support"] } },
  });

async function search(s: Session, query: string): Promise<SearchPage> {
  const res = await call(s, "GET", `/search?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as SearchPage;
}
const messageIds = (p: SearchPage) => p.results.filter((r) => r.type === "message").map((r) => r.message?.id);
const marked = (r: SearchResult) => r.highlightedBody.filter((s) => s.highlight).map((s) => s.text);

describe("#search", () => {
  it("should require authentication", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/search?q=hola" });
    expect(res.statusCode).toBe(401);
  });

  it("refuses fewer than 3 characters, unknown types and pages over 20", async () => {
    const w = await world();
    for (const query of ["q=ab", "q=%20%20ab%20", "", "q=hola&type=tickets", "q=hola&limit=21", "q=hola&mode=fuzzy"]) {
      expectError(await call(w.admin, "GET", `/search?${query}`), 400, "ERR_VALIDATION");
    }
  });

  it("says which company-side messages the bot sent, as the chat marks them", async () => {
    const w = await world();
    const tk = await w.ticket();
    const bot = await buildMessage(t.app, tk, {
      body: "Bienvenido, elija una opción del catálogo",
      fromMe: true,
      isAutomatic: true,
    });
    const agent = await buildMessage(t.app, tk, { body: "Le envío el catálogo ahora", fromMe: true });
    const contact = await buildMessage(t.app, tk, { body: "¿Tienen catálogo?" });
    const page = await search(w.admin, "q=catalogo&type=messages");
    const byId = new Map(page.results.map((r) => [r.message?.id, r.message]));
    expect(byId.get(bot.id)).toMatchObject({ fromMe: true, isAutomatic: true });
    expect(byId.get(agent.id)).toMatchObject({ fromMe: true, isAutomatic: false });
    expect(byId.get(contact.id)).toMatchObject({ fromMe: false, isAutomatic: false });
  });

  it("finds messages ignoring accents and by stems, best first, highlighted", async () => {
    const w = await world();
    const tk = await w.ticket();
    const twice = await buildMessage(t.app, tk, { body: "Reembolso: quiero el reembolso de mi pedido" });
    const once = await buildMessage(t.app, tk, { body: "Hablamos mañana del reembolso" });
    const plural = await buildMessage(t.app, tk, { body: "Pedí dos reembolsos distintos" });
    const info = await buildMessage(t.app, tk, { body: "Necesito más información por favor" });
    await buildMessage(t.app, tk, { body: "un reembolso borrado", isDeleted: true });

    const page = await search(w.admin, "q=reembolso&type=messages");
    // the exact word before its other forms; twice before once
    expect(messageIds(page)).toEqual([twice.id, once.id, plural.id]);
    expect(page.results.map((r) => r.matchType)).toEqual(["exact", "exact", "stemmed"]);
    expect(page.totalCount).toBe(3);
    expect(page.hasMore).toBe(false);
    const first = page.results[0];
    expect(first.ticket).toEqual({ id: tk.id, uuid: tk.uuid, status: "pending" });
    expect(first.message).toMatchObject({ id: twice.id, body: twice.body, fromMe: false });
    expect(marked(first)).toEqual(["Reembolso", "reembolso"]);
    expect(first.highlightedBody.map((s) => s.text).join("")).toBe(twice.body);

    // "reembolsos" finds "reembolso" (stem), "informacion" finds "información"
    expect(messageIds(await search(w.admin, "q=reembolsos&type=messages"))).toEqual(
      expect.arrayContaining([twice.id, once.id, plural.id]),
    );
    const accents = await search(w.admin, "q=informacion&type=messages");
    expect(messageIds(accents)).toEqual([info.id]);
    expect(marked(accents.results[0])).toEqual(["información"]);
  });

  it("finds a typo only in advanced mode, as similar", async () => {
    const w = await world();
    const tk = await w.ticket();
    const refund = await buildMessage(t.app, tk, { body: "Solicito un reembolso urgente" });
    expect(messageIds(await search(w.admin, "q=reembolzo&type=messages"))).toEqual([]);
    const page = await search(w.admin, "q=reembolzo&type=messages&mode=advanced");
    expect(messageIds(page)).toEqual([refund.id]);
    expect(page.results[0].matchType).toBe("similar");
    expect(marked(page.results[0])).toEqual(["reembolso"]);
    // the same words of another company are not this company's vocabulary
    const other = await world();
    expect(messageIds(await search(other.admin, "q=reembolzo&type=messages&mode=advanced"))).toEqual([]);
  });

  it("finds contacts by name without accents, by number and by a similar name; merges with messages", async () => {
    const w = await world();
    const jose = await w.contact({ name: "José Ramírez" });
    const tk = await w.ticket({ contactId: jose.id });
    await buildMessage(t.app, tk, { body: "Saludos de ramirez" });
    const byName = await search(w.admin, "q=ramirez");
    expect(byName.results.map((r) => r.type)).toEqual(["contact", "message"]);
    expect(byName.results[0]).toMatchObject({
      contact: { id: jose.id, name: "José Ramírez" },
      ticket: { id: tk.id, uuid: tk.uuid },
      matchType: "exact",
      message: null,
    });
    expect(marked(byName.results[0])).toEqual(["Ramírez"]);
    expect((await search(w.admin, `q=${jose.number.slice(-6)}&type=contacts`)).results.map((r) => r.contact.id)).toEqual([
      jose.id,
    ]);
    expect((await search(w.admin, "q=ramires&type=contacts")).results).toEqual([]);
    const similar = await search(w.admin, "q=ramires&type=contacts&mode=advanced");
    expect(similar.results.map((r) => [r.contact.id, r.matchType])).toEqual([[jose.id, "similar"]]);
  });

  it("shows an agent only the messages of tickets the ticket list would show; admins all", async () => {
    const w = await world();
    const mine = await w.ticket({ status: "open", userId: w.beto.id });
    const pendingInQueue = await w.ticket();
    const hiddenPerson = await w.contact({ name: "Persona Oculta" });
    const colleagues = await w.ticket({ status: "open", userId: w.ana.id, contactId: hiddenPerson.id });
    const otherQueue = await w.ticket({ queueId: w.sales.id });
    const ids = [];
    for (const tk of [mine, pendingInQueue, colleagues, otherQueue]) {
      ids.push((await buildMessage(t.app, tk, { body: "factura pendiente de pago" })).id);
    }
    const [m, p, c, o] = ids;
    expect(new Set(messageIds(await search(w.admin, "q=factura&type=messages")))).toEqual(new Set([m, p, c, o]));
    const agent = await search(w.as.beto, "q=factura&type=messages");
    expect(new Set(messageIds(agent))).toEqual(new Set([m, p]));
    expect(agent.totalCount).toBe(2);
    // the contact of a hidden ticket is found, without that ticket
    const hiddenContact = (await search(w.as.beto, "q=persona%20oculta&type=contacts")).results;
    expect(hiddenContact.map((r) => [r.contact.id, r.ticket])).toEqual([[hiddenPerson.id, null]]);
    const seen = (await search(w.admin, "q=persona%20oculta&type=contacts")).results;
    expect(seen.map((r) => r.ticket?.id)).toEqual([colleagues.id]);
  });

  it("never shows another company's contacts or messages", async () => {
    const w = await world();
    const other = await world();
    const theirs = await other.contact({ name: "Zacarías Quintanilla" });
    const tk = await other.ticket({ contactId: theirs.id });
    await buildMessage(t.app, tk, { body: "quintanilla escribe" });
    expect((await search(other.admin, "q=quintanilla")).results).toHaveLength(2);
    const mine = await search(w.admin, "q=quintanilla&mode=advanced");
    expect(mine.results).toEqual([]);
    expect(mine.totalCount).toBe(0);
  });

  it("pages by limit", async () => {
    const w = await world();
    const tk = await w.ticket();
    for (let i = 0; i < 5; i++) await buildMessage(t.app, tk, { body: `presupuesto numero ${i}` });
    const first = await search(w.admin, "q=presupuesto&type=messages&limit=2");
    const second = await search(w.admin, "q=presupuesto&type=messages&limit=2&page=2");
    const third = await search(w.admin, "q=presupuesto&type=messages&limit=2&page=3");
    expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
    expect(new Set([...messageIds(first), ...messageIds(second), ...messageIds(third)]).size).toBe(5);
    expect(first.totalCount).toBe(5);
  });
});

describe("#search window", () => {
  it("ranks the newest SEARCH_WINDOW matching messages the viewer may see, walked newest first for a common word", async () => {
    const w = await world();
    const mine = await w.ticket({ status: "open", userId: w.beto.id });
    const hidden = await w.ticket({ queueId: w.sales.id });
    // 10 old exact matches, then a window and 5 newer ones of another form ("garantías"), and newer still 50 in a hidden ticket
    const old = await insertMessages(w.companyId, mine, 10, (i) => `garantia vieja ${i}`);
    await insertMessages(w.companyId, mine, SEARCH_WINDOW + 5, (i) => `garantías nuevas ${i}`);
    await insertMessages(w.companyId, hidden, 50, (i) => `garantía ajena ${i}`);

    const admin = await search(w.admin, "q=garantia&type=messages");
    expect(admin.totalCount).toBe(SEARCH_WINDOW);
    // the window is the newest (the hidden ticket's 50 and the newest of the others): no old exact match in it
    expect(admin.results.every((r) => r.message?.body.startsWith("garantía ajena"))).toBe(true);
    const agent = await search(w.as.beto, "q=garantia&type=messages");
    expect(agent.totalCount).toBe(SEARCH_WINDOW);
    expect(agent.results.every((r) => r.message?.body.startsWith("garantías nuevas"))).toBe(true);
    const oldIds = new Set(old.map((m) => m.id));
    const seen = await allMessageIds(w.as.beto, "q=garantia&type=messages");
    expect(seen).toHaveLength(SEARCH_WINDOW);
    expect(seen.some((id) => oldIds.has(id))).toBe(false);
  });

  it("takes an agent's window conversation by conversation, the most recently active first; staff's by message", async () => {
    const w = await world();
    const first = await w.ticket({ status: "open", userId: w.beto.id });
    const second = await w.ticket({ status: "open", userId: w.beto.id });
    const older = await insertMessages(w.companyId, first, SEARCH_WINDOW, (i) => `devolución primera ${i}`);
    const newer = await insertMessages(w.companyId, second, 5, (i) => `devolución segunda ${i}`);
    // the first conversation is active again (a status change, a note): it comes first for the agent
    await t.app.charla.db.execute(sql`update tickets set updated_at = now() + interval '1 minute' where id = ${first.id}`);
    const agentSeen = await allMessageIds(w.as.beto, "q=devolucion&type=messages");
    expect(new Set(agentSeen)).toEqual(new Set(older.map((m) => m.id)));
    const adminSeen = await allMessageIds(w.admin, "q=devolucion&type=messages");
    expect(adminSeen).toHaveLength(SEARCH_WINDOW);
    expect(newer.every((m) => adminSeen.includes(m.id))).toBe(true);
  });
});

async function insertMessages(
  companyId: number,
  tk: { id: number; contactId: number; whatsappId: number | null },
  n: number,
  body: (i: number) => string,
) {
  return t.app.charla.db
    .insert(messages)
    .values(
      Array.from({ length: n }, (_, i) => ({
        companyId,
        ticketId: tk.id,
        contactId: tk.contactId,
        whatsappId: tk.whatsappId,
        channelId: `window-${tk.id}-${body(i)}-${i}`,
        body: body(i),
      })),
    )
    .returning({ id: messages.id });
}

async function allMessageIds(s: Session, query: string): Promise<number[]> {
  const seen: number[] = [];
  for (let page = 1; ; page++) {
    const next = await search(s, `${query}&page=${page}`);
    seen.push(...messageIds(next).map(Number));
    if (!next.hasMore) return seen;
  }
}

describe("highlightSegments", () => {
  it("marks at most 10 words, keeps the text whole and cuts long bodies around the first mark", () => {
    const body = Array.from({ length: 15 }, () => "pago").join(" y ");
    const segments = highlightSegments(body, ["pago"]);
    expect(segments.filter((s) => s.highlight)).toHaveLength(10);
    expect(segments.map((s) => s.text).join("")).toBe(body);
    const long = `${"x ".repeat(300)}Información final ${"y ".repeat(300)}`;
    const cut = highlightSegments(long, ["informacion"]);
    expect(cut[0].text.startsWith("…")).toBe(true);
    expect(cut.filter((s) => s.highlight).map((s) => s.text)).toEqual(["Información"]);
    expect(cut.at(-1)?.text.endsWith("…")).toBe(true);
  });
});

describe("#search on PostgreSQL uses its indexes", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))("plans every statement on an index, not a sequential scan", async () => {
    const db = t.app.charla.db;
    const w = await world();
    const tk = await w.ticket();
    // enough rows of one company that reading them all would cost, vacuumed (the GIN pending list flushed,
    // as autovacuum would): the planner decides as on a big table
    await db.execute(sql`insert into contacts (company_id, name, number)
      select ${w.companyId}, 'Cliente ' || g, '54911' || lpad(g::text, 8, '0') from generate_series(1, 3000) g`);
    await db.execute(sql`insert into messages (company_id, ticket_id, contact_id, whatsapp_id, channel_id, body)
      select ${w.companyId}, ${tk.id}, ${tk.contactId}, ${tk.whatsappId}, 'explain-' || ${tk.id} || '-' || g,
        'mensaje de prueba numero ' || g || case when g % 5000 = 0 then ' reembolso' else '' end
      from generate_series(1, 50000) g`);
    await db.execute(sql`vacuum analyze messages`);
    await db.execute(sql`vacuum analyze contacts`);
    await db.execute(sql`vacuum analyze search_words`);
    const c = w.companyId;
    const explain = async (statement: ReturnType<typeof sql>) =>
      rowsOf<{ "QUERY PLAN": string }>(await db.execute(sql`explain ${statement}`))
        .map((r) => r["QUERY PLAN"])
        .join("\n");
    const plans = [
      await explain(sql`select id from messages where company_id = ${c} and not is_deleted
        and search @@ (select charla_search_query('reembolso'))`),
      await explain(sql`select word from search_words where company_id = ${c} and word % 'reembolzo'`),
      await explain(sql`select id from contacts where company_id = ${c} and lower(charla_unaccent(name)) like '%ramirez%'`),
      await explain(sql`select id from contacts where company_id = ${c} and 'ramires' <% lower(charla_unaccent(name))`),
      await explain(sql`select id from contacts where company_id = ${c} and number like '%12345678%'`),
    ];
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan/);
    expect(plans[0]).toMatch(/messages_search_idx/);
    expect(plans[1]).toMatch(/search_words_word_trgm_idx|search_words_pkey/);
    expect(plans[2]).toMatch(/contacts_name_unaccent_trgm_idx/);
    expect(plans[3]).toMatch(/contacts_name_unaccent_trgm_idx/);
    expect(plans[4]).toMatch(/contacts_number_trgm_idx/);
  });
});
