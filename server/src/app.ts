import { existsSync } from "node:fs";
import { join } from "node:path";
import { constants as zlibConstants } from "node:zlib";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { AppServices } from "./context.js";
import { SHUTDOWN_DRAIN_MS, Sessions } from "./channels/sessions.js";
import { registerChatbot } from "./chatbot/index.js";
import { registerAutomaticDelivery } from "./modules/messages/automatic.js";
import { channelInbox } from "./pipeline/channel-inbox.js";
import { registerProfilePictureRefresh } from "./pipeline/profile-picture.js";
import { registerCampaignConfirmations } from "./modules/campaigns/confirmations.js";
import { type Database, openDatabase } from "./db/client.js";
import { seed } from "./db/seed.js";
import { enqueue } from "./jobs/durable/enqueue.js";
import { jobKinds } from "./jobs/durable/kinds.js";
import { runJobNow } from "./jobs/durable/run.js";
import { startJobRunner } from "./jobs/runner.js";
import { loggerOptions } from "./lib/logger.js";
import { SecretBox } from "./lib/secret-box.js";
import { Storage, databaseUsage } from "./lib/storage.js";
import { announcementsRoutes } from "./modules/announcements/routes.js";
import { authRoutes } from "./modules/auth/routes.js";
import { TokenService } from "./auth/tokens.js";
import { companiesRoutes } from "./modules/companies/routes.js";
import { contactsRoutes } from "./modules/contacts/routes.js";
import { dashboardRoutes } from "./modules/dashboard/routes.js";
import { messagesRoutes } from "./modules/messages/routes.js";
import { cloudRoutes } from "./modules/cloud/routes.js";
import { notesRoutes } from "./modules/notes/routes.js";
import { campaignsRoutes } from "./modules/campaigns/routes.js";
import { chatsRoutes } from "./modules/chats/routes.js";
import { contactListsRoutes } from "./modules/contact-lists/routes.js";
import { fileListsRoutes } from "./modules/file-lists/routes.js";
import { helpsRoutes } from "./modules/helps/routes.js";
import { invoicesRoutes } from "./modules/invoices/routes.js";
import { paymentsRoutes } from "./modules/payments/routes.js";
import { jobsRoutes } from "./modules/jobs/routes.js";
import { quickMessagesRoutes } from "./modules/quick-messages/routes.js";
import { schedulesRoutes } from "./modules/schedules/routes.js";
import { tagsRoutes } from "./modules/tags/routes.js";
import { kanbanRoutes } from "./modules/kanban/routes.js";
import { ticketsRoutes } from "./modules/tickets/routes.js";
import { simulatorRoutes } from "./modules/simulator/routes.js";
import { plansRoutes } from "./modules/plans/routes.js";
import { promptsRoutes } from "./modules/prompts/routes.js";
import { queueOptionsRoutes } from "./modules/queues/option-routes.js";
import { queuesRoutes } from "./modules/queues/routes.js";
import { integrationsRoutes } from "./modules/integrations/routes.js";
import { registerIntegrationDeliveries } from "./automation/deliveries.js";
import { searchRoutes } from "./modules/search/routes.js";
import { settingsRoutes } from "./modules/settings/routes.js";
import { usersRoutes } from "./modules/users/routes.js";
import { whatsappsRoutes } from "./modules/whatsapps/routes.js";
import { authPlugin } from "./plugins/auth.js";
import { errorsPlugin } from "./plugins/errors.js";
import { openapiPlugin } from "./plugins/openapi.js";
import { externalApiRoutes } from "./modules/external-api/routes.js";
import { cloudWebhookRoutes } from "./modules/cloud/webhook-routes.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { createRealtime } from "./realtime/realtime.js";
import { registerRealtimeListeners } from "./realtime/listeners/index.js";
import { EventBus } from "./events/index.js";

declare module "fastify" {
  interface FastifyInstance {
    charla: AppServices;
  }
}

export type BuildOptions = {
  /** An already open database (tests share one per file); otherwise opened from the config. */
  database?: Database;
  seed?: boolean;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
};

