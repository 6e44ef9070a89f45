import { DEFAULT_SCHEDULES } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../app.js";
import {
  as,
  buildCompany,
  buildQueue,
  buildUser,
  buildWhatsapp,
  buildContact,
  buildMessage,
  buildTicket,
  buildTag,
  login,
  type Session,
  setUserFlag,
} from "../factories.js";
import {
  announcementReads,
  announcements,
  campaignSettings,
  companies,
  campaigns,
  chatMessages,
  chatUsers,
  chats,
  fileListOptions,
  fileLists,
  prompts,
  queueIntegrations,
  integrationDeliveries,
  helps,
  jobs,
  contactListItems,
  contactLists,
  queueOptions,
  quickMessages,
  schedules,
  ticketNotes,
} from "../../db/schema/index.js";
import { fillParams, sampleOf } from "./samples.js";
import { BILLING_CONFIG, buildInvoice } from "../billing-kit.js";
import { cloudConnection } from "../cloud-kit.js";

/**
 * Walks the server's own route table as company B's admin, aimed at company A's rows: no route may
 * answer with A's data or change it. A route whose `:param` names a resource not mapped here fails the
 * walk, so every new route must be placed in this map (and so is covered) before it can land.
 */
let t: TestApp;
let a: Awaited<ReturnType<typeof buildCompany>>;
let b: Awaited<ReturnType<typeof buildCompany>>;
let aUser: Awaited<ReturnType<typeof buildUser>>;
let aIds: Record<string, number | string>;
let markers: string[];
/** B's external API token (a simulator connection of B's): the external routes are walked with it. */
let bApiToken: string;

