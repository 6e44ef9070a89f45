import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("config", () => {
  it("generates secrets once under DATA_DIR and keeps them across starts", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "charla-config-"));
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBeGreaterThan(40);
    expect(first.jwtSecret).not.toBe(first.jwtRefreshSecret);
    const file = join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o077).toBe(0);
    const again = loadConfig({ DATA_DIR: dataDir });
    expect(again.jwtSecret).toBe(first.jwtSecret);
    expect(JSON.parse(readFileSync(file, "utf8")).jwt).toBe(first.jwtSecret);
    expect(Buffer.from(first.secretsKey, "base64")).toHaveLength(32);
    expect(again.secretsKey).toBe(first.secretsKey);
  });

  it("adds the sealing key to an older secrets file and keeps its token secrets", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "charla-config-"));
    writeFileSync(join(dataDir, "secrets.json"), JSON.stringify({ jwt: "old-jwt", refresh: "old-refresh" }));
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c.jwtSecret).toBe("old-jwt");
    expect(c.jwtRefreshSecret).toBe("old-refresh");
    expect(Buffer.from(c.secretsKey, "base64")).toHaveLength(32);
    expect(loadConfig({ DATA_DIR: dataDir }).secretsKey).toBe(c.secretsKey);
    expect(loadConfig({ DATA_DIR: dataDir, SECRETS_KEY: "k".repeat(44) }).secretsKey).toBe("k".repeat(44));
  });

  it("reads every variable with its documented default", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "charla-config-"));
    const d = loadConfig({ DATA_DIR: dataDir });
    expect(d).toMatchObject({
      port: 8080,
      databaseUrl: null,
      redisUrl: null,
      adminEmail: "admin@admin.com",
      adminPassword: null,
    });
    const c = loadConfig({
      DATA_DIR: dataDir,
      PORT: "9000",
      DATABASE_URL: "postgres://x@h/db",
      REDIS_URL: "redis://h:6379",
      ADMIN_EMAIL: " Boss@Example.COM ",
      ADMIN_PASSWORD: "pw-12345",
      JWT_SECRET: "a",
      JWT_REFRESH_SECRET: "b",
      ACCESS_TOKEN_TTL: "60",
    });
    expect(c).toMatchObject({
      port: 9000,
      databaseUrl: "postgres://x@h/db",
      redisUrl: "redis://h:6379",
      adminEmail: "boss@example.com",
      adminPassword: "pw-12345",
      jwtSecret: "a",
      jwtRefreshSecret: "b",
      accessTokenTtlSec: 60,
    });
  });
});
