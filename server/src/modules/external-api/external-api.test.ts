import { readdirSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatorDriver } from "../../channels/simulator/driver.js";
import { companies, contacts, externalApiRequests, messages, plans, tickets, whatsapps } from "../../db/schema/index.js";
import { secretHash } from "../../lib/secret-box.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildContact, buildMessage, buildTicket, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

const MAX_UPLOAD = 64 * 1024;
const PER_MIN = 25;
let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({ maxUploadBytes: MAX_UPLOAD, externalApiMaxPerMin: PER_MIN });
});
afterAll(() => t.close());

const call = caller(() => t.app);
const db = () => t.app.charla.db;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);
const phone = () => `52155${String(Math.floor(Math.random() * 1e8)).padStart(8, "7")}`;

/** A company with a simulator connection and its API token, read through the Token action. */
async function setup(plan: { useExternalApi?: boolean } = {}) {
  const c = await buildCompany(t.app, { plan });
  const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED", isDefault: true });
  const admin = await login(t.app, c.admin);
  const res = await call(admin, "GET", `/whatsapp/${wa.id}/api-token`);
  expect(res.statusCode).toBe(200);
  const token: string = res.json().apiToken;
  return { c, wa, admin, token };
}

type Req = { method?: "GET" | "POST"; url: string; token?: string | null; payload?: unknown; headers?: Record<string, string> };
function api({ method = "GET", url, token, payload, headers = {} }: Req) {
  return t.app.inject({
    method,
    url,
    payload: payload as string,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

function form(parts: { name: string; value?: string; file?: { name: string; type: string; data: Buffer } }[]) {
  const boundary = `----ext${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if (p.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.file.name}"\r\nContent-Type: ${p.file.type}\r\n\r\n`,
        ),
        p.file.data,
        Buffer.from("\r\n"),
      );
    } else chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

const filesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOf(join(dir, e.name)) : [join(dir, e.name)]));

const messagesOf = (companyId: number) => db().select().from(messages).where(eq(messages.companyId, companyId));

describe("#external-api token action", () => {
  it("shows a token made on first use, the same on the next read, and a new one on regenerate that ends the old", async () => {
    const { admin, wa, token } = await setup();
    expect(token).toMatch(/^chr_[A-Za-z0-9_-]{43}$/);
    const again = await call(admin, "GET", `/whatsapp/${wa.id}/api-token`);
    expect(again.json()).toEqual({ apiToken: token });
    expect(again.headers["cache-control"]).toBe("no-store");
    const [row] = await db().select().from(whatsapps).where(eq(whatsapps.id, wa.id));
    // stored sealed and by hash, never in the clear, and not the `token` column
    expect(row.apiTokenHash).toBe(secretHash(token));
    expect(row.apiTokenSealed).not.toContain(token);
    expect(row.token).not.toBe(token);

    // the connection's views never carry it, sealed or not, to anyone
    const agent = await login(t.app, await buildUser(t.app, wa.companyId, { profile: "user" }));
    for (const who of [admin, agent])
      for (const url of ["/whatsapp", `/whatsapp/${wa.id}`]) {
        const body = (await call(who, "GET", url)).body;
        expect(body).not.toContain(token);
        expect(body).not.toContain(row.apiTokenSealed);
        expect(body).not.toContain(row.apiTokenHash);
      }

    const rotated = await call(admin, "POST", `/whatsapp/${wa.id}/api-token`);
    expect(rotated.statusCode).toBe(200);
    const fresh: string = rotated.json().apiToken;
    expect(fresh).not.toBe(token);
    expectError(await api({ url: "/api/list-groups", token }), 401, "ERR_API_TOKEN_INVALID");
    expect((await api({ url: "/api/list-groups", token: fresh })).statusCode).toBe(200);
    expect((await call(admin, "GET", `/whatsapp/${wa.id}/api-token`)).json()).toEqual({ apiToken: fresh });
  });

  it("is refused to a non-admin (403) and to another company's admin (404)", async () => {
    const { c, wa } = await setup();
    for (const profile of ["user", "supervisor", "subadmin"] as const) {
      const staff = await login(t.app, await buildUser(t.app, c.id, { profile }));
      expectError(await call(staff, "GET", `/whatsapp/${wa.id}/api-token`), 403, "ERR_NO_PERMISSION");
      expectError(await call(staff, "POST", `/whatsapp/${wa.id}/api-token`), 403, "ERR_NO_PERMISSION");
    }
    const other = await setup();
    expectError(await call(other.admin, "GET", `/whatsapp/${wa.id}/api-token`), 404, "ERR_NO_WAPP_FOUND");
    expectError(await call(other.admin, "POST", `/whatsapp/${wa.id}/api-token`), 404, "ERR_NO_WAPP_FOUND");
  });
});

