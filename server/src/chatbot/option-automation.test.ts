import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automationOf } from "../automation/resolve.js";
import { scoped } from "../db/scoped.js";
import { queueIntegrations, queueOptions, queues, typebotSessions } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { AUTOMATION_PLAN, addOption, botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { choiceInput, fakeTypebot, textBubble, textInput } from "../test/fake-typebot.js";
import { uid } from "../test/http.js";

let t: TestApp;
let bot: Awaited<ReturnType<typeof fakeTypebot>>;
beforeAll(async () => {
  t = await getTestApp();
  bot = await fakeTypebot(() => ({ body: { messages: [] } }));
});
afterAll(async () => {
  await bot.close();
  await t.close();
});

const MENU = "[ # ] Menú principal";

async function integration(companyId: number, values: Partial<typeof queueIntegrations.$inferInsert> = {}) {
  const [row] = await t.app.charla.db
    .insert(queueIntegrations)
    .values({
      companyId,
      type: "typebot",
      name: `Bot ${uid()}`,
      urlN8N: bot.url,
      typebotSlug: "arbol",
      typebotKeywordFinish: "salir",
      typebotDelayMessage: 0,
      ...values,
    })
    .returning();
  return row;
}

/** Polls the customer's replies until `n` more came (the bot answers after the simulator's response). */
async function replies(ana: ReturnType<typeof phone>, n: number): Promise<string[]> {
  const got: string[] = [];
  const end = Date.now() + 10_000;
  while (got.length < n && Date.now() < end) {
    got.push(...(await ana.replies()));
    if (got.length < n) await new Promise((r) => setTimeout(r, 25));
  }
  return got;
}

describe("option tree: a node with a typebot or a prompt", () => {
  it("sends the node's message, keeps the contact on it in the bot's hands, and the typebot answers the next message", async () => {
    const w = await botCompany(t, {}, AUTOMATION_PLAN);
    const typebot = await integration(w.companyId);
    const queue = await linkQueue(t, w, { name: "Soporte", greetingMessage: "Soporte:" });
    const node = await addOption(t, queue, { option: "1", title: "Asistente", message: "Te atiende nuestro asistente" });
    await addOption(t, queue, { option: "2", title: "Humano", message: "Un agente te atiende" });
    await t.app.charla.db.update(queueOptions).set({ qIntegrationId: typebot.id }).where(eq(queueOptions.id, node.id));
    const ana = phone(t, w);
    await ana.say("Hola");
    expect(await replies(ana, 1)).toEqual([`Soporte:\n\n[ 1 ] - Asistente\n[ 2 ] - Humano\n${MENU}`]);

    await ana.say("1");
    // the node's own message, and not the leaf's end: the bot keeps the ticket on the node
    expect(await replies(ana, 1)).toEqual(["Te atiende nuestro asistente"]);
    const onNode = await ana.ticket();
    expect(onNode).toMatchObject({ queueOptionId: node.id, chatbot: true, queueId: queue.id });
    const auto = await automationOf(scoped(t.app.charla.db, w.companyId), onNode);
    expect(auto).toMatchObject({ kind: "typebot", scope: `option:${node.id}` });

    // end to end through the simulator: the next message is the typebot's
    bot.answer = (call) =>
      call.kind === "start"
        ? { body: { messages: [textBubble("Soy el asistente")], input: choiceInput("Factura", "Envío") } }
        : { body: { messages: [textBubble("Adiós")] } };
    const mark = bot.calls.length;
    await ana.say("Necesito ayuda");
    expect(await replies(ana, 2)).toEqual(["Soy el asistente", "*[ 1 ]* - Factura\n*[ 2 ]* - Envío"]);
    expect(bot.calls.slice(mark)).toEqual([{ kind: "start", slug: "arbol", text: "Necesito ayuda" }]);
    expect(await ana.ticket()).toMatchObject({ useIntegration: true, integrationId: typebot.id });

    // the bot ends: the ticket goes back to the area (waiting for its humans), the node's typebot done
    await ana.say("2");
    expect(await replies(ana, 1)).toEqual(["Adiós"]);
    const after = await ana.ticket();
    expect(after).toMatchObject({ useIntegration: false, chatbot: false, automationDone: [`option:${node.id}`] });
    expect(await t.app.charla.db.select().from(typebotSessions).where(eq(typebotSessions.ticketId, after.id))).toEqual([]);
    // and it stays quiet on the next message: humans answer now
    const calls = bot.calls.length;
    await ana.say("¿hola?");
    await t.app.charla.events.idle();
    expect(await ana.replies()).toEqual([]);
    expect(bot.calls.length).toBe(calls);
  });

  it("a typebot stays quiet while the company's plan lacks useIntegrations: the area waits for its humans", async () => {
    const w = await botCompany(t, {}, { plan: { useIntegrations: false } });
    const typebot = await integration(w.companyId);
    await linkQueue(t, w, { name: "Bot", greetingMessage: "Bienvenido", integrationId: typebot.id });
    const ana = phone(t, w);
    const calls = bot.calls.length;
    await ana.say("Hola");
    await t.app.charla.events.idle();
    await ana.say("¿alguien?");
    await t.app.charla.events.idle();
    expect(bot.calls.length).toBe(calls);
    expect(await ana.ticket()).toMatchObject({ useIntegration: false, integrationId: null });
  });

  it("a node pointing at a webhook integration (it only receives deliveries) is a leaf as before", async () => {
    const w = await botCompany(t, {}, AUTOMATION_PLAN);
    const hook = await integration(w.companyId, { type: "webhook", urlN8N: "https://hooks.test/x" });
    const queue = await linkQueue(t, w, { name: "Ventas", greetingMessage: "Ventas:" });
    const node = await addOption(t, queue, { option: "1", title: "Cotizar", message: "Un vendedor te escribe" });
    await t.app.charla.db.update(queueOptions).set({ qIntegrationId: hook.id }).where(eq(queueOptions.id, node.id));
    const ana = phone(t, w);
    await ana.say("Hola");
    await replies(ana, 1);
    await ana.say("1");
    expect(await replies(ana, 1)).toEqual(["Un vendedor te escribe"]);
    expect(await ana.ticket()).toMatchObject({ chatbot: false, queueOptionId: null });
  });

  it("an area with a typebot: the customer chooses it, and the typebot talks from the next message", async () => {
    const w = await botCompany(t, { greetingMessage: "Elige:" }, AUTOMATION_PLAN);
    const typebot = await integration(w.companyId);
    await linkQueue(t, w, { name: "Ventas", orderQueue: 1 });
    const area = await linkQueue(t, w, { name: "Bot", orderQueue: 2, greetingMessage: "Bienvenido" });
    await t.app.charla.db
      .update(queues)
      .set({ integrationId: typebot.id })
      .where(and(eq(queues.id, area.id), eq(queues.companyId, w.companyId)));
    bot.answer = () => ({ body: { messages: [textBubble("Hola desde Typebot")], input: textInput() } });
    const ana = phone(t, w);
    await ana.say("Hola");
    expect(await replies(ana, 1)).toEqual(["Elige:\n\n*[ 1 ]* - Ventas\n*[ 2 ]* - Bot"]);
    await ana.say("2");
    expect(await replies(ana, 1)).toEqual(["Bienvenido"]);
    await ana.say("precio");
    expect(await replies(ana, 1)).toEqual(["Hola desde Typebot"]);
    await ana.say("SALIR");
    await t.app.charla.events.idle();
    expect(await ana.ticket()).toMatchObject({ useIntegration: false, automationDone: [`queue:${area.id}`] });
  });
});
