import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoped } from "../db/scoped.js";
import { prompts, queueIntegrations, queueOptions, queues, whatsapps } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, buildContact, buildQueue, buildTicket, buildWhatsapp, login } from "../test/factories.js";
import { caller, uid } from "../test/http.js";
import { type Allowed, automationOf } from "./resolve.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const call = caller(() => t.app);

const PLAN = { plan: { useOpenAi: true, useIntegrations: true } };

/**
 * A company with one of every place: connection "C" offering area "A" whose option "1" may point at
 * something, another area "B", and a queue-less ticket of C's to move around them (automationOf reads
 * only the ticket's fields: each case hands it the place to stand on).
 */
async function places() {
  const company = await buildCompany(t.app, PLAN);
  const db = t.app.charla.db;
  const a = await buildQueue(t.app, company.id, { name: "A" });
  const b = await buildQueue(t.app, company.id, { name: "B" });
  const connection = await buildWhatsapp(t.app, company.id);
  const [option] = await db
    .insert(queueOptions)
    .values({ companyId: company.id, queueId: a.id, option: "1", title: "Uno", message: "" })
    .returning();
  const prompt = async (name: string, queueId: number | null) =>
    (
      await db
        .insert(prompts)
        .values({ companyId: company.id, name: `${name} ${uid()}`, prompt: "Eres amable", queueId })
        .returning()
    )[0];
  const integration = async (type: "typebot" | "webhook") =>
    (
      await db
        .insert(queueIntegrations)
        .values({ companyId: company.id, type, name: `I ${uid()}`, urlN8N: "http://127.0.0.1:9", typebotSlug: "s" })
        .returning()
    )[0];
  const contact = await buildContact(t.app, company.id);
  const ticket = await buildTicket(t.app, company.id, { contactId: contact.id, whatsappId: connection.id });
  const q = scoped(db, company.id);
  /** Who answers the ticket standing at `at`, as the plan allows `allowed`. */
  const who = async (at: Partial<typeof ticket>, allowed?: Allowed) => {
    const found = await automationOf(q, { ...ticket, ...at }, allowed);
    if (!found) return null;
    const id = found.kind === "prompt" ? found.prompt.id : found.integration.id;
    return `${found.kind}:${id}@${found.scope}`;
  };
  return { company, db, a, b, connection, option, prompt, integration, who };
}

