import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";

/** Every setting Charla reads from the environment (documented in the README). */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  jwtSecret: string;
  jwtRefreshSecret: string;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  refreshReuseGraceSec: number;
  adminEmail: string;
  adminPassword: string | null;
  logLevel: string;
  trustProxy: boolean;
  cookieSecure: boolean;
  loginMaxPerIp: number;
  loginMaxPerEmail: number;
  loginWindowSec: number;
  /** ERR_EMAIL_ALREADY_EXISTS answers a user may get per LOGIN_WINDOW_SEC (it tells whether an address is registered). */
  emailTakenMaxPerUser: number;
  /** The same, for all the users of one company together. */
  emailTakenMaxPerCompany: number;
  /** API requests a minute from one address (before authentication) and from one user (after). */
  apiMaxPerIp: number;
  apiMaxPerUser: number;
  webDist: string | null;
  maxUploadBytes: number;
  /** PostgreSQL cancels a statement running longer than this (DB_STATEMENT_TIMEOUT_MS, 0 = never). */
  dbStatementTimeoutMs: number;
  /** Bytes of files each company may store (COMPANY_STORAGE_QUOTA_MB, 0 = no limit). */
  companyStorageQuotaBytes: number;
  /** Test mode: "beta" connections use a stand-in phone that shows a QR and scans it itself. */
  fakeWhatsapp: boolean;
  /**
   * How often this node's job runner goes round (JOBS_INTERVAL_MS, 0 = never): the timed sweeps, the
   * job table, interrupted sends and the company socket sweep (docs/jobs.md).
   */
  jobsIntervalMs: number;
  /**
   * A campaign send recorded as under way for longer than this (CAMPAIGN_SEND_TTL_SEC) was cut off by a
   * node that died: it is sent again under the same message ids. Longer than any driver call takes.
   */
  campaignSendTtlSec: number;
  /**
   * A file the simulator appends every message it is given to send to (SIMULATOR_OUTBOX; off when
   * empty): what the simulated phones received, readable after the process is gone (fault tests).
   */
  simulatorOutbox: string;
  /** Days a company that signs up itself may use Charla before its first due date (SIGNUP_TRIAL_DAYS). */
  signupTrialDays: number;
  /** An open invoice is written this many days before a company's due date (INVOICE_DAYS_BEFORE). */
  invoiceDaysBefore: number;
  /**
   * The built-in instant-payment provider (Pix BR Code): the receiving key and the merchant's name and
   * city printed in the payload (PIX_KEY, PIX_MERCHANT_NAME, PIX_MERCHANT_CITY). Checkout answers
   * ERR_PAYMENTS_NOT_CONFIGURED until all three are set.
   */
  pixKey: string;
  pixMerchantName: string;
  pixMerchantCity: string;
  /**
   * The Standard Webhooks secret (`whsec_<base64>`) payment confirmations are signed with
   * (PAYMENT_WEBHOOK_SECRET); without it the webhook answers ERR_WEBHOOK_NOT_CONFIGURED.
   */
  paymentWebhookSecret: string;
  /**
   * The key (32 bytes, base64 or hex; SECRETS_KEY) sealing stored third-party secrets: connections'
   * API tokens, prompts' API keys, webhook signing secrets. Generated into DATA_DIR when not given;
   * nodes of one install must share it.
   */
  secretsKey: string;
  /** The default OpenAI-compatible endpoint and key for prompts that name none (OPENAI_BASE_URL, OPENAI_API_KEY). */
  openaiBaseUrl: string;
  /** Meta's Graph API for Cloud API connections (GRAPH_API_URL; tests point it at a local fake). */
  graphApiUrl: string;
  /**
   * The server's public address (PUBLIC_URL, no trailing slash), for URLs given to third parties to call
   * back (a Cloud API connection's webhook); "" takes the request's own protocol and host.
   */
  publicUrl: string;
  openaiApiKey: string;
  /** How long an AI answer or a typebot call may take before the ticket goes to humans (AI_TIMEOUT_MS). */
  aiTimeoutMs: number;
  /** How long a webhook receiver may take to answer one delivery (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
  /** External API calls per token per minute (EXTERNAL_API_MAX_PER_MIN). */
  externalApiMaxPerMin: number;
  /**
   * Whether integrations, prompts' endpoints and typebots may be on private or loopback addresses
   * (INTEGRATIONS_ALLOW_PRIVATE, default true: a self-hosted n8n or model server next door is the common
   * case; a shared installation sets it to false so no tenant can reach the host's network).
   */
  integrationsAllowPrivate: boolean;
};

const int = (v: string | undefined, d: number) => {
  const n = Number.parseInt(v ?? "", 10);
  return Number.isFinite(n) ? n : d;
};

/**
 * Secrets not given in the environment are generated once and kept in DATA_DIR, so tokens survive
 * restarts and no install ever runs on a default, public secret.
 */
