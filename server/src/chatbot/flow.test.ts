import { Ack, Events } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../test/app.js";
import { addOption, botCompany, linkQueue, phone, setSetting } from "../test/chatbot-kit.js";
import { buildContact, buildTicket, buildUser } from "../test/factories.js";
import { jobs, messages } from "../db/schema/index.js";
import { clock } from "./clock.js";

let t: TestApp;
const events: {
  event: string;
  payload: { action?: string; ticket?: { id: number; chatbot: boolean; queueId: number | null } };
}[] = [];
beforeAll(async () => {
  t = await getTestApp();
  t.app.charla.realtime.toUsers = () => ({ emit: (event, payload) => events.push({ event, payload: payload as never }) });
});
afterAll(() => t.close());
afterEach(() => {
  clock.now = () => new Date();
});

const MENU = "[ # ] Menú principal";

/** One area "Soporte" with a two-level tree: 1 Facturación (1 Duplicado, 2 Pagos), 2 Técnico. */
async function supportTree(w: Awaited<ReturnType<typeof botCompany>>) {
  const queue = await linkQueue(t, w, { name: "Soporte", greetingMessage: "Hola {{firstName}}, bienvenido a {{queue}}" });
  const billing = await addOption(t, queue, { option: "1", title: "Facturación", message: "Temas de facturación:" });
  await addOption(t, queue, { option: "2", title: "Técnico", message: "Un técnico te atiende pronto, ticket {{protocol}}" });
  const copy = await addOption(t, queue, {
    option: "1",
    title: "Duplicado",
    message: "Te enviamos el duplicado, {{name}}",
    parentId: billing.id,
  });
  await addOption(t, queue, { option: "2", title: "Pagos", message: "Pagos: transferencia", parentId: billing.id });
  return { queue, billing, copy };
}

describe("chatbot: option tree", () => {
  it("walks a two-level tree: right and wrong answers, 0 back, # main menu, a leaf ends the bot", async () => {
    const w = await botCompany(t);
    const { queue, billing } = await supportTree(w);
    const ana = phone(t, w);
    const root = `Hola Ana, bienvenido a Soporte\n\n[ 1 ] - Facturación\n[ 2 ] - Técnico\n${MENU}`;
    const billingMenu = `Temas de facturación:\n\n[ 1 ] - Duplicado\n[ 2 ] - Pagos\n[ 0 ] Volver\n${MENU}`;

    // one queue: routed at once, its tree starts at the root
    const ticketId = await ana.say("Hola");
    expect(await ana.replies()).toEqual([root]);
    expect(await ana.ticket()).toMatchObject({ queueId: queue.id, chatbot: true, queueOptionId: null, status: "pending" });
    expect(events.some((e) => e.payload.ticket?.id === ticketId && e.payload.ticket.chatbot)).toBe(true);

    await ana.say("5");
    expect(await ana.replies()).toEqual([root]);
    await ana.say("*1*");
    expect(await ana.replies()).toEqual([billingMenu]);
    expect((await ana.ticket()).queueOptionId).toBe(billing.id);
    await ana.say("no sé");
    expect(await ana.replies()).toEqual([billingMenu]);
    await ana.say("0");
    expect(await ana.replies()).toEqual([root]);
    expect((await ana.ticket()).queueOptionId).toBeNull();
    await ana.say("1");
    expect(await ana.replies()).toEqual([billingMenu]);
    // the main menu of a one-queue connection is that queue's menu again
    await ana.say("#");
    expect(await ana.replies()).toEqual([root]);
    expect(await ana.ticket()).toMatchObject({ queueId: queue.id, queueOptionId: null, chatbot: true });
    await ana.say("1");
    await ana.say("1");
    expect(await ana.replies()).toEqual([billingMenu, "Te enviamos el duplicado, Ana María"]);
    expect(await ana.ticket()).toMatchObject({
      id: ticketId,
      queueId: queue.id,
      chatbot: false,
      queueOptionId: null,
      status: "pending",
    });
    const last = events.filter((e) => e.payload.ticket?.id === ticketId && e.event === Events.ticket(w.companyId)).at(-1);
    expect(last?.payload.ticket).toMatchObject({ chatbot: false, queueId: queue.id });
    // the bot is done: the ticket waits for a human
    await ana.say("gracias");
    expect(await ana.replies()).toEqual([]);
  });

  it("fills the leaf's variables (protocol: date + ticket id) in the schedule's zone", async () => {
    const w = await botCompany(t, {}, { timeZone: "Asia/Tokyo" });
    await supportTree(w);
    const leo = phone(t, w, "Leo");
    clock.now = () => new Date("2024-05-06T20:30:00Z"); // 05:30 on the 7th in Tokyo
    const ticketId = await leo.say("hola");
    await leo.say("2");
    expect((await leo.replies()).at(-1)).toBe(`Un técnico te atiende pronto, ticket 20240507${ticketId}`);
  });
});