beforeAll(async () => {
  // checkout and the payment webhook configured, so their routes answer as in production
  t = await getTestApp(BILLING_CONFIG);
  // both plans with useOpenAi: B's admin gets past the AI prompts' gate, to A's ids
  a = await buildCompany(t.app, { plan: { useOpenAi: true, useIntegrations: true } });
  b = await buildCompany(t.app, { plan: { useOpenAi: true, useIntegrations: true } });
  aUser = await buildUser(t.app, a.id, { name: `Marker ${a.name}` });
  const queue = await buildQueue(t.app, a.id, { name: `Queue ${a.name}` });
  const wa = await buildWhatsapp(t.app, a.id, { name: `Conn ${a.name}` });
  // a Cloud API connection's webhook URL: public, but answers nothing without its verify token or signature
  const cloud = await cloudConnection(t.app, a.id, {
    accessToken: "walk-token",
    phoneNumberId: "100000000000001",
    businessAccountId: "100000000000002",
    displayPhoneNumber: "+1 555-010-0100",
  });
  const contact = await buildContact(t.app, a.id, { name: `Cliente ${a.name}`, number: `5215${Date.now() % 1e8}` });
  await setUserFlag(t.app, aUser.id, { whatsappId: wa.id });
  const ticket = await buildTicket(t.app, a.id, { contactId: contact.id, whatsappId: wa.id, lastMessage: `Último ${a.name}` });
  const message = await buildMessage(t.app, ticket, { body: `Secreto ${a.name}`, fromMe: true, mediaPath: "media/x.txt" });
  const [note] = await t.app.charla.db
    .insert(ticketNotes)
    .values({ companyId: a.id, ticketId: ticket.id, contactId: contact.id, note: `Nota ${a.name}` })
    .returning();
  const tag = await buildTag(t.app, a.id, { name: `Etiqueta ${a.name}`, kanban: 1 });
  const [option] = await t.app.charla.db
    .insert(queueOptions)
    .values({ companyId: a.id, queueId: queue.id, title: `Opción ${a.name}`, option: "1" })
    .returning();
  const [quick] = await t.app.charla.db
    .insert(quickMessages)
    .values({
      companyId: a.id,
      userId: a.admin.id,
      shortcode: `rapida${a.id}`,
      message: `Rápida ${a.name}`,
      mediaPath: "media/x.txt",
    })
    .returning();
  const [schedule] = await t.app.charla.db
    .insert(schedules)
    .values({
      companyId: a.id,
      contactId: contact.id,
      body: `Agendado ${a.name}`,
      sendAt: new Date(Date.now() + 86_400_000),
      mediaPath: "media/x.txt",
    })
    .returning();
  const [list] = await t.app.charla.db
    .insert(contactLists)
    .values({ companyId: a.id, name: `Lista ${a.name}` })
    .returning();
  const [listed] = await t.app.charla.db
    .insert(contactListItems)
    .values({ companyId: a.id, contactListId: list.id, name: `Listado ${a.name}`, number: `5511${Date.now() % 1e8}` })
    .returning();
  const [campaign] = await t.app.charla.db
    .insert(campaigns)
    .values({ companyId: a.id, name: `Campaña ${a.name}`, message1: `Oferta ${a.name}`, contactListId: list.id })
    .returning();
  await t.app.charla.db
    .insert(campaignSettings)
    .values({ companyId: a.id, key: "variables", value: [{ key: "cupon", value: `Cupón ${a.name}` }] });
  const [files] = await t.app.charla.db
    .insert(fileLists)
    .values({ companyId: a.id, name: `Archivos ${a.name}`, message: `Mensaje ${a.name}` })
    .returning();
  const [fileOption] = await t.app.charla.db
    .insert(fileListOptions)
    .values({ companyId: a.id, fileListId: files.id, name: `Opción archivo ${a.name}`, path: "media/x.txt", fileName: "x.txt" })
    .returning();
  const [job] = await t.app.charla.db
    .insert(jobs)
    .values({ companyId: a.id, kind: `probe.${a.name}`, payload: {}, state: "dead", lastError: `Fallo ${a.name}` })
    .returning();
  // a help video is platform data (every company reads it through GET /helps), so its text is no
  // marker; what the walk checks is that B cannot change or delete it
  const [help] = await t.app.charla.db
    .insert(helps)
    .values({ companyId: a.id, title: `Ayuda de la plataforma ${a.id}`, video: "dQw4w9WgXcQ" })
    .returning();
  const [chat] = await t.app.charla.db
    .insert(chats)
    .values({ companyId: a.id, title: `Charla interna ${a.name}`, ownerId: a.admin.id, lastMessage: `Interno ${a.name}` })
    .returning();
  await t.app.charla.db.insert(chatUsers).values([
    { companyId: a.id, chatId: chat.id, userId: a.admin.id, unreads: 1 },
    { companyId: a.id, chatId: chat.id, userId: aUser.id },
  ]);
  await t.app.charla.db
    .insert(chatMessages)
    .values({ companyId: a.id, chatId: chat.id, senderId: a.admin.id, message: `Interno ${a.name}` });
  // an announcement is platform data too (every company's bell reads the active ones): its text is
  // no marker; the walk checks that B cannot manage it (super users only, 403) and the two routes
  // below that every company may use on it
  const [announcement] = await t.app.charla.db
    .insert(announcements)
    .values({ companyId: a.id, title: `Aviso de la plataforma ${a.id}`, text: "Para todos", mediaPath: "announcements/x.png" })
    .returning();
  const invoice = await buildInvoice(t.app, a.id, { detail: `Factura ${a.name}` });
  const [prompt] = await t.app.charla.db
    .insert(prompts)
    .values({
      companyId: a.id,
      name: `Prompt ${a.name}`,
      prompt: `Instrucciones ${a.name}`,
      model: "gpt-4o-mini",
      queueId: queue.id,
      apiKeySealed: t.app.charla.secrets.seal(`sk-walk-${a.id}-secreta`),
    })
    .returning();
  // A's webhook integration, its secret key and a delivery of its log are markers
  const integrationKey = `whsec_${Buffer.from(`walk-secret-${a.id}-0123456789abcdef`).toString("base64")}`;
  const [integration] = await t.app.charla.db
    .insert(queueIntegrations)
    .values({
      companyId: a.id,
      type: "webhook",
      name: `Integración ${a.name}`,
      projectName: `Integración ${a.name}`,
      urlN8N: `https://hooks.example.com/${a.id}`,
      apikeySealed: t.app.charla.secrets.seal(integrationKey),
    })
    .returning();
  await t.app.charla.db.insert(integrationDeliveries).values({
    companyId: a.id,
    integrationId: integration.id,
    webhookId: `msg_walk_${a.id}`,
    event: "message",
    payload: {},
  });
  // A's external API token is a marker too; B gets one of its own to walk the external routes with
  const aToken = (
    await as(t.app, await login(t.app, a.admin), { method: "GET", url: `/api/v1/whatsapp/${wa.id}/api-token` })
  ).json().apiToken as string;
  const bWa = await buildWhatsapp(t.app, b.id, { provider: "simulator", status: "CONNECTED" });
  bApiToken = (
    await as(t.app, await login(t.app, b.admin), { method: "GET", url: `/api/v1/whatsapp/${bWa.id}/api-token` })
  ).json().apiToken;
  aIds = {
    invoices: invoice.id,
    announcements: announcement.id,
    users: aUser.id,
    "users-company": aUser.id,
    companies: a.id,
    plans: a.planId,
    queue: queue.id,
    "queue-options": option.id,
    whatsapp: wa.id,
    contacts: contact.id,
    simulator: wa.id,
    whatsappsession: wa.id,
    settings: "userRating",
    tickets: ticket.id,
    "tickets:uuid": ticket.uuid,
    "messages:ticketId": ticket.id,
    "messages:id": message.id,
    "ticket-notes": note.id,
    "quick-messages": quick.id,
    schedules: schedule.id,
    "contact-lists": list.id,
    "contact-list-items": listed.id,
    campaigns: campaign.id,
    files: files.id,
    "files:fileId": files.id,
    "files:optionId": fileOption.id,
    jobs: job.id,
    chats: chat.id,
    helps: help.id,
    tags: tag.id,
    "ticket-tags:ticketId": ticket.id,
    "ticket-tags:tagId": tag.id,
    prompt: prompt.id,
    queueIntegration: integration.id,
    "whatsapp-cloud:key": cloud.webhookKey,
  };
  markers = [
    aUser.email,
    aUser.name,
    a.name,
    queue.name,
    option.title,
    tag.name,
    wa.name,
    a.admin.email,
    contact.name,
    contact.number,
    ticket.uuid,
    quick.message,
    schedule.body,
    list.name,
    listed.name,
    listed.number,
    campaign.name,
    campaign.message1,
    `Cupón ${a.name}`,
    files.name,
    files.message,
    fileOption.name,
    job.kind,
    `Fallo ${a.name}`,
    chat.title,
    chat.uuid,
    `Interno ${a.name}`,
    `Factura ${a.name}`,
    prompt.name,
    prompt.prompt,
    `sk-walk-${a.id}-secreta`,
    integration.name,
    integrationKey,
    `msg_walk_${a.id}`,
    aToken,
  ];
  apiQueries = { "/api/ticket-messages": `?ticketId=${ticket.id}` };
});
afterAll(() => t.close());

