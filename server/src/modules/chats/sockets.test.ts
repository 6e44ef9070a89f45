import { type ChatView, Events } from "@charla/contracts";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { buildCompany, buildUser, login } from "../../test/factories.js";
import { caller } from "../../test/http.js";
import { listeningTestApp } from "../../test/sockets.js";

const t = listeningTestApp();
const call = caller(() => t.app);

/** Every event a socket receives, by name. */
function record(s: Socket) {
  const got: { event: string; payload: unknown }[] = [];
  s.onAny((event: string, payload: unknown) => got.push({ event, payload }));
  return got;
}

/** Resolves with the first payload of `event` on the socket. */
const next = (s: Socket, event: string) => new Promise<unknown>((resolve) => s.once(event, resolve));

async function world() {
  const c = await buildCompany(t.app);
  const [ana, beto, caro] = await Promise.all(["Ana", "Beto", "Caro"].map((name) => buildUser(t.app, c.id, { name })));
  const [sAna, sBeto, sCaro] = await Promise.all([ana, beto, caro].map((u) => login(t.app, u)));
  const [ioAna, ioBeto, ioCaro] = await Promise.all([sAna, sBeto, sCaro].map((s) => t.open(s)));
  return { c, ana, beto, caro, sAna, sBeto, sCaro, ioAna, ioBeto, ioCaro };
}

describe("#chats sockets", () => {
  it("participants hear a chat, its messages and their unread counts live; a colleague not in it hears nothing", async () => {
    const w = await world();
    const caroHeard = record(w.ioCaro);
    const cid = w.c.id;

    const created = next(w.ioBeto, Events.chat(cid));
    const chat = (await call(w.sAna, "POST", "/chats", { title: "Secreto del turno", users: [w.beto.id] })).json() as ChatView;
    expect(await created).toEqual({ action: "create", record: chat });

    const message = next(w.ioBeto, Events.chatOf(cid, chat.id));
    const unread = next(w.ioBeto, Events.chatUser(cid));
    const ownEcho = next(w.ioAna, Events.chatOf(cid, chat.id));
    const sent = await call(w.sAna, "POST", `/chats/${chat.uuid}/messages`, { message: "la clave es 1234" });
    expect(sent.statusCode).toBe(201);
    expect(await message).toMatchObject({ action: "new-message", message: { message: "la clave es 1234", senderId: w.ana.id } });
    expect(await ownEcho).toMatchObject({ action: "new-message" });
    expect(await unread).toEqual({ action: "update", chatId: chat.id, unreads: 1, total: 1 });

    const read = next(w.ioBeto, Events.chatUser(cid));
    await call(w.sBeto, "POST", `/chats/${chat.id}/read`, { userId: w.beto.id });
    expect(await read).toEqual({ action: "update", chatId: chat.id, unreads: 0, total: 0 });

    const renamed = next(w.ioBeto, Events.chatOf(cid, chat.id));
    await call(w.sAna, "PUT", `/chats/${chat.id}`, { title: "Secreto renombrado", users: [w.beto.id] });
    expect(await renamed).toMatchObject({ action: "update", chat: { title: "Secreto renombrado" } });

    // a last event to Ana, after everything else: once it arrives, anything meant for Caro would have too
    const last = next(w.ioAna, Events.chatOf(cid, chat.id));
    await call(w.sBeto, "POST", `/chats/${chat.id}/messages`, { message: "listo" });
    await last;
    await new Promise((r) => setTimeout(r, 100));
    expect(caroHeard).toEqual([]);
  });

  it("a participant removed from a chat is told to drop it and hears nothing of it afterwards", async () => {
    const w = await world();
    const cid = w.c.id;
    const created = next(w.ioCaro, Events.chat(cid));
    const chat = (await call(w.sAna, "POST", "/chats", { title: "Equipo", users: [w.beto.id, w.caro.id] })).json() as ChatView;
    expect(await created).toMatchObject({ action: "create" });
    const dropped = next(w.ioCaro, Events.chat(cid));
    await call(w.sAna, "PUT", `/chats/${chat.id}`, { title: "Equipo sin Caro", users: [w.beto.id] });
    expect(await dropped).toEqual({ action: "delete", id: chat.id });

    const caroHeard = record(w.ioCaro);
    const last = next(w.ioBeto, Events.chatOf(cid, chat.id));
    await call(w.sAna, "POST", `/chats/${chat.id}/messages`, { message: "ya sin Caro" });
    await last;
    await new Promise((r) => setTimeout(r, 100));
    expect(caroHeard).toEqual([]);
  });

  it("another company's users hear nothing of a chat", async () => {
    const w = await world();
    const other = await buildCompany(t.app);
    const io = await t.open(await login(t.app, other.admin));
    const heard = record(io);
    const chat = (await call(w.sAna, "POST", "/chats", { title: "Interno", users: [w.beto.id] })).json() as ChatView;
    const last = next(w.ioBeto, Events.chatOf(w.c.id, chat.id));
    await call(w.sAna, "POST", `/chats/${chat.id}/messages`, { message: "solo nuestro" });
    await last;
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toEqual([]);
  });
});
