import { type ChatMessageView, type ChatView, Events, PlanFlags } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages, chatUsers, chats } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const call = caller(() => t.app);
const listen = eventListener(() => t.app);

/** A company with three users (Ana owns the chats, Beto takes part, Caro does not), each signed in. */
async function team(plan: Record<string, boolean> = {}) {
  const c = await buildCompany(t.app, { plan });
  const [ana, beto, caro] = await Promise.all(
    ["Ana", "Beto", "Caro"].map((name) => buildUser(t.app, c.id, { name, profile: "user" })),
  );
  const [sAna, sBeto, sCaro] = await Promise.all([ana, beto, caro].map((u) => login(t.app, u)));
  return { c, ana, beto, caro, sAna, sBeto, sCaro };
}
const create = async (s: Session, users: number[], title = "Turno de noche") => {
  const res = await call(s, "POST", "/chats", { title, users });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ChatView;
};
const post = async (s: Session, ref: number | string, message: string) => {
  const res = await call(s, "POST", `/chats/${ref}/messages`, { message });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ChatMessageView;
};
const unreadsOf = (chat: ChatView, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads;

describe("#chats auth", () => {
  it("should require authentication", async () => {
    const routes: [InjectOptions["method"], string][] = [
      ["GET", "/chats"],
      ["POST", "/chats"],
      ["GET", "/chats/1"],
      ["PUT", "/chats/1"],
      ["DELETE", "/chats/1"],
      ["POST", "/chats/1/read"],
      ["GET", "/chats/1/messages"],
      ["POST", "/chats/1/messages"],
    ];
    for (const [method, url] of routes) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "GET" ? undefined : {} });
      expectError(res, 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("is refused on a plan without useInternalChat, for every route, and writes nothing", async () => {
    const w = await team(Object.fromEntries(PlanFlags.map((f) => [f, f !== "useInternalChat"])));
    const [row] = await t.app.charla.db.insert(chats).values({ companyId: w.c.id, title: "x", ownerId: w.ana.id }).returning();
    await t.app.charla.db.insert(chatUsers).values({ companyId: w.c.id, chatId: row.id, userId: w.ana.id });
    for (const [method, url, body] of [
      ["GET", "/chats"],
      ["POST", "/chats", { title: "Hola", users: [w.beto.id] }],
      ["GET", `/chats/${row.id}`],
      ["PUT", `/chats/${row.uuid}`, { title: "Otro", users: [w.beto.id] }],
      ["DELETE", `/chats/${row.id}`],
      ["POST", `/chats/${row.id}/read`, {}],
      ["GET", `/chats/${row.id}/messages`],
      ["POST", `/chats/${row.id}/messages`, { message: "hola" }],
    ] as const) {
      expectError(await call(w.sAna, method, url, body), 403, "ERR_NO_PERMISSION");
    }
    expect(await t.app.charla.db.select().from(chats).where(eq(chats.companyId, w.c.id))).toHaveLength(1);
    expect(await t.app.charla.db.select().from(chatMessages).where(eq(chatMessages.companyId, w.c.id))).toEqual([]);
  });
});

describe("#chats create and read", () => {
  it("creates a chat owned by the caller, who always takes part, and lists it for its participants only", async () => {
    const w = await team();
    const events = listen();
    const chat = await create(w.sAna, [w.beto.id, w.beto.id], "  Turno de noche ");
    expect(chat).toEqual({
      id: expect.any(Number),
      uuid: expect.any(String),
      title: "Turno de noche",
      ownerId: w.ana.id,
      users: [
        { userId: w.ana.id, unreads: 0, user: { id: w.ana.id, name: "Ana" } },
        { userId: w.beto.id, unreads: 0, user: { id: w.beto.id, name: "Beto" } },
      ],
      lastMessage: "",
      updatedAt: expect.any(String),
    });
    expect(events.events.filter((e) => e.event === Events.chat(w.c.id))).toEqual([
      { companyId: w.c.id, event: Events.chat(w.c.id), payload: { action: "create", record: chat }, to: [w.ana.id, w.beto.id] },
    ]);
    // never to the company room
    expect(events.events.every((e) => e.to !== undefined)).toBe(true);

    const forBeto = (await call(w.sBeto, "GET", "/chats")).json();
    expect(forBeto).toMatchObject({ records: [{ id: chat.id }], hasMore: false, count: 1 });
    expect((await call(w.sCaro, "GET", "/chats")).json()).toEqual({ records: [], hasMore: false, count: 0, unreadTotal: 0 });
    expect((await call(w.sBeto, "GET", `/chats/${chat.uuid}`)).json()).toEqual(chat);
    expect((await call(w.sBeto, "GET", `/chats/${chat.id}`)).json()).toEqual(chat);
  });

  it("a user not in the chat, like another company, gets 404 on every route by id and by uuid", async () => {
    const w = await team();
    const other = await team();
    const chat = await create(w.sAna, [w.beto.id]);
    await post(w.sAna, chat.id, "secreto");
    for (const s of [w.sCaro, other.sAna]) {
      for (const ref of [chat.id, chat.uuid]) {
        for (const [method, url, body] of [
          ["GET", `/chats/${ref}`],
          ["PUT", `/chats/${ref}`, { title: "Mío", users: [w.caro.id] }],
          ["DELETE", `/chats/${ref}`],
          ["POST", `/chats/${ref}/read`, { userId: w.ana.id }],
          ["GET", `/chats/${ref}/messages`],
          ["POST", `/chats/${ref}/messages`, { message: "hola" }],
        ] as const) {
          const res = await call(s, method, url, body);
          expectError(res, 404, "ERR_NOT_FOUND");
          expect(res.body).not.toContain("secreto");
        }
      }
    }
    expect((await call(w.sAna, "GET", `/chats/${chat.id}/messages`)).json().records).toHaveLength(1);
  });

  it("refuses a blank title, no users, another company's user, and a blank message", async () => {
    const w = await team();
    const other = await team();
    const bad = async (body: unknown, path: string, message: string) => {
      const res = await call(w.sAna, "POST", "/chats", body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues).toContainEqual({ path, message });
    };
    await bad({ title: "   ", users: [w.beto.id] }, "body.title", "validation.chatTitle");
    await bad({ users: [w.beto.id] }, "body.title", "validation.chatTitle");
    await bad({ title: "Hola", users: [] }, "body.users", "validation.chatUsers");
    await bad({ title: "Hola" }, "body.users", "validation.chatUsers");
    await bad({ title: "Hola", users: [other.beto.id] }, "body.users", "validation.invalid");
    expect(await t.app.charla.db.select().from(chats).where(eq(chats.companyId, w.c.id))).toEqual([]);

    const chat = await create(w.sAna, [w.beto.id]);
    for (const message of ["", "  \n ", undefined]) {
      const res = await call(w.sAna, "POST", `/chats/${chat.id}/messages`, { message });
      expectError(res, 400, "ERR_VALIDATION");
    }
    expectError(await call(w.sAna, "GET", "/chats/not-a-uuid"), 400, "ERR_VALIDATION");
  });
});

describe("#chats owner only", () => {
  it("lets the owner rename and change participants, keeping themselves; others get 403", async () => {
    const w = await team();
    const chat = await create(w.sAna, [w.beto.id]);
    expectError(await call(w.sBeto, "PUT", `/chats/${chat.id}`, { title: "Mío", users: [w.beto.id] }), 403, "ERR_NO_PERMISSION");
    expectError(await call(w.sBeto, "DELETE", `/chats/${chat.uuid}`), 403, "ERR_NO_PERMISSION");
    expect((await call(w.sBeto, "GET", `/chats/${chat.id}`)).json().title).toBe("Turno de noche");

    await post(w.sAna, chat.id, "hola Beto");
    const events = listen();
    // Beto leaves (with a message unread), Caro joins; Ana is kept though not sent
    const res = await call(w.sAna, "PUT", `/chats/${chat.uuid}`, {
      title: "Turno de día",
      users: [{ id: w.caro.id, name: "Caro" }],
    });
    expect(res.statusCode).toBe(200);
    const view = res.json() as ChatView;
    expect(view.title).toBe("Turno de día");
    expect(view.users.map((u) => u.userId)).toEqual([w.ana.id, w.caro.id]);
    expect(events.on(Events.chat(w.c.id))).toEqual([
      { action: "update", record: view },
      { action: "delete", id: chat.id },
    ]);
    expect(
      events.events.find((e) => e.event === Events.chat(w.c.id) && (e.payload as { action: string }).action === "delete")?.to,
    ).toEqual([w.beto.id]);
    expect(events.events.filter((e) => e.event === Events.chatUser(w.c.id))).toEqual([
      expect.objectContaining({ to: [w.beto.id], payload: { action: "update", chatId: chat.id, unreads: 0, total: 0 } }),
    ]);
    expectError(await call(w.sBeto, "GET", `/chats/${chat.id}`), 404, "ERR_NOT_FOUND");
    expect((await call(w.sCaro, "GET", `/chats/${chat.id}/messages`)).json().records[0].message).toBe("hola Beto");
  });

  it("lets the owner delete the chat with its messages, told to its participants only", async () => {
    const w = await team();
    const chat = await create(w.sAna, [w.beto.id]);
    await post(w.sAna, chat.id, "adiós");
    const events = listen();
    const res = await call(w.sAna, "DELETE", `/chats/${chat.id}`);
    expect(res.statusCode).toBe(204);
    const deletes = events.events.filter((e) => e.event === Events.chat(w.c.id));
    expect(deletes).toEqual([expect.objectContaining({ payload: { action: "delete", id: chat.id } })]);
    expect([...(deletes[0].to ?? [])].sort()).toEqual([w.ana.id, w.beto.id].sort());
    expect(await t.app.charla.db.select().from(chatMessages).where(eq(chatMessages.chatId, chat.id))).toEqual([]);
    expectError(await call(w.sAna, "GET", `/chats/${chat.id}`), 404, "ERR_NOT_FOUND");
  });
});

describe("#chats messages and unreads", () => {
  it("a message updates the last message, counts one unread for everyone else, and tells participants only", async () => {
    const w = await team();
    const chat = await create(w.sAna, [w.beto.id]);
    const events = listen();
    const message = await post(w.sAna, chat.uuid, "¿Quién cubre el sábado?");
    expect(message).toEqual({
      id: expect.any(Number),
      chatId: chat.id,
      senderId: w.ana.id,
      sender: { id: w.ana.id, name: "Ana" },
      message: "¿Quién cubre el sábado?",
      createdAt: expect.any(String),
    });
    const own = events.events.filter((e) => e.event === Events.chatOf(w.c.id, chat.id));
    expect(own).toHaveLength(1);
    expect(own[0].payload).toMatchObject({ action: "new-message", message, chat: { lastMessage: "¿Quién cubre el sábado?" } });
    expect(events.events.filter((e) => e.event === Events.chatUser(w.c.id))).toEqual([
      expect.objectContaining({ to: [w.beto.id], payload: { action: "update", chatId: chat.id, unreads: 1, total: 1 } }),
    ]);
    expect(events.events.every((e) => e.to !== undefined && !e.to.includes(w.caro.id))).toBe(true);

    await post(w.sAna, chat.id, "¿Nadie?");
    const second = await create(w.sAna, [w.beto.id], "Otro");
    await post(w.sAna, second.id, "Hola");
    const page = (await call(w.sBeto, "GET", "/chats")).json();
    expect(page.unreadTotal).toBe(3);
    const list = page.records as ChatView[];
    expect(list.map((c) => [c.title, c.lastMessage, unreadsOf(c, w.beto.id)])).toEqual([
      ["Otro", "Hola", 1],
      ["Turno de noche", "¿Nadie?", 2],
    ]);
    expect(unreadsOf(list[0], w.ana.id)).toBe(0);
  });

  it("read clears the caller's count only, whatever userId the body names", async () => {
    const w = await team();
    const chat = await create(w.sAna, [w.beto.id, w.caro.id]);
    await post(w.sAna, chat.id, "uno");
    await post(w.sBeto, chat.id, "dos");
    const events = listen();
    const res = await call(w.sBeto, "POST", `/chats/${chat.uuid}/read`, { userId: w.caro.id });
    expect(res.statusCode).toBe(200);
    const view = res.json() as ChatView;
    expect([unreadsOf(view, w.ana.id), unreadsOf(view, w.beto.id), unreadsOf(view, w.caro.id)]).toEqual([1, 0, 2]);
    expect(events.events).toEqual([
      expect.objectContaining({ to: [w.beto.id], payload: { action: "update", chatId: chat.id, unreads: 0, total: 0 } }),
    ]);
    // nothing left to clear: nothing said
    expect((await call(w.sBeto, "POST", `/chats/${chat.id}/read`)).statusCode).toBe(200);
    expect(events.events).toHaveLength(1);
  });

  it("pages messages 20 at a time, the newest page first, each page oldest to newest", async () => {
    const w = await team();
    const chat = await create(w.sAna, [w.beto.id]);
    await t.app.charla.db
      .insert(chatMessages)
      .values(
        Array.from({ length: 45 }, (_, i) => ({ companyId: w.c.id, chatId: chat.id, senderId: w.ana.id, message: `m${i + 1}` })),
      );
    const page = async (n: number) => (await call(w.sBeto, "GET", `/chats/${chat.uuid}/messages?pageNumber=${n}`)).json();
    const first = await page(1);
    expect(first.records.map((m: ChatMessageView) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 26}`));
    expect(first).toMatchObject({ hasMore: true, count: 45 });
    expect((await page(2)).records[0].message).toBe("m6");
    const last = await page(3);
    expect(last.records.map((m: ChatMessageView) => m.message)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(last.hasMore).toBe(false);
    expectError(await call(w.sBeto, "GET", `/chats/${chat.id}/messages?pageNumber=0`), 400, "ERR_VALIDATION");
  });
});
