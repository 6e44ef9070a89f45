import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { Db, DbKind } from "./db/client.js";
import type { Principal } from "./auth/principal.js";
import type { TokenService } from "./auth/tokens.js";
import type { Realtime, RealtimeControl } from "./realtime/realtime.js";
import type { EventBus } from "./events/index.js";
import type { SecretBox } from "./lib/secret-box.js";
import type { Storage } from "./lib/storage.js";
import type { Sessions } from "./channels/sessions.js";

export type { Principal };

/** Shared services, built once by buildApp. */
export type Services = {
  config: Config;
  db: Db;
  dbKind: DbKind;
  tokens: TokenService;
  /** Sockets: services publish `events` instead; the emitters are realtime/listeners' alone. */
  realtime: RealtimeControl;
  /** Domain events: services publish, listeners (realtime/listeners, jobs, the bot) react. */
  events: EventBus;
  storage: Storage;
  /** Seals and opens stored third-party secrets (API tokens and keys, webhook secrets). */
  secrets: SecretBox;
  /** Live channel drivers of this process. */
  sessions: Sessions;
  log: FastifyBaseLogger;
};

export type RequestCtx = Services & { user: Principal; companyId: number };

/** The app's whole wiring (`app.charla`): tests may stand in for realtime's emitters through it. */
export type AppServices = Services & { realtime: Realtime };