/** Builds the whole server without listening: main.ts listens, tests `inject`. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config.logLevel, opts.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // the spec writes list paths with a trailing slash (`GET /users/`): both spellings reach one route
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    opts.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: config.dbStatementTimeoutMs }));
  if (opts.seed !== false)
    await seed(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword, log: app.log });

  const tokens = new TokenService(config.jwtSecret, config.jwtRefreshSecret, config.accessTokenTtlSec);
  const realtime = await createRealtime({ server: app.server, db: database.db, tokens, redisUrl: config.redisUrl, log: app.log });
  // durable listeners' jobs are written in their publisher's transaction and run here once it commits
  // (`services` is complete by the time anything is published)
  const events = new EventBus(app.log, {
    enqueue: (tx, job) => enqueue(tx, job.companyId, job.kind, job.payload, { idempotencyKey: job.idempotencyKey }),
    runNow: (jobId) => runJobNow(services, jobKinds(), jobId),
  });
  registerRealtimeListeners(events, realtime);
  const services: AppServices = {
    config,
    db: database.db,
    dbKind: database.kind,
    tokens,
    realtime,
    events,
    storage: new Storage(config.dataDir, databaseUsage(database.db, config.companyStorageQuotaBytes)),
    secrets: new SecretBox(config.secretsKey),
    sessions: null as unknown as Sessions,
    log: app.log,
  };
  // drivers call back into the pipeline with these same services
  services.sessions = new Sessions(services, channelInbox(services));
  // what follows a stored message or a committed change, one line per area
  registerAutomaticDelivery(services);
  registerChatbot(services);
  registerCampaignConfirmations(services);
  registerProfilePictureRefresh(services);
  registerIntegrationDeliveries(services);
  if (config.redisUrl) await services.sessions.connectBus(config.redisUrl);
  app.decorate("charla", services);
  const jobs = config.jobsIntervalMs > 0 ? startJobRunner(services, { intervalMs: config.jobsIntervalMs }) : null;
  // sockets first: an open websocket would keep the HTTP server's close waiting forever
  const drainListeners = () =>
    Promise.race([services.events.idle(), new Promise((r) => setTimeout(r, SHUTDOWN_DRAIN_MS).unref())]);
  app.addHook("preClose", async () => {
    // a round under way finishes (its sends need the sessions), no new one starts
    await jobs?.stop();
    // the bot's answers and automatic messages already recorded go out while the sessions still run
    // (within a limit); what is left stays queued with its job, for the next node to send
    await drainListeners();
    await services.sessions.stopAll();
    await drainListeners();
    await realtime.close();
  });
  app.addHook("onClose", async () => {
    if (!opts.database) await database.close();
  });

  await app.register(securityHeadersPlugin);
  // API answers (ticket lists, message pages, exports) travel compressed; a quick level, it runs per request
  await app.register(compress, {
    encodings: ["br", "gzip"],
    threshold: 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: 10, fields: 50 } });
  const webDist = config.webDist && existsSync(join(config.webDist, "index.html")) ? config.webDist : null;
  await app.register(errorsPlugin, { spaIndex: webDist !== null });
  await app.register(rateLimitPlugin, {
    perIp: config.apiMaxPerIp,
    perUser: config.apiMaxPerUser,
    redisUrl: config.redisUrl,
  });
  await app.register(authPlugin, services);
  app.addHook("onRequest", app.rateLimitPerUser);
  // before the routes: the document is made from the routes registered after it
  await app.register(openapiPlugin);

  await app.register(
    async (api) => {
      await api.register(authRoutes, services);
      await api.register(usersRoutes);
      await api.register(settingsRoutes);
      await api.register(plansRoutes);
      await api.register(companiesRoutes);
      await api.register(queuesRoutes);
      await api.register(queueOptionsRoutes);
      await api.register(whatsappsRoutes);
      await api.register(contactsRoutes);
      await api.register(dashboardRoutes);
      await api.register(simulatorRoutes);
      await api.register(ticketsRoutes);
      await api.register(messagesRoutes);
      await api.register(cloudRoutes);
      await api.register(searchRoutes);
      await api.register(notesRoutes);
      await api.register(tagsRoutes);
      await api.register(kanbanRoutes);
      await api.register(quickMessagesRoutes);
      await api.register(schedulesRoutes);
      await api.register(contactListsRoutes);
      await api.register(campaignsRoutes);
      await api.register(fileListsRoutes);
      await api.register(promptsRoutes);
      await api.register(integrationsRoutes);
      await api.register(announcementsRoutes);
      await api.register(helpsRoutes);
      await api.register(jobsRoutes);
      await api.register(chatsRoutes);
      await api.register(invoicesRoutes);
      await api.register(paymentsRoutes);
    },
    { prefix: "/api/v1" },
  );
  // the external API at the root, as documented (`{host}/api/messages/send`), by connection token
  await app.register(externalApiRoutes, services);
  // Meta's webhook for Cloud API connections: public, signed by the connection's app secret
  await app.register(cloudWebhookRoutes, services);

  app.get("/healthz", { config: { public: true } }, async () => ({ ok: true, db: database.kind }));
  if (webDist) {
    // files are looked up per request (wildcard), so a rebuild is served without a restart;
    // paths that are no file fall through to the not-found handler, which answers the SPA's index
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      decorateReply: true,
      // the build wrote .br/.gz beside each asset: sent as they are, no compression per request
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => reply.header("cache-control", cacheControlOf(path)),
    });
    app.get("/", (_req, reply) => reply.header("cache-control", "no-cache").sendFile("index.html"));
    // The built assets, by name: the wildcard route above lists the folder of each path it serves
    // (@fastify/static checks the spelling of every segment), ~1,300 entries here: 15 % of the server's
    // time serving a page load's ~60 files, next to its token refresh and socket. A name is one segment
    // of plain characters, so there is no other spelling to guard against.
    const assets = join(webDist, "assets");
    app.get<{ Params: { file: string } }>("/assets/:file", (req, reply) =>
      assetName.test(req.params.file) ? reply.sendFile(req.params.file, assets) : reply.callNotFound(),
    );
  }
  return app;
}

const assetName = /^[\w-][\w.-]*$/;

/**
 * Vite names every built asset by its content hash: it never changes, so it may be kept for a year.
 * index.html must be asked again each time (it names the current assets); anything else an hour.
 */
export function cacheControlOf(path: string): string {
  if (/[\\/]assets[\\/]/.test(path)) return "public, max-age=31536000, immutable";
  if (path.endsWith(".html")) return "no-cache";
  return "public, max-age=3600";
}
