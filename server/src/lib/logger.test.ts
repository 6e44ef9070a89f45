import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { contacts } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, buildContact } from "../test/factories.js";
import { REDACTED, loggerOptions } from "./logger.js";

/** A log destination that keeps its lines. */
function memory() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { stream, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const SECRETS = {
  body: "mi tarjeta es 4111 1111 1111 1111",
  contactName: "María Secreta",
  password: "clave-del-usuario",
};

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

/** A real failed query: a contact whose number is already taken, named and numbered like a customer. */
async function failedQuery(): Promise<Error> {
  const c = await buildCompany(t.app);
  const taken = await buildContact(t.app, c.id, { number: "5491100001111" });
  try {
    await t.app.charla.db.insert(contacts).values({ companyId: c.id, name: SECRETS.contactName, number: taken.number });
  } catch (err) {
    return err as Error;
  }
  throw new Error("the insert should have failed");
}

describe("#logs leave out what customers wrote, their names and passwords", () => {
  it("redacts bodies, names, passwords and a failed query's values at any depth", async () => {
    const err = await failedQuery();
    expect(err.message).toContain(SECRETS.contactName); // what would have been printed
    const out = memory();
    const log = pino(loggerOptions("info"), out.stream);
    log.error(
      {
        err,
        body: SECRETS.body,
        password: SECRETS.password,
        contact: { id: 7, name: SECRETS.contactName, number: "5491100001111" },
        received: {
          message: { conversation: SECRETS.body, extendedTextMessage: { text: SECRETS.body } },
          pushName: SECRETS.contactName,
        },
        user: { id: 3, currentPassword: SECRETS.password },
        ticket: { id: 9, lastMessage: SECRETS.body },
      },
      "message not stored",
    );
    const [line] = out.lines;
    for (const secret of Object.values(SECRETS)) expect(line).not.toContain(secret);
    const [record] = out.records();
    expect(record).toMatchObject({
      msg: "message not stored",
      body: REDACTED,
      password: REDACTED,
      contact: { id: 7, name: REDACTED },
      user: { id: 3, currentPassword: REDACTED },
      ticket: { id: 9, lastMessage: REDACTED },
      received: { message: { conversation: REDACTED, extendedTextMessage: { text: REDACTED } }, pushName: REDACTED },
    });
    // the error keeps what helps: its type, the query text (placeholders only) and the database's reason
    const logged = record.err as { type: string; message: string; stack: string; params: unknown };
    expect(logged.type).toBe("DrizzleQueryError");
    expect(logged.message).toMatch(/^Failed query: insert into "contacts"/);
    expect(logged.message).toContain(`params: ${REDACTED}`);
    expect(logged.stack).toContain(`params: ${REDACTED}`);
    expect(logged.params).toBe(REDACTED);
  });

  it("the server's logger is configured so: an unhandled error and its request log no secrets", async () => {
    const out = memory();
    const app = await buildApp({ ...t.config, logLevel: "info" }, { database: t.database, seed: false, logStream: out.stream });
    const err = await failedQuery();
    app.get("/api/v1/log-probe", { config: { public: true } }, async () => {
      throw err;
    });
    await app.ready();
    try {
      const res = await app.inject({
        method: "GET",
        url: `/api/v1/log-probe?searchParam=${encodeURIComponent(SECRETS.contactName)}`,
      });
      expect(res.statusCode).toBe(500);
      const unhandled = out.records().find((r) => r.msg === "unhandled error");
      expect(unhandled).toBeDefined();
      expect(JSON.stringify(unhandled)).toContain("Failed query");
      const incoming = out.records().find((r) => r.msg === "incoming request") as { req: { url: string } } | undefined;
      expect(incoming?.req.url).toBe(`/api/v1/log-probe?searchParam=${REDACTED}`);
      for (const line of out.lines) {
        expect(line).not.toContain(SECRETS.contactName);
        expect(line).not.toContain(encodeURIComponent(SECRETS.contactName));
      }
    } finally {
      await app.close();
    }
  });
});
