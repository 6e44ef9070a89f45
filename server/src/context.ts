import type { PlanFlagSet, Profile } from "@charla/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { Db, DbKind } from "./db/client.js";
import type { TokenService } from "./modules/auth/tokens.js";
import type { Realtime } from "./realtime/realtime.js";
import type { EventBus } from "./events/index.js";
import type { Storage } from "./lib/storage.js";
import type { Sessions } from "./channels/sessions.js";

/** The authenticated user as every service sees it; its companyId comes only from the token. */
export type Principal = {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  sessionId: string;
  plan: PlanFlagSet | null;
  /**
   * What ticket visibility is decided on (core §6), read with the principal in the same statement.
   * Only as fresh as the principal: trust it for a request, not for a socket that lives for hours.
   */
  ticketFacts?: { allTicket: string; whatsappId: number | null; queueIds: number[]; areaConnectionIds: number[] };
};

/** Shared services, built once by buildApp. */
export type Services = {
  config: Config;
  db: Db;
  dbKind: DbKind;
  tokens: TokenService;
  realtime: Realtime;
  /** Domain events: services publish, listeners (realtime/listeners, jobs, the bot) react. */
  events: EventBus;
  storage: Storage;
  /** Live channel drivers of this process. */
  sessions: Sessions;
  log: FastifyBaseLogger;
};

export type RequestCtx = Services & { user: Principal; companyId: number };
