import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, plans, prompts, queueIntegrations, queueOptions, queues, whatsapps } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, buildPlan, buildQueue, login } from "../test/factories.js";
import { caller, expectError, uid } from "../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

/** A company with a prompt and a typebot integration of its own, its admin logged in. */
async function companyWithAutomations() {
  const plan = await buildPlan(t.app, { connections: 10, queues: 10, useOpenAi: true, useIntegrations: true });
  const c = await buildCompany(t.app, { planId: plan.id });
  const db = t.app.charla.db;
  const [prompt] = await db
    .insert(prompts)
    .values({ companyId: c.id, name: `P ${uid()}`, prompt: "Eres amable" })
    .returning();
  const [integration] = await db
    .insert(queueIntegrations)
    .values({ companyId: c.id, type: "typebot", name: `I ${uid()}`, urlN8N: "http://127.0.0.1:9", typebotSlug: "s" })
    .returning();
  return { c, prompt, integration, s: await login(t.app, c.admin) };
}

const queueForm = (over: Record<string, unknown> = {}) => ({
  name: `Area ${uid()}`,
  color: `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")
    .toUpperCase()}`,
  greetingMessage: "",
  ...over,
});

const connectionForm = (over: Record<string, unknown> = {}) => ({
  name: `Conexión ${uid()}`,
  number: "5215512345678",
  provider: "beta",
  ...over,
});