describe("#external-api authentication", () => {
  it("refuses a missing, wrong or login token (401), a plan without the API (403) and a disabled company", async () => {
    const { c, admin, token } = await setup();
    for (const url of ["/api/list-groups", "/api/ticket-messages?ticketId=1"]) {
      expectError(await api({ url }), 401, "ERR_API_TOKEN_INVALID");
      expectError(await api({ url, token: `${token}x` }), 401, "ERR_API_TOKEN_INVALID");
      expectError(await api({ url, token: admin.token }), 401, "ERR_API_TOKEN_INVALID");
    }
    expectError(
      await api({ method: "POST", url: "/api/messages/send", payload: { number: phone(), body: "x" } }),
      401,
      "ERR_API_TOKEN_INVALID",
    );
    // the token checked before the body is read: an anonymous caller learns nothing from validation
    expectError(await api({ method: "POST", url: "/api/messages/send", payload: {} }), 401, "ERR_API_TOKEN_INVALID");

    // a token read while the plan had the API keeps nothing open once the plan loses it
    const off = await setup();
    await db().update(plans).set({ useExternalApi: false }).where(eq(plans.id, off.c.planId));
    expectError(await call(off.admin, "GET", `/whatsapp/${off.wa.id}/api-token`), 403, "ERR_NO_PERMISSION");
    expectError(
      await api({ method: "POST", url: "/api/messages/send", token: off.token, payload: { number: phone(), body: "x" } }),
      403,
      "ERR_EXTERNAL_API_DISABLED",
    );
    expect((await messagesOf(off.c.id)).length).toBe(0);

    await db().update(companies).set({ status: false }).where(eq(companies.id, c.id));
    expectError(await api({ url: "/api/list-groups", token }), 401, "ERR_COMPANY_INACTIVE");
    await db().update(companies).set({ status: true, dueDate: "2001-01-01" }).where(eq(companies.id, c.id));
    expectError(await api({ url: "/api/list-groups", token }), 401, "ERR_SUBSCRIPTION_EXPIRED");
  });

  it("limits each token per minute: 429 ERR_RATE_LIMITED with Retry-After, other tokens unaffected", async () => {
    const { token } = await setup();
    const other = await setup();
    for (let i = 0; i < PER_MIN; i++) expect((await api({ url: "/api/list-groups", token })).statusCode).toBe(200);
    const over = await api({ url: "/api/list-groups", token });
    expectError(over, 429, "ERR_RATE_LIMITED");
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect((await api({ url: "/api/list-groups", token: other.token })).statusCode).toBe(200);
  });
});

