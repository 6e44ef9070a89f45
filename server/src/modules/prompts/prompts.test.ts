import { Events, type PromptEvent, type PromptView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prompts, queueOptions, queues, tickets, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getIsolatedTestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import {
  buildCompany,
  buildContact,
  buildQueue,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
  type Session,
} from "../../test/factories.js";
import { type FakeOpenAi, startFakeOpenAi } from "../../test/fake-openai.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
let fake: FakeOpenAi;
const KEY = "sk-test-0123456789abcdef";
beforeAll(async () => {
  // the install's endpoint is OpenAI's, without a key of its own: a prompt must bring one
  t = await getIsolatedTestApp({ openaiBaseUrl: "https://api.openai.com/v1", openaiApiKey: "" });
  fake = await startFakeOpenAi({ key: KEY });
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
const call = caller(() => t.app);
const listen = eventListener(() => t.app);

/** A company whose plan has useOpenAi, its admin's session and an area. */
async function aiCompany() {
  const c = await buildCompany(t.app, { plan: { useOpenAi: true } });
  const s = await login(t.app, c.admin);
  const queue = await buildQueue(t.app, c.id, { name: `Ventas ${uid()}` });
  return { c, s, queue };
}

const form = (queueId: number | null, over: Record<string, unknown> = {}) => ({
  name: `Asistente ${uid()}`,
  prompt: "Eres el asistente de ventas de una tienda de bicicletas. Responde con amabilidad.",
  model: "gpt-4o-mini",
  queueId,
  ...over,
});

async function newPrompt(s: Session, queueId: number, over: Record<string, unknown> = {}): Promise<PromptView> {
  const res = await call(s, "POST", "/prompt", form(queueId, over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as PromptView;
}

describe("prompts: who may", () => {
  it("is for admins whose plan has useOpenAi: other profiles and plans without the flag are refused", async () => {
    const off = await buildCompany(t.app);
    const offAdmin = await login(t.app, off.admin);
    const refused = await call(offAdmin, "GET", "/prompt");
    expectError(refused, 403, "ERR_NO_PERMISSION");
    expect(refused.json().data).toMatchObject({ reason: "plan" });
    expectError(await call(offAdmin, "GET", "/ia/models"), 403, "ERR_NO_PERMISSION");
    const { c, s, queue } = await aiCompany();
    for (const profile of ["user", "subadmin", "supervisor"] as const) {
      const other = await login(t.app, await buildUser(t.app, c.id, { profile }));
      expectError(await call(other, "GET", "/prompt"), 403, "ERR_NO_PERMISSION");
      expectError(await call(other, "POST", "/prompt", form(queue.id)), 403, "ERR_NO_PERMISSION");
    }
    expect((await call(s, "GET", "/prompt")).statusCode).toBe(200);
  });
});

describe("prompts: the form", () => {
  it("takes secondary §9's defaults, requires the area ('Informar al sector') and bounds every field", async () => {
    const { s, queue } = await aiCompany();
    const missing = await call(s, "POST", "/prompt", form(null));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues).toEqual([{ path: "body.queueId", message: "validation.promptQueueRequired" }]);
    const blank = await call(s, "POST", "/prompt", { ...form(queue.id), name: " ", prompt: "", model: "" });
    expect(
      blank
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["body.model", "body.name", "body.prompt"]);
    for (const bad of [
      { maxTokens: 0 },
      { maxTokens: 100_000 },
      { maxMessages: 51 },
      { temperature: 3 },
      { voice: "pt-BR-FranciscaNeural" },
      { baseUrl: "ftp://models.example.com" },
      { apiKey: "k".repeat(501) },
    ]) {
      expect((await call(s, "POST", "/prompt", form(queue.id, bad))).statusCode, JSON.stringify(bad)).toBe(400);
    }

    const created = await newPrompt(s, queue.id);
    expect(created).toMatchObject({
      voice: "texto",
      maxTokens: 500,
      maxMessages: 10,
      temperature: 1,
      apiKey: "",
      hasApiKey: false,
      baseUrl: "",
      queueId: queue.id,
      queue: { id: queue.id, name: queue.name },
    });
  });

  it("seals the key: never answered in full, kept when the edit leaves it blank, replaced when a new one is typed", async () => {
    const { c, s, queue } = await aiCompany();
    const capture = listen();
    const created = await newPrompt(s, queue.id, { apiKey: KEY, baseUrl: fake.baseUrl, maxTokens: 300, maxMessages: 4 });
    expect(created).toMatchObject({ apiKey: "••••••••cdef", hasApiKey: true, maxTokens: 300, maxMessages: 4 });
    const [row] = await t.app.charla.db.select().from(prompts).where(eq(prompts.id, created.id));
    expect(row.apiKeySealed).not.toContain(KEY);
    expect(t.app.charla.secrets.open(row.apiKeySealed)).toBe(KEY);
    for (const res of [await call(s, "GET", `/prompt/${created.id}`), await call(s, "GET", "/prompt")]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(KEY);
      expect(res.body).not.toContain(row.apiKeySealed);
    }

    const edited = await call(s, "PUT", `/prompt/${created.id}`, { ...form(queue.id), name: "Renombrado", apiKey: "" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: "Renombrado", apiKey: "••••••••cdef", hasApiKey: true, maxTokens: 500 });
    const [kept] = await t.app.charla.db.select().from(prompts).where(eq(prompts.id, created.id));
    expect(t.app.charla.secrets.open(kept.apiKeySealed)).toBe(KEY);

    const replaced = await call(s, "PUT", `/prompt/${created.id}`, {
      ...form(queue.id),
      name: "Renombrado",
      apiKey: "sk-new-9876",
    });
    expect(replaced.json()).toMatchObject({ apiKey: "••••••••9876" });
    expect(replaced.body).not.toContain("sk-new-9876");

    // the company's admins hear each change on company-{id}-prompt, the key masked there too
    const heard = capture.events.filter((e) => e.event === Events.prompt(c.id));
    expect(heard.map((e) => (e.payload as PromptEvent).action)).toEqual(["create", "update", "update"]);
    expect(heard.every((e) => JSON.stringify(e.to) === JSON.stringify([c.admin.id]))).toBe(true);
    expect(JSON.stringify(heard)).not.toContain(KEY);
  });

  it("lists 20 a page by name, searched by name", async () => {
    const { s, queue } = await aiCompany();
    const tag = uid();
    for (let i = 0; i < 22; i++) await newPrompt(s, queue.id, { name: `P${String(i).padStart(2, "0")} ${tag}` });
    await newPrompt(s, queue.id, { name: "Otro" });
    const first = await call(s, "GET", `/prompt?searchParam=${tag}`);
    expect(first.json()).toMatchObject({ count: 22, hasMore: true });
    expect(first.json().prompts).toHaveLength(20);
    expect(first.json().prompts[0].name).toBe(`P00 ${tag}`);
    const second = await call(s, "GET", `/prompt?searchParam=${tag}&pageNumber=2`);
    expect(second.json()).toMatchObject({ count: 22, hasMore: false });
    expect(second.json().prompts.map((p: PromptView) => p.name)).toEqual([`P20 ${tag}`, `P21 ${tag}`]);
  });
});

describe("prompts: another company's", () => {
  it("prompts and areas answer 404, and nothing of them changes", async () => {
    const a = await aiCompany();
    const b = await aiCompany();
    const mine = await newPrompt(a.s, a.queue.id, { apiKey: KEY, baseUrl: fake.baseUrl });
    for (const [method, url, body] of [
      ["GET", `/prompt/${mine.id}`],
      ["PUT", `/prompt/${mine.id}`, form(b.queue.id)],
      ["DELETE", `/prompt/${mine.id}`],
      ["GET", `/ia/models?promptId=${mine.id}`],
      ["POST", "/ia/models", { promptId: mine.id, baseUrl: fake.baseUrl }],
    ] as const) {
      expectError(await call(b.s, method, url, body), 404, "ERR_NO_PROMPT_FOUND");
    }
    expectError(await call(b.s, "POST", "/prompt", form(a.queue.id)), 404, "ERR_NO_QUEUE_FOUND");
    expectError(await call(a.s, "PUT", `/prompt/${mine.id}`, form(b.queue.id)), 404, "ERR_NO_QUEUE_FOUND");
    expect((await call(b.s, "GET", "/prompt")).json()).toEqual({ prompts: [], hasMore: false, count: 0 });
    expect((await call(a.s, "GET", `/prompt/${mine.id}`)).json()).toMatchObject({ name: mine.name, queueId: a.queue.id });
    // the stored key went nowhere: the fake heard no request with it from B
    expect(fake.requests.filter((r) => r.authorization === `Bearer ${KEY}`)).toEqual([]);
  });
});

describe("prompts: delete", () => {
  it("answers a message and, in the same transaction, clears every area, option, connection and ticket pointing at it", async () => {
    const { c, s, queue } = await aiCompany();
    const capture = listen();
    const p = await newPrompt(s, queue.id);
    const keep = await newPrompt(s, queue.id);
    const wa = await buildWhatsapp(t.app, c.id);
    await t.app.charla.db.update(queues).set({ promptId: p.id }).where(eq(queues.id, queue.id));
    await t.app.charla.db.update(whatsapps).set({ promptId: p.id }).where(eq(whatsapps.id, wa.id));
    const [option] = await t.app.charla.db
      .insert(queueOptions)
      .values({ companyId: c.id, queueId: queue.id, title: "IA", option: "1", promptId: p.id })
      .returning();
    const contact = await buildContact(t.app, c.id);
    const ticket = await buildTicket(t.app, c.id, { contactId: contact.id, whatsappId: wa.id, queueId: queue.id });
    await t.app.charla.db.update(tickets).set({ promptId: p.id, useIntegration: true }).where(eq(tickets.id, ticket.id));

    const res = await call(s, "DELETE", `/prompt/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(res.json().message).not.toBe("");
    expectError(await call(s, "GET", `/prompt/${p.id}`), 404, "ERR_NO_PROMPT_FOUND");
    expectError(await call(s, "DELETE", `/prompt/${p.id}`), 404, "ERR_NO_PROMPT_FOUND");
    const db = t.app.charla.db;
    expect((await db.select().from(queues).where(eq(queues.id, queue.id)))[0].promptId).toBeNull();
    expect((await db.select().from(whatsapps).where(eq(whatsapps.id, wa.id)))[0].promptId).toBeNull();
    expect((await db.select().from(queueOptions).where(eq(queueOptions.id, option.id)))[0].promptId).toBeNull();
    expect((await db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0]).toMatchObject({
      promptId: null,
      useIntegration: false,
    });
    expect((await call(s, "GET", `/prompt/${keep.id}`)).statusCode).toBe(200);
    expect(capture.on(Events.prompt(c.id)).at(-1)).toEqual({ action: "delete", promptId: p.id });
  });

  it("deleting its area leaves the prompt without one (it then hands over within the ticket's area)", async () => {
    const { s, queue } = await aiCompany();
    const p = await newPrompt(s, queue.id);
    expect((await call(s, "DELETE", `/queue/${queue.id}`)).statusCode).toBeLessThan(300);
    expect((await call(s, "GET", `/prompt/${p.id}`)).json()).toMatchObject({ queueId: null, queue: null });
  });
});

describe("prompts: the endpoint's models (GET/POST /ia/models)", () => {
  it("lists a stored prompt's models with its own key and URL, and a typed key's before saving", async () => {
    const { s, queue } = await aiCompany();
    const p = await newPrompt(s, queue.id, { apiKey: KEY, baseUrl: fake.baseUrl });
    const before = fake.requests.length;
    const stored = await call(s, "GET", `/ia/models?promptId=${p.id}`);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ models: [{ model: "gpt-4o-mini" }, { model: "llama3" }] });
    expect(fake.requests.slice(before)).toMatchObject([{ method: "GET", path: "/v1/models", authorization: `Bearer ${KEY}` }]);

    const typed = await call(s, "POST", "/ia/models", { apiKey: KEY, baseUrl: fake.baseUrl });
    expect(typed.json()).toEqual({ models: [{ model: "gpt-4o-mini" }, { model: "llama3" }] });
    // an edit that leaves the key blank lists with the stored one, towards the stored URL only
    expect((await call(s, "POST", "/ia/models", { promptId: p.id, baseUrl: fake.baseUrl })).statusCode).toBe(200);
    const open = await startFakeOpenAi();
    try {
      const elsewhere = await call(s, "POST", "/ia/models", { promptId: p.id, baseUrl: open.baseUrl });
      expect(elsewhere.statusCode).toBe(200);
      expect(open.requests.map((r) => r.authorization)).not.toContain(`Bearer ${KEY}`);
    } finally {
      await open.close();
    }
  });

  it("a provider's refusal or an unreachable endpoint is 502 with a short reason, never the key", async () => {
    const { s } = await aiCompany();
    const wrong = "sk-wrong-abcdefghijkl";
    const refused = await call(s, "POST", "/ia/models", { apiKey: wrong, baseUrl: fake.baseUrl });
    expectError(refused, 502, "ERR_AI_PROVIDER");
    expect(refused.json().message).toContain("401");
    expect(refused.body).not.toContain(wrong);
    expect(refused.body).not.toContain("abcdefghijkl");
    const down = await call(s, "POST", "/ia/models", { apiKey: wrong, baseUrl: "http://127.0.0.1:1/v1" });
    expectError(down, 502, "ERR_AI_PROVIDER");
    expect(down.body).not.toContain(wrong);
  });

  it("without any key towards OpenAI's own endpoint: ERR_AI_NOT_CONFIGURED, and no request leaves", async () => {
    const { s } = await aiCompany();
    expectError(await call(s, "GET", "/ia/models"), 400, "ERR_AI_NOT_CONFIGURED");
    expectError(await call(s, "POST", "/ia/models", {}), 400, "ERR_AI_NOT_CONFIGURED");
  });

  it("the install's own key serves its own endpoint only, never a URL a company typed", async () => {
    const open = await startFakeOpenAi();
    const own = await getTestApp({ openaiBaseUrl: open.baseUrl, openaiApiKey: "sk-install-key-123456" }, t.database);
    try {
      const c = await buildCompany(own.app, { plan: { useOpenAi: true } });
      const s = await login(own.app, c.admin);
      const ownCall = caller(() => own.app);
      expect((await ownCall(s, "GET", "/ia/models")).json().models).toHaveLength(2);
      expect(open.requests.at(-1)?.authorization).toBe("Bearer sk-install-key-123456");
      const other = await startFakeOpenAi();
      try {
        expect((await ownCall(s, "POST", "/ia/models", { baseUrl: other.baseUrl })).statusCode).toBe(200);
        expect(other.requests.at(-1)?.authorization).not.toContain("sk-install-key-123456");
      } finally {
        await other.close();
      }
    } finally {
      await own.close();
      await open.close();
    }
  });

  it("with private addresses refused (INTEGRATIONS_ALLOW_PRIVATE=false) a local URL is not saved nor called", async () => {
    const strict = await getTestApp({ integrationsAllowPrivate: false }, t.database);
    try {
      const c = await buildCompany(strict.app, { plan: { useOpenAi: true } });
      const s = await login(strict.app, c.admin);
      const queue = await buildQueue(strict.app, c.id);
      const strictCall = caller(() => strict.app);
      const before = fake.requests.length;
      expectError(await strictCall(s, "POST", "/prompt", form(queue.id, { baseUrl: fake.baseUrl })), 400, "ERR_URL_NOT_ALLOWED");
      expectError(await strictCall(s, "POST", "/ia/models", { apiKey: KEY, baseUrl: fake.baseUrl }), 400, "ERR_URL_NOT_ALLOWED");
      expect(fake.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