describe("automation references: areas, options and connections point at the company's own prompt or integration", () => {
  it('POST/PUT /queue store promptId and integrationId; another company\'s answers 404; false, "" and null mean none', async () => {
    const mine = await companyWithAutomations();
    const other = await companyWithAutomations();
    const res = await call(mine.s, "POST", "/queue", queueForm({ promptId: mine.prompt.id, integrationId: mine.integration.id }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ promptId: mine.prompt.id, integrationId: mine.integration.id });

    expectError(await call(mine.s, "POST", "/queue", queueForm({ promptId: other.prompt.id })), 404, "ERR_NO_PROMPT_FOUND");
    expectError(
      await call(mine.s, "POST", "/queue", queueForm({ integrationId: other.integration.id })),
      404,
      "ERR_NO_INTEGRATION_FOUND",
    );
    const form = { name: created.name, color: created.color, greetingMessage: "" };
    expectError(
      await call(mine.s, "PUT", `/queue/${created.id}`, { ...form, integrationId: other.integration.id }),
      404,
      "ERR_NO_INTEGRATION_FOUND",
    );
    const [kept] = await t.app.charla.db.select().from(queues).where(eq(queues.id, created.id));
    expect(kept).toMatchObject({ promptId: mine.prompt.id, integrationId: mine.integration.id });

    for (const none of [false, "", null]) {
      await t.app.charla.db
        .update(queues)
        .set({ promptId: mine.prompt.id, integrationId: mine.integration.id })
        .where(eq(queues.id, created.id));
      const put = await call(mine.s, "PUT", `/queue/${created.id}`, { ...form, promptId: none, integrationId: none });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({ promptId: null, integrationId: null });
    }
    // absent: kept as it was
    await call(mine.s, "PUT", `/queue/${created.id}`, { ...form, integrationId: mine.integration.id });
    const put = await call(mine.s, "PUT", `/queue/${created.id}`, form);
    expect(put.json()).toMatchObject({ integrationId: mine.integration.id });
  });

  it("POST/PUT /queue-options store q_integration_id and promptId; another company's answers 404", async () => {
    const mine = await companyWithAutomations();
    const other = await companyWithAutomations();
    const queue = await buildQueue(t.app, mine.c.id);
    const res = await call(mine.s, "POST", "/queue-options", {
      queueId: queue.id,
      title: "Bot",
      q_integration_id: mine.integration.id,
      promptId: "",
    });
    expect(res.statusCode, res.body).toBe(201);
    const node = res.json();
    expect(node).toMatchObject({ q_integration_id: mine.integration.id, promptId: null });

    expectError(
      await call(mine.s, "POST", "/queue-options", { queueId: queue.id, title: "X", promptId: other.prompt.id }),
      404,
      "ERR_NO_PROMPT_FOUND",
    );
    expectError(
      await call(mine.s, "PUT", `/queue-options/${node.id}`, { q_integration_id: other.integration.id }),
      404,
      "ERR_NO_INTEGRATION_FOUND",
    );
    const put = await call(mine.s, "PUT", `/queue-options/${node.id}`, { q_integration_id: false, promptId: mine.prompt.id });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ q_integration_id: null, promptId: mine.prompt.id, title: "Bot" });
    // a title alone leaves them as they are
    const titled = await call(mine.s, "PUT", `/queue-options/${node.id}`, { title: "Asistente" });
    expect(titled.json()).toMatchObject({ title: "Asistente", promptId: mine.prompt.id });
    const [row] = await t.app.charla.db.select().from(queueOptions).where(eq(queueOptions.id, node.id));
    expect(row).toMatchObject({ qIntegrationId: null, promptId: mine.prompt.id });
  });

  it("POST/PUT /whatsapp store promptId and integrationId; another company's answers 404", async () => {
    const mine = await companyWithAutomations();
    const other = await companyWithAutomations();
    const res = await call(
      mine.s,
      "POST",
      "/whatsapp",
      connectionForm({ promptId: mine.prompt.id, integrationId: mine.integration.id }),
    );
    expect(res.statusCode, res.body).toBeLessThan(300);
    const created = res.json();
    expect(created).toMatchObject({ promptId: mine.prompt.id, integrationId: mine.integration.id });

    expectError(
      await call(mine.s, "POST", "/whatsapp", connectionForm({ promptId: other.prompt.id })),
      404,
      "ERR_NO_PROMPT_FOUND",
    );
    const form = connectionForm({ name: created.name, isDefault: created.isDefault });
    expectError(
      await call(mine.s, "PUT", `/whatsapp/${created.id}`, { ...form, integrationId: other.integration.id }),
      404,
      "ERR_NO_INTEGRATION_FOUND",
    );
    const put = await call(mine.s, "PUT", `/whatsapp/${created.id}`, { ...form, promptId: false, integrationId: "" });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ promptId: null, integrationId: null });
    const [row] = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, created.id));
    expect(row).toMatchObject({ promptId: null, integrationId: null });
  });

  it("pointing at a new prompt or integration needs the plan's flag; a value already held is kept without it", async () => {
    const mine = await companyWithAutomations();
    const db = t.app.charla.db;
    const res = await call(mine.s, "POST", "/queue", queueForm({ promptId: mine.prompt.id, integrationId: mine.integration.id }));
    expect(res.statusCode, res.body).toBe(201);
    const area = res.json();
    const [company] = await db.select().from(companies).where(eq(companies.id, mine.c.id));
    await db.update(plans).set({ useOpenAi: false, useIntegrations: false }).where(eq(plans.id, company.planId));

    // the area keeps what it holds, and is still edited as a whole
    const kept = await call(mine.s, "PUT", `/queue/${area.id}`, {
      ...queueForm({ promptId: mine.prompt.id }),
      integrationId: mine.integration.id,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    // a new one is refused, by the API and not only by the hidden pickers
    expectError(await call(mine.s, "POST", "/queue", queueForm({ promptId: mine.prompt.id })), 403, "ERR_NO_PERMISSION");
    expectError(
      await call(mine.s, "POST", "/queue", queueForm({ integrationId: mine.integration.id })),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call(mine.s, "POST", "/whatsapp", connectionForm({ integrationId: mine.integration.id })),
      403,
      "ERR_NO_PERMISSION",
    );
    const plain = (await call(mine.s, "POST", "/queue", queueForm())).json();
    expectError(
      await call(mine.s, "PUT", `/queue/${plain.id}`, queueForm({ promptId: mine.prompt.id })),
      403,
      "ERR_NO_PERMISSION",
    );
    // and clearing it needs no flag
    const cleared = await call(mine.s, "PUT", `/queue/${area.id}`, queueForm({ promptId: null, integrationId: null }));
    expect(cleared.json()).toMatchObject({ promptId: null, integrationId: null });
  });
  it("PUT /queue, /queue-options and /whatsapp with another company's promptId: 404, nothing saved; a new one without useOpenAi: 403", async () => {
    const mine = await companyWithAutomations();
    const other = await companyWithAutomations();
    const db = t.app.charla.db;
    const area = (await call(mine.s, "POST", "/queue", queueForm())).json();
    const node = (await call(mine.s, "POST", "/queue-options", { queueId: area.id, title: "Bot" })).json();
    const connection = (await call(mine.s, "POST", "/whatsapp", connectionForm())).json();
    const areaForm = { name: area.name, color: area.color, greetingMessage: "" };
    const connectionPut = connectionForm({ name: connection.name, isDefault: connection.isDefault });
    const puts = (promptId: number) =>
      [
        ["PUT", `/queue/${area.id}`, { ...areaForm, promptId }],
        ["PUT", `/queue-options/${node.id}`, { promptId }],
        ["PUT", `/whatsapp/${connection.id}`, { ...connectionPut, promptId }],
      ] as const;
    const stored = async () => [
      (await db.select().from(queues).where(eq(queues.id, area.id)))[0].promptId,
      (await db.select().from(queueOptions).where(eq(queueOptions.id, node.id)))[0].promptId,
      (await db.select().from(whatsapps).where(eq(whatsapps.id, connection.id)))[0].promptId,
    ];
    for (const [method, path, body] of puts(other.prompt.id)) {
      expectError(await call(mine.s, method, path, body), 404, "ERR_NO_PROMPT_FOUND");
    }
    expect(await stored()).toEqual([null, null, null]);
    const [company] = await db.select().from(companies).where(eq(companies.id, mine.c.id));
    await db.update(plans).set({ useOpenAi: false }).where(eq(plans.id, company.planId));
    for (const [method, path, body] of puts(mine.prompt.id)) {
      expectError(await call(mine.s, method, path, body), 403, "ERR_NO_PERMISSION");
    }
    expect(await stored()).toEqual([null, null, null]);
  });
});