/**
 * Routes that act on a platform-wide record by design, so another company's id is not foreign to
 * them: reading an active announcement (secondary §2: every company's users, any writer's company).
 */
/**
 * The external API (/api/… outside /api/v1) authenticates by a connection's API token: walked with B's,
 * aimed at A's rows through the query (`ticketId` of A's ticket must not be found).
 */
let apiQueries: Record<string, string> = {};
const byApiToken = (url: string) => url.startsWith("/api/") && !url.startsWith("/api/v1/");

const PLATFORM_WIDE = new Set(["POST /api/v1/announcements/:id/read", "GET /api/v1/announcements/:id/media"]);

describe("cross-tenant walk", () => {
  it("no route leaks or changes another company's rows", async () => {
    const routes = t.app.routeTable.filter((r) => r.url.startsWith("/api/"));
    expect(routes.length).toBeGreaterThan(20);
    let session: Session = await login(t.app, b.admin);
    const failures: string[] = [];
    for (const route of routes) {
      const unmapped: string[] = [];
      const url = fillParams(route.url, (name, resource) => {
        const v = aIds[`${resource}:${name}`] ?? aIds[resource];
        if (v === undefined) unmapped.push(`${name} of ${resource}`);
        return String(v ?? 1);
      });
      if (unmapped.length) {
        failures.push(`${route.method} ${route.url}: add ${unmapped.join(", ")} to the walk's id map`);
        continue;
      }
      const body = ["POST", "PUT", "PATCH"].includes(route.method) ? sampleOf(route.schema.body) : undefined;
      const external = byApiToken(route.url) && route.config.apiToken;
      const res = external
        ? await as(
            t.app,
            { token: bApiToken },
            { method: route.method as "GET", url: url + (apiQueries[route.url] ?? ""), payload: body as object },
          )
        : await as(t.app, session, { method: route.method as "GET", url, payload: body as object });
      if (external && apiQueries[route.url] && res.statusCode < 300)
        failures.push(`${route.method} ${route.url} answered ${res.statusCode} for company A's ticket`);
      if (external && res.statusCode === 401) failures.push(`${route.method} ${route.url} refused B's own API token`);
      const hasParams = route.url.includes(":");
      const platformWide = PLATFORM_WIDE.has(`${route.method} ${route.url}`);
      if (hasParams && res.statusCode < 300 && !route.url.startsWith("/api/v1/settings/") && !platformWide) {
        failures.push(`${route.method} ${route.url} answered ${res.statusCode} for company A's id`);
      }
      if (res.statusCode >= 500) failures.push(`${route.method} ${route.url} answered ${res.statusCode}`);
      const leaked = markers.filter((m) => res.body.includes(m));
      if (leaked.length) failures.push(`${route.method} ${route.url} leaked ${leaked.join(", ")}`);
      if (route.url.startsWith("/api/v1/auth/")) session = await login(t.app, b.admin);
    }
    expect(failures).toEqual([]);

    // A is untouched: its user, settings and company are as they were
    const aSession = await login(t.app, a.admin);
    const mine = await as(t.app, aSession, { method: "GET", url: `/api/v1/users/${aUser.id}` });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ name: aUser.name, email: aUser.email, profile: "user" });
    expect(mine.json().whatsapp?.name).toContain("Conn");
    const settings = await as(t.app, aSession, { method: "GET", url: "/api/v1/settings" });
    expect(settings.json().find((s: { key: string }) => s.key === "userRating").value).toBe("disabled");
    const company = await as(t.app, aSession, { method: "GET", url: `/api/v1/companies/${a.id}` });
    expect(company.json()).toMatchObject({ id: a.id, name: a.name });
    const options = await as(t.app, aSession, { method: "GET", url: `/api/v1/queue-options?queueId=${aIds.queue}` });
    expect(options.json()).toMatchObject([{ id: aIds["queue-options"], title: `Opción ${a.name}`, option: "1" }]);
    const quick = await as(t.app, aSession, { method: "GET", url: `/api/v1/quick-messages/${aIds["quick-messages"]}` });
    expect(quick.json()).toMatchObject({ shortcode: `rapida${a.id}`, message: `Rápida ${a.name}`, isMedia: true });
    const list = await as(t.app, aSession, { method: "GET", url: `/api/v1/contact-list-items/${aIds["contact-list-items"]}` });
    expect(list.json()).toMatchObject({ name: `Listado ${a.name}`, contactListId: aIds["contact-lists"] });
    const campaign = await as(t.app, aSession, { method: "GET", url: `/api/v1/campaigns/${aIds.campaigns}` });
    expect(campaign.json()).toMatchObject({ name: `Campaña ${a.name}`, message1: `Oferta ${a.name}`, status: "INATIVA" });
    const variables = await as(t.app, aSession, { method: "GET", url: "/api/v1/campaign-settings" });
    expect(variables.json().variables).toEqual([{ key: "cupon", value: `Cupón ${a.name}` }]);
    const fileList = await as(t.app, aSession, { method: "GET", url: `/api/v1/files/${aIds.files}` });
    expect(fileList.json()).toMatchObject({ name: `Archivos ${a.name}`, options: [{ name: `Opción archivo ${a.name}` }] });
    const hours = await as(t.app, aSession, { method: "GET", url: `/api/v1/companies/${a.id}/schedules` });
    expect(hours.json()).toMatchObject({ id: a.id, timeZone: "America/Noronha", schedules: DEFAULT_SCHEDULES });
    const scheduled = await as(t.app, aSession, { method: "GET", url: `/api/v1/schedules/${aIds.schedules}` });
    expect(scheduled.json()).toMatchObject({ body: `Agendado ${a.name}`, status: "PENDENTE", mediaUrl: expect.any(String) });
    const hook = await as(t.app, aSession, { method: "GET", url: `/api/v1/queueIntegration/${aIds.queueIntegration}` });
    expect(hook.json()).toMatchObject({
      name: `Integración ${a.name}`,
      urlN8N: `https://hooks.example.com/${a.id}`,
      lastDelivery: { status: "pending" },
    });
    const dead = await as(t.app, aSession, { method: "GET", url: "/api/v1/jobs?state=dead" });
    expect(dead.json().jobs).toMatchObject([{ id: aIds.jobs, state: "dead", attempts: 0 }]);
    // B's admin (no super user) changed nothing of the announcement, and reading it counted for B alone
    const [notice] = await t.app.charla.db
      .select()
      .from(announcements)
      .where(eq(announcements.id, Number(aIds.announcements)));
    expect(notice).toMatchObject({ title: `Aviso de la plataforma ${a.id}`, text: "Para todos", status: true });
    const reads = await t.app.charla.db.select().from(announcementReads).where(eq(announcementReads.announcementId, notice.id));
    expect(reads).toMatchObject([{ userId: b.admin.id, companyId: b.id }]);
    const chat = await as(t.app, aSession, { method: "GET", url: `/api/v1/chats/${aIds.chats}` });
    expect(chat.json()).toMatchObject({
      title: `Charla interna ${a.name}`,
      users: expect.arrayContaining([expect.objectContaining({ userId: a.admin.id, unreads: 1 })]),
    });
    const invoice = await as(t.app, aSession, { method: "GET", url: `/api/v1/invoices/${aIds.invoices}` });
    expect(invoice.json()).toMatchObject({ detail: `Factura ${a.name}`, status: "open", companyId: a.id });
    const helpsRead = await as(t.app, aSession, { method: "GET", url: "/api/v1/helps" });
    expect(helpsRead.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: aIds.helps, title: `Ayuda de la plataforma ${a.id}` })]),
    );
  });
});

describe("cross-tenant: POST /uploadfile names its company in a header", () => {
  it("another company's id in `name: company{id}` answers 404 and stores nothing", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
    const boundary = "crosstenant";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const session = await login(t.app, b.admin);
    const res = await as(t.app, session, {
      method: "POST",
      url: "/api/v1/uploadfile",
      payload,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, name: `company${a.id}`, filename: "l.png" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("ERR_NO_COMPANY_FOUND");
    const [row] = await t.app.charla.db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, a.id));
    expect(row.logo).toBeNull();
  });
});