describe("chatbot: queue choice", () => {
  async function threeQueues(connection: Parameters<typeof botCompany>[1] = {}) {
    const w = await botCompany(t, { greetingMessage: "{{greeting}} {{name}}, elija un área:", ...connection });
    const ventas = await linkQueue(t, w, { name: "Ventas", orderQueue: 1, greetingMessage: "Ventas, {{firstName}}" });
    await addOption(t, ventas, { option: "1", title: "Precios", message: "Lista de precios" });
    const zeta = await linkQueue(t, w, { name: "Zeta", greetingMessage: "Zeta aquí" });
    const soporte = await linkQueue(t, w, { name: "Soporte Técnico", orderQueue: 2, greetingMessage: "Soporte: {{queue}}" });
    const alfa = await linkQueue(t, w, { name: "Alfa", greetingMessage: "Alfa aquí" });
    const list = "*[ 1 ]* - Ventas\n*[ 2 ]* - Soporte Técnico\n*[ 3 ]* - Alfa\n*[ 4 ]* - Zeta";
    return { w, ventas, soporte, alfa, zeta, list };
  }

  it("sends the greeting and the numbered list, repeats it on a wrong answer and assigns a valid one", async () => {
    const { w, soporte, list } = await threeQueues();
    clock.now = () => new Date("2024-05-06T15:00:00Z"); // 13:00 in America/Noronha, the default zone
    const ana = phone(t, w);
    await ana.say("hola");
    const first = `Buenas tardes Ana María, elija un área:\n\n${list}`;
    expect(await ana.replies()).toEqual([first]);
    expect(await ana.ticket()).toMatchObject({ queueId: null, chatbot: true, botListCount: 1 });
    await ana.say("7");
    expect(await ana.replies()).toEqual([first]);
    await ana.say("2");
    expect(await ana.replies()).toEqual(["Soporte: Soporte Técnico"]);
    // no tree in that queue: the bot is done, the ticket waits in its queue
    expect(await ana.ticket()).toMatchObject({ queueId: soporte.id, chatbot: false, status: "pending" });
  });

  it("enters a queue's tree from the list, and # goes back to the list from inside it", async () => {
    const { w, ventas, list } = await threeQueues({ greetingMessage: "Elija:" });
    const bob = phone(t, w, "Bob");
    await bob.say("hola");
    await bob.say("1");
    expect(await bob.replies()).toEqual([`Elija:\n\n${list}`, `Ventas, Bob\n\n[ 1 ] - Precios\n${MENU}`]);
    expect(await bob.ticket()).toMatchObject({ queueId: ventas.id, chatbot: true });
    await bob.say("#");
    expect(await bob.replies()).toEqual([`Elija:\n\n${list}`]);
    expect(await bob.ticket()).toMatchObject({ queueId: null, queueOptionId: null, chatbot: true });
    await bob.say("1");
    await bob.say("1");
    expect(await bob.replies()).toEqual([`Ventas, Bob\n\n[ 1 ] - Precios\n${MENU}`, "Lista de precios"]);
  });

  it("gives up after maxUseBotQueues lists: silent, pending for a human", async () => {
    const { w } = await threeQueues({ maxUseBotQueues: 2 });
    const eva = phone(t, w);
    await eva.say("hola");
    await eva.say("x");
    expect(await eva.replies()).toHaveLength(2);
    await eva.say("y");
    expect(await eva.replies()).toEqual([]);
    expect(await eva.ticket()).toMatchObject({ queueId: null, chatbot: false, botListCount: 2, status: "pending" });
    await eva.say("1");
    expect(await eva.replies()).toEqual([]);
    expect((await eva.ticket()).queueId).toBeNull();
  });

  it("repeats the list without limit when maxUseBotQueues is 0", async () => {
    const { w } = await threeQueues({ maxUseBotQueues: 0 });
    const eva = phone(t, w);
    for (const body of ["hola", "a", "b", "c", "d", "e"]) await eva.say(body);
    expect(await eva.replies()).toHaveLength(6);
    expect(await eva.ticket()).toMatchObject({ chatbot: true, botListCount: 6 });
  });

  it("waits timeUseBotQueues minutes before sending the list again, and still takes a valid answer meanwhile", async () => {
    const { w, alfa } = await threeQueues({ maxUseBotQueues: 0, timeUseBotQueues: 10 });
    const t0 = Date.parse("2024-05-06T12:00:00Z");
    const at = (min: number) => {
      clock.now = () => new Date(t0 + min * 60_000);
    };
    const eva = phone(t, w);
    at(0);
    await eva.say("hola");
    at(5);
    await eva.say("x");
    expect(await eva.replies()).toHaveLength(1);
    at(11);
    await eva.say("x");
    expect(await eva.replies()).toHaveLength(1);
    expect((await eva.ticket()).botListCount).toBe(2);
    at(12);
    await eva.say("3");
    expect(await eva.replies()).toEqual(["Alfa aquí"]);
    expect((await eva.ticket()).queueId).toBe(alfa.id);
  });

  it("keyword mode: a queue or option is chosen by its name as a whole word, accents and case aside", async () => {
    const { w, soporte, ventas } = await threeQueues();
    await setSetting(t, w.companyId, "chatBotType", "keyword");
    const ana = phone(t, w);
    await ana.say("hola");
    await ana.say("hay preventas?");
    expect(await ana.replies()).toHaveLength(2);
    await ana.say("quiero SOPORTE tecnico por favor");
    expect(await ana.ticket()).toMatchObject({ queueId: soporte.id });
    const bob = phone(t, w, "Bob");
    await bob.say("hola");
    await bob.say("ventas");
    await bob.say("¿qué PRECIOS tienen?");
    expect((await bob.replies()).at(-1)).toBe("Lista de precios");
    expect(await bob.ticket()).toMatchObject({ queueId: ventas.id, chatbot: false });
  });

  it("button and list modes are drawn as numbered text", async () => {
    const { w, list } = await threeQueues({ greetingMessage: "Elija:" });
    await setSetting(t, w.companyId, "chatBotType", "list");
    const ana = phone(t, w);
    await ana.say("hola");
    expect(await ana.replies()).toEqual([`Elija:\n\n${list}`]);
  });

  it("with no queue, greets once per ticket", async () => {
    const w = await botCompany(t, { greetingMessage: "Hola {{name}}, ya te atendemos" });
    const ana = phone(t, w);
    await ana.say("hola");
    await ana.say("¿hay alguien?");
    expect(await ana.replies()).toEqual(["Hola Ana María, ya te atendemos"]);
  });
});