describe("#external-api POST /api/messages/send", () => {
  it("finds or creates the contact and its ticket, sends the text and answers exactly {mensagem, ticket_uuid}", async () => {
    const { c, wa, token } = await setup();
    const number = phone();
    const res = await api({
      method: "POST",
      url: "/api/messages/send",
      token,
      payload: { number: `+${number}`, body: "Hola {{name}}" },
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(Object.keys(answer).sort()).toEqual(["mensagem", "ticket_uuid"]);
    expect(answer.mensagem).toBe("Mensaje enviado");
    const [ticket] = await db().select().from(tickets).where(eq(tickets.uuid, answer.ticket_uuid));
    expect(ticket).toMatchObject({ companyId: c.id, whatsappId: wa.id });
    const [contact] = await db().select().from(contacts).where(eq(contacts.id, ticket.contactId));
    expect(contact.number).toBe(number);
    const sent = await messagesOf(c.id);
    expect(sent).toMatchObject([{ ticketId: ticket.id, body: `Hola ${number}`, fromMe: true, userId: null }]);
    // the simulator took it (server ack or better)
    expect(sent[0].ack).toBeGreaterThanOrEqual(1);

    // the same contact again: the same live ticket; closeTicket closes it
    const second = await api({
      method: "POST",
      url: "/api/messages/send",
      token,
      payload: { number, body: "Adiós", closeTicket: true },
    });
    expect(second.json().ticket_uuid).toBe(answer.ticket_uuid);
    const [closed] = await db().select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(closed.status).toBe("closed");
  });

  it("answers bad input with catalogue codes and sends nothing", async () => {
    const { c, token } = await setup();
    const send = (payload: unknown, headers: Record<string, string> = {}) =>
      api({ method: "POST", url: "/api/messages/send", token, payload, headers });
    expectError(await send({ body: "x" }), 400, "ERR_VALIDATION");
    expectError(await send({ number: phone() }), 400, "ERR_VALIDATION");
    expectError(await send({ number: "abc", body: "x" }), 400, "ERR_VALIDATION");
    expectError(await send("{bad", { "content-type": "application/json" }), 400, "ERR_BAD_REQUEST");
    // the simulator says numbers ending 0000 are not on WhatsApp
    expectError(await send({ number: "5215512340000", body: "x" }), 400, "ERR_WAPP_INVALID_CONTACT");
    expectError(await send({ number: phone(), body: "x" }, { "idempotency-key": "k".repeat(201) }), 400, "ERR_VALIDATION");
    expect(await messagesOf(c.id)).toEqual([]);
  });

  it("sends once for a retried Idempotency-Key, and 409 while the first is still in progress", async () => {
    const { c, wa, token } = await setup();
    const number = phone();
    const send = (key: string) =>
      api({
        method: "POST",
        url: "/api/messages/send",
        token,
        payload: { number, body: "Una vez" },
        headers: { "idempotency-key": key },
      });
    const first = await send("pedido-1");
    const retry = await send("pedido-1");
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect((await messagesOf(c.id)).length).toBe(1);

    await db().insert(externalApiRequests).values({ companyId: c.id, whatsappId: wa.id, key: "en-curso" });
    expectError(await send("en-curso"), 409, "ERR_IDEMPOTENCY_IN_PROGRESS");
    expect((await messagesOf(c.id)).length).toBe(1);
    // a refused request frees its key: the retry goes through
    const bad = await api({
      method: "POST",
      url: "/api/messages/send",
      token,
      payload: { number: "5215512340000", body: "x" },
      headers: { "idempotency-key": "libre" },
    });
    expectError(bad, 400, "ERR_WAPP_INVALID_CONTACT");
    const rows = await db()
      .select()
      .from(externalApiRequests)
      .where(and(eq(externalApiRequests.companyId, c.id), eq(externalApiRequests.key, "libre")));
    expect(rows).toEqual([]);
  });

  it("sends files of a multipart form through the same path, the text as the first caption", async () => {
    const { c, token } = await setup();
    const number = phone();
    const body = form([
      { name: "number", value: number },
      { name: "body", value: "Mira esto" },
      { name: "medias", file: { name: "foto.png", type: "image/png", data: PNG } },
      // says it is an image and is not: it goes as a document
      { name: "medias", file: { name: "falsa.jpg", type: "image/jpeg", data: Buffer.from("not a picture at all") } },
    ]);
    const res = await api({ method: "POST", url: "/api/messages/send", token, payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(["mensagem", "ticket_uuid"]);
    const sent = (await messagesOf(c.id)).sort((a, b) => a.id - b.id);
    expect(sent).toMatchObject([
      { body: "Mira esto", mediaType: "image", mediaName: "foto.png", fromMe: true },
      { body: "", mediaType: "application", mediaName: "falsa.jpg", fromMe: true },
    ]);
  });

  it("refuses a multipart form without files, or with a file over the limit, and keeps no file", async () => {
    const { c, token } = await setup();
    const before = filesOf(t.config.dataDir).length;
    const post = (parts: Parameters<typeof form>[0]) => {
      const b = form(parts);
      return api({ method: "POST", url: "/api/messages/send", token, payload: b.payload, headers: b.headers });
    };
    expectError(await post([{ name: "number", value: phone() }]), 400, "ERR_VALIDATION");
    expectError(
      await post([
        { name: "number", value: phone() },
        { name: "medias", file: { name: "ok.png", type: "image/png", data: PNG } },
        { name: "medias", file: { name: "big.bin", type: "application/octet-stream", data: Buffer.alloc(MAX_UPLOAD + 10, 1) } },
      ]),
      413,
      "ERR_FILE_TOO_LARGE",
    );
    expectError(
      await post([
        { name: "number", value: "abc" },
        { name: "medias", file: { name: "ok.png", type: "image/png", data: PNG } },
      ]),
      400,
      "ERR_VALIDATION",
    );
    expectError(
      await post([
        { name: "number", value: "5215512340000" },
        { name: "medias", file: { name: "ok.png", type: "image/png", data: PNG } },
      ]),
      400,
      "ERR_WAPP_INVALID_CONTACT",
    );
    // at most 10 files a request
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      name: "medias",
      file: { name: `f${i}.png`, type: "image/png", data: PNG },
    }));
    expectError(await post([{ name: "number", value: phone() }, ...eleven]), 400, "ERR_VALIDATION");
    expect(filesOf(t.config.dataDir).length).toBe(before);
    expect(await messagesOf(c.id)).toEqual([]);
  });
});

describe("#external-api POST /api/shared-contact", () => {
  it("creates the contact in the token's company, then updates it; another company's id is refused", async () => {
    const { c, token } = await setup();
    const number = phone();
    const created = await api({
      method: "POST",
      url: "/api/shared-contact",
      token,
      payload: { name: "Ana", number, email: "ana@x.co" },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ mensagem: "Contacto creado", contact: { name: "Ana", number, email: "ana@x.co" } });
    const updated = await api({
      method: "POST",
      url: "/api/shared-contact",
      token,
      payload: { name: "Ana María", number, company_id: c.id },
    });
    expect(updated.json()).toMatchObject({
      mensagem: "Contacto actualizado",
      contact: { id: created.json().contact.id, name: "Ana María" },
    });
    const other = await setup();
    expectError(
      await api({
        method: "POST",
        url: "/api/shared-contact",
        token,
        payload: { name: "X", number: phone(), company_id: other.c.id },
      }),
      400,
      "ERR_VALIDATION",
    );
    expectError(await api({ method: "POST", url: "/api/shared-contact", token, payload: { number } }), 400, "ERR_VALIDATION");
    const mine = await db().select().from(contacts).where(eq(contacts.companyId, c.id));
    expect(mine.map((x) => x.name)).toEqual(["Ana María"]);
  });
});

describe("#external-api GET /api/ticket-messages", () => {
  it("pages a ticket of the token's connection 20 at a time, by id or uuid; other tickets are not found", async () => {
    const { c, wa, token } = await setup();
    const contact = await buildContact(t.app, c.id);
    const ticket = await buildTicket(t.app, c.id, { contactId: contact.id, whatsappId: wa.id, status: "open" });
    for (let i = 0; i < 23; i++)
      await buildMessage(t.app, ticket, {
        body: `m${i}`,
        createdAt: new Date(Date.now() - (100 - i) * 1000),
        fromMe: i % 2 === 0,
      });
    const page1 = await api({ url: `/api/ticket-messages?ticketId=${ticket.id}`, token });
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ count: 23, hasMore: true, ticket: { id: ticket.id, uuid: ticket.uuid } });
    expect(page1.json().messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 3}`));
    const page2 = await api({ url: `/api/ticket-messages?ticketId=${ticket.uuid}&pageNumber=2`, token });
    expect(page2.json()).toMatchObject({ count: 23, hasMore: false, messages: [{ body: "m0" }, { body: "m1" }, { body: "m2" }] });
    expect(page2.json().messages[1].contact).toMatchObject({ id: contact.id, number: contact.number });

    // another connection of the company, and another company's ticket: not found
    const second = await buildWhatsapp(t.app, c.id, { provider: "simulator" });
    const elsewhere = await buildTicket(t.app, c.id, { contactId: contact.id, whatsappId: second.id, status: "closed" });
    expectError(await api({ url: `/api/ticket-messages?ticketId=${elsewhere.id}`, token }), 404, "ERR_NO_TICKET_FOUND");
    const other = await setup();
    expectError(await api({ url: `/api/ticket-messages?ticketId=${ticket.id}`, token: other.token }), 404, "ERR_NO_TICKET_FOUND");
    expectError(
      await api({ url: `/api/ticket-messages?ticketId=${ticket.uuid}`, token: other.token }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
    expectError(await api({ url: "/api/ticket-messages?ticketId=abc", token }), 400, "ERR_VALIDATION");
    expectError(await api({ url: `/api/ticket-messages?ticketId=${ticket.id}&pageNumber=0`, token }), 400, "ERR_VALIDATION");
  });
});

describe("#external-api GET /api/list-groups", () => {
  it("lists the groups the connection's phone is in; without a running session ERR_WAPP_NOT_INITIALIZED", async () => {
    const { c, wa, token } = await setup();
    const empty = await api({ url: "/api/list-groups", token });
    expect(empty.json()).toEqual({ mensagem: "Grupos de la conexión", groups: [] });
    const driver = (await t.app.charla.sessions.driverFor(c.id, wa.id)) as SimulatorDriver;
    await driver.receive({ number: "120363000000000001", name: "Ventas", isGroup: true, body: "Hola", mediaType: "chat" });
    const res = await api({ url: "/api/list-groups", token });
    expect(res.json().groups).toEqual([{ id: "120363000000000001@g.us", name: "Ventas", participants: 0 }]);

    await driver.disconnect();
    expectError(await api({ url: "/api/list-groups", token }), 400, "ERR_WAPP_NOT_INITIALIZED");
    expectError(
      await api({ method: "POST", url: "/api/messages/send", token, payload: { number: phone(), body: "x" } }),
      400,
      "ERR_WAPP_NOT_INITIALIZED",
    );
  });
});