function persistedSecrets(dataDir: string): { jwt: string; refresh: string; seal: string } {
  const file = join(dataDir, "secrets.json");
  let s: { jwt?: string; refresh?: string; seal?: string } = {};
  try {
    s = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    mkdirSync(dataDir, { recursive: true });
  }
  if (s.jwt && s.refresh && s.seal) return s as { jwt: string; refresh: string; seal: string };
  // an older file lacks the sealing key: it is added, the token secrets kept
  const full = {
    jwt: s.jwt || randomBytes(48).toString("base64url"),
    refresh: s.refresh || randomBytes(48).toString("base64url"),
    seal: s.seal || randomBytes(32).toString("base64"),
  };
  writeFileSync(file, JSON.stringify(full), { mode: 0o600 });
  return full;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? "./data");
  const needSecrets =
    !(overrides.jwtSecret ?? env.JWT_SECRET) ||
    !(overrides.jwtRefreshSecret ?? env.JWT_REFRESH_SECRET) ||
    !(overrides.secretsKey ?? env.SECRETS_KEY);
  const secrets = needSecrets ? persistedSecrets(dataDir) : null;
  return {
    port: int(env.PORT, 8080),
    host: env.HOST ?? "0.0.0.0",
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    jwtSecret: env.JWT_SECRET || secrets?.jwt || "",
    jwtRefreshSecret: env.JWT_REFRESH_SECRET || secrets?.refresh || "",
    accessTokenTtlSec: int(env.ACCESS_TOKEN_TTL, 15 * 60),
    refreshTokenTtlSec: int(env.REFRESH_TOKEN_TTL, 7 * 24 * 3600),
    refreshReuseGraceSec: int(env.REFRESH_REUSE_GRACE_SEC, 10),
    adminEmail: (env.ADMIN_EMAIL || "admin@admin.com").trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    logLevel: env.LOG_LEVEL || "info",
    trustProxy: env.TRUST_PROXY === "true" || env.TRUST_PROXY === "1",
    cookieSecure: env.COOKIE_SECURE === "true",
    loginMaxPerIp: int(env.LOGIN_MAX_PER_IP, 30),
    loginMaxPerEmail: int(env.LOGIN_MAX_PER_EMAIL, 10),
    loginWindowSec: int(env.LOGIN_WINDOW_SEC, 15 * 60),
    emailTakenMaxPerUser: int(env.EMAIL_TAKEN_MAX_PER_USER, 10),
    emailTakenMaxPerCompany: int(env.EMAIL_TAKEN_MAX_PER_COMPANY, 30),
    apiMaxPerIp: int(env.API_MAX_PER_IP, 3000),
    apiMaxPerUser: int(env.API_MAX_PER_USER, 1200),
    webDist: env.WEB_DIST === "" ? null : resolve(env.WEB_DIST ?? new URL("../../web/dist", import.meta.url).pathname),
    maxUploadBytes: int(env.MAX_UPLOAD_BYTES, 20 * 1024 * 1024),
    dbStatementTimeoutMs: int(env.DB_STATEMENT_TIMEOUT_MS, 15_000),
    companyStorageQuotaBytes: int(env.COMPANY_STORAGE_QUOTA_MB, 5 * 1024) * 1024 * 1024,
    fakeWhatsapp: env.CHARLA_FAKE_WHATSAPP === "1",
    jobsIntervalMs: int(env.JOBS_INTERVAL_MS, 5_000),
    campaignSendTtlSec: int(env.CAMPAIGN_SEND_TTL_SEC, 120),
    simulatorOutbox: env.SIMULATOR_OUTBOX ?? "",
    signupTrialDays: Math.max(0, int(env.SIGNUP_TRIAL_DAYS, 7)),
    invoiceDaysBefore: Math.max(0, int(env.INVOICE_DAYS_BEFORE, 10)),
    pixKey: (env.PIX_KEY ?? "").trim(),
    pixMerchantName: (env.PIX_MERCHANT_NAME ?? "").trim(),
    pixMerchantCity: (env.PIX_MERCHANT_CITY ?? "").trim(),
    paymentWebhookSecret: (env.PAYMENT_WEBHOOK_SECRET ?? "").trim(),
    secretsKey: (env.SECRETS_KEY ?? "").trim() || secrets?.seal || "",
    openaiBaseUrl: (env.OPENAI_BASE_URL ?? "").trim() || "https://api.openai.com/v1",
    graphApiUrl: ((env.GRAPH_API_URL ?? "").trim() || "https://graph.facebook.com/v21.0").replace(/\/+$/, ""),
    publicUrl: (env.PUBLIC_URL ?? "").trim().replace(/\/+$/, ""),
    openaiApiKey: (env.OPENAI_API_KEY ?? "").trim(),
    aiTimeoutMs: Math.max(1000, int(env.AI_TIMEOUT_MS, 30_000)),
    webhookTimeoutMs: Math.max(1000, int(env.WEBHOOK_TIMEOUT_MS, 10_000)),
    externalApiMaxPerMin: Math.max(1, int(env.EXTERNAL_API_MAX_PER_MIN, 120)),
    integrationsAllowPrivate: env.INTEGRATIONS_ALLOW_PRIVATE !== "false" && env.INTEGRATIONS_ALLOW_PRIVATE !== "0",
    ...overrides,
  };
}