describe("chatbot: when it stays out", () => {
  it("never answers on an agent's ticket, a group, or a message that is not the ticket's latest (replays)", async () => {
    const w = await botCompany(t, { greetingMessage: "Elija:" });
    await linkQueue(t, w, { name: "Ventas" });
    await linkQueue(t, w, { name: "Soporte" });

    const ana = phone(t, w);
    const agent = await buildUser(t.app, w.companyId);
    const contact = await buildContact(t.app, w.companyId, { number: ana.number, name: "Ana María" });
    await buildTicket(t.app, w.companyId, { contactId: contact.id, whatsappId: w.whatsappId, status: "open", userId: agent.id });
    await ana.say("hola");
    await ana.say("1");
    expect(await ana.replies()).toEqual([]);
    expect(await ana.ticket()).toMatchObject({ status: "open", userId: agent.id, queueId: null, chatbot: false });

    const group = phone(t, w, "Grupo");
    await group.deliver({ body: "hola", isGroup: true, participant: { number: "5215500001111", name: "Pepe" } });
    expect(await group.replies()).toEqual([]);

    const bob = phone(t, w, "Bob");
    const id = `replayed-${Date.now()}`;
    await bob.say("hola", id);
    await bob.say("hola", id);
    expect(await bob.replies()).toHaveLength(1);
    // an old message delivered late (offline sync) is stored but does not answer the list
    await bob.deliver({ body: "1", timestamp: new Date(Date.now() - 60 * 60_000) });
    expect(await bob.replies()).toEqual([]);
    expect(await bob.ticket()).toMatchObject({ queueId: null, botListCount: 1 });
  });
});

describe("chatbot: record first", () => {
  it("commits the ticket's new place with its reply: a connection gone leaves the reply in the ticket, queued for its job, not lost", async () => {
    const w = await botCompany(t, { greetingMessage: "Elija:" });
    await linkQueue(t, w, { name: "Ventas" });
    await linkQueue(t, w, { name: "Soporte" });
    const sessions = t.app.charla.sessions;
    const driverFor = sessions.driverFor;
    sessions.driverFor = async () => null;
    try {
      const ana = phone(t, w);
      await ana.deliver({ body: "hola" });
      await t.app.charla.events.idle();
      const [reply] = await t.app.charla.db
        .select()
        .from(messages)
        .where(and(eq(messages.contactId, await ana.contactId()), eq(messages.fromMe, true)));
      expect(reply).toMatchObject({
        body: "Elija:\n\n*[ 1 ]* - Soporte\n*[ 2 ]* - Ventas",
        isAutomatic: true,
        ack: Ack.queued,
      });
      // its delivery job waits for the session (tried again with backoff, failed only at its last attempt)
      const [job] = await t.app.charla.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.companyId, w.companyId), eq(jobs.kind, "message.deliver")));
      expect(job).toMatchObject({ state: "pending", payload: { messageIds: [reply.id] } });
      expect(await ana.ticket()).toMatchObject({ queueId: null, chatbot: true, botListCount: 1 });
    } finally {
      sessions.driverFor = driverFor;
    }
  });
});