describe("which automation answers a ticket (automation/resolve.ts)", () => {
  it("the nearest place first: option node, area's prompt, area's typebot, a prompt bound to the area; the connection only without an area", async () => {
    const { db, a, b, connection, option, prompt, integration, who } = await places();
    const onOption = await prompt("Opción", b.id);
    const onArea = await prompt("Área", b.id);
    const bound = await prompt("Vinculado", a.id);
    const onConnection = await prompt("Conexión", b.id);
    const typebot = await integration("typebot");
    await db.update(queueOptions).set({ promptId: onOption.id }).where(eq(queueOptions.id, option.id));
    await db.update(queues).set({ promptId: onArea.id, integrationId: typebot.id }).where(eq(queues.id, a.id));
    await db.update(whatsapps).set({ promptId: onConnection.id }).where(eq(whatsapps.id, connection.id));

    const inA = { queueId: a.id, queueOptionId: null };
    expect(await who({ queueId: a.id, queueOptionId: option.id })).toBe(`prompt:${onOption.id}@option:${option.id}`);
    expect(await who(inA)).toBe(`prompt:${onArea.id}@queue:${a.id}`);
    // the area's own choices beat the prompt bound to it: its typebot next
    await db.update(queues).set({ promptId: null }).where(eq(queues.id, a.id));
    expect(await who(inA)).toBe(`typebot:${typebot.id}@queue:${a.id}`);
    // with neither, the prompt saved with the area answers it
    await db.update(queues).set({ integrationId: null }).where(eq(queues.id, a.id));
    expect(await who(inA)).toBe(`prompt:${bound.id}@queue:${a.id}`);
    // several bound to it: the oldest (lowest id), whatever was edited last
    const later = await prompt("Otro vinculado", a.id);
    await db
      .update(prompts)
      .set({ updatedAt: new Date(Date.now() + 60_000) })
      .where(eq(prompts.id, later.id));
    expect(await who(inA)).toBe(`prompt:${bound.id}@queue:${a.id}`);
    // the connection's prompt is for tickets without an area; area B has three prompts bound: the lowest
    expect(await who({ queueId: null, queueOptionId: null })).toBe(`prompt:${onConnection.id}@connection:${connection.id}`);
    expect(await who({ queueId: b.id })).toBe(`prompt:${onOption.id}@queue:${b.id}`);
    // a ticket a prompt holds keeps it, wherever it stands
    expect(await who({ ...inA, useIntegration: true, promptId: onConnection.id })).toBe(
      `prompt:${onConnection.id}@connection:${connection.id}`,
    );
  });

  it("a place that already handed the ticket over is passed, bound prompt included; a webhook never talks", async () => {
    const { db, a, prompt, integration, who } = await places();
    const bound = await prompt("Vinculado", a.id);
    const webhook = await integration("webhook");
    await db.update(queues).set({ integrationId: webhook.id }).where(eq(queues.id, a.id));
    expect(await who({ queueId: a.id })).toBe(`prompt:${bound.id}@queue:${a.id}`);
    expect(await who({ queueId: a.id, automationDone: [`queue:${a.id}`] })).toBeNull();
  });

  it("what the plan does not allow is passed and the next place asked; nothing allowed answers nothing", async () => {
    const { db, a, option, prompt, integration, who } = await places();
    const bound = await prompt("Vinculado", a.id);
    const onOption = await prompt("Opción", null);
    const typebot = await integration("typebot");
    await db.update(queueOptions).set({ promptId: onOption.id }).where(eq(queueOptions.id, option.id));
    await db.update(queues).set({ integrationId: typebot.id }).where(eq(queues.id, a.id));
    const onNode = { queueId: a.id, queueOptionId: option.id };
    expect(await who(onNode)).toBe(`prompt:${onOption.id}@option:${option.id}`);
    // without useOpenAi: no prompt anywhere, the area's typebot
    expect(await who(onNode, { prompt: false, typebot: true })).toBe(`typebot:${typebot.id}@queue:${a.id}`);
    // without useIntegrations: the area's typebot is passed for the prompt bound to it
    expect(await who({ queueId: a.id }, { prompt: true, typebot: false })).toBe(`prompt:${bound.id}@queue:${a.id}`);
    expect(await who(onNode, { prompt: false, typebot: false })).toBeNull();
    // a held prompt the plan no longer allows: the usual flow
    expect(await who({ ...onNode, useIntegration: true, promptId: onOption.id }, { prompt: false, typebot: true })).toBeNull();
  });

  it("a deleted prompt answers nowhere: the area's own falls back to the one bound, then to none", async () => {
    const { company, db, a, prompt, who } = await places();
    const admin = await login(t.app, company.admin);
    const own = await prompt("Propio", null);
    const bound = await prompt("Vinculado", a.id);
    const second = await prompt("Segundo", a.id);
    await db.update(queues).set({ promptId: own.id }).where(eq(queues.id, a.id));
    expect(await who({ queueId: a.id })).toBe(`prompt:${own.id}@queue:${a.id}`);
    expect((await call(admin, "DELETE", `/prompt/${own.id}`)).statusCode).toBe(200);
    expect(await who({ queueId: a.id })).toBe(`prompt:${bound.id}@queue:${a.id}`);
    expect((await call(admin, "DELETE", `/prompt/${bound.id}`)).statusCode).toBe(200);
    expect(await who({ queueId: a.id })).toBe(`prompt:${second.id}@queue:${a.id}`);
    expect((await call(admin, "DELETE", `/prompt/${second.id}`)).statusCode).toBe(200);
    expect(await who({ queueId: a.id })).toBeNull();
  });

  it("another company's prompt bound to an area of the same id never answers", async () => {
    const mine = await places();
    const other = await buildCompany(t.app, PLAN);
    await t.app.charla.db.insert(prompts).values({ companyId: other.id, name: "Ajeno", prompt: "x", queueId: mine.a.id });
    expect(await mine.who({ queueId: mine.a.id })).toBeNull();
  });
});
