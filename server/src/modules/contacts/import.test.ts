import { Events } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATOR_BOOK } from "../../channels/simulator/driver.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { as, buildCompany, buildContact, login } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

/** An agent of a company whose default connection is the simulator (its address book is SIMULATOR_BOOK). */
const world = () => scenario(t.app, { agents: { agent: {} } });

function upload(fileName: string, data: string, field = "file") {
  const boundary = "----charla-contacts-import";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

const contactsOf = async (s: { token: string }) =>
  (await call(s, "GET", "/contacts")).json().contacts as { name: string; number: string; email: string }[];

describe("#contacts import", () => {
  it("imports the default connection's address book with no body at all, as the family's clients call it", async () => {
    const w = await world();
    const url = "/api/v1/contacts/import";
    expectError(await t.app.inject({ method: "POST", url }), 401, "ERR_SESSION_EXPIRED");
    const bare = await as(t.app, w.as.agent, { method: "POST", url });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual({ imported: SIMULATOR_BOOK.length, existing: 0 });
    // an empty JSON body or an empty form: the same call
    for (const type of ["application/json", "application/x-www-form-urlencoded", "text/plain"]) {
      const res = await as(t.app, w.as.agent, { method: "POST", url, headers: { "content-type": type }, payload: "" });
      expect(res.statusCode, type).toBe(200);
      expect(res.json()).toEqual({ imported: 0, existing: SIMULATOR_BOOK.length });
    }
    expect((await call(w.as.agent, "POST", "/contacts/import", { whatsappId: null })).statusCode).toBe(200);
  });

  it("imports the contacts page's own CSV export: adds, updates, and reports rejected rows with their reason", async () => {
    const w = await world();
    const other = await buildCompany(t.app);
    await buildContact(t.app, other.id, { name: "De otra empresa", number: "5215522220001" });
    await buildContact(t.app, w.companyId, { name: "Nombre viejo", number: "5215522220002", email: "" });
    const before = await call(w.as.agent, "POST", "/contacts", {
      name: "Exportada",
      number: "5215522220003",
      email: "ex@correo.mx",
    });
    expect(before.statusCode).toBe(201);
    const exported = (
      await t.app.inject({
        method: "GET",
        url: "/api/v1/contacts/export",
        headers: { authorization: `Bearer ${w.as.agent.token}` },
      })
    ).body;
    expect(exported).toContain("5215522220003");

    const events: unknown[] = [];
    const original = t.app.charla.realtime.toCompany;
    t.app.charla.realtime.toCompany = (companyId) => ({
      emit: (event: string, payload: unknown) => {
        if (event === Events.contact(companyId)) events.push(payload);
      },
    });
    let summary: Record<string, unknown>;
    try {
      // the export re-imported changes nothing but counts as updated
      const again = await as(t.app, w.as.agent, {
        method: "POST",
        url: "/api/v1/contacts/import",
        ...upload("contacts.csv", exported),
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ imported: 0, updated: 2, rejected: [], rejectedCount: 0 });

      // commas this time, as a spreadsheet saves it
      const csv = [
        "name,number,email",
        "Nueva Persona,+52 1 55 2222 0001,nueva@correo.mx", // another company's number: new here
        "Nombre nuevo,5215522220002,nuevo@correo.mx", // updates name and email
        "Sin número,12,x@correo.mx",
        "Correo malo,5215522220009,no-es-correo",
        "Repetida,5215522220002,",
      ].join("\r\n");
      const res = await as(t.app, w.as.agent, {
        method: "POST",
        url: "/api/v1/contacts/import",
        ...upload("mis-contactos.csv", csv),
      });
      expect(res.statusCode).toBe(200);
      summary = res.json();
    } finally {
      t.app.charla.realtime.toCompany = original;
    }
    expect(summary).toEqual({
      imported: 1,
      updated: 1,
      rejected: [
        { row: 4, reason: "number", value: "12" },
        { row: 5, reason: "email", value: "no-es-correo" },
        { row: 6, reason: "duplicate", value: "5215522220002" },
      ],
      rejectedCount: 3,
    });
    const mine = await contactsOf(w.as.agent);
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Nueva Persona", number: "5215522220001", email: "nueva@correo.mx" }),
        expect.objectContaining({ name: "Nombre nuevo", number: "5215522220002", email: "nuevo@correo.mx" }),
        expect.objectContaining({ name: "Exportada", number: "5215522220003", email: "ex@correo.mx" }),
      ]),
    );
    expect(mine).toHaveLength(3);
    // the other company's contact is untouched, and the screens heard of each change
    expect(await contactsOf(await login(t.app, other.admin))).toEqual([expect.objectContaining({ name: "De otra empresa" })]);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "create", contact: expect.objectContaining({ number: "5215522220001" }) }),
        expect.objectContaining({ action: "update", contact: expect.objectContaining({ name: "Nombre nuevo" }) }),
      ]),
    );
  });

  it("a sheet of bare numbers keeps the names and emails the staff wrote", async () => {
    const w = await world();
    await buildContact(t.app, w.companyId, { name: "Ana Real", number: "5491133334444", email: "ana@x.com" });
    await buildContact(t.app, w.companyId, { name: "Beto", number: "5491133335555", email: "beto@x.com" });
    const csv = ["numero,nombre,email", "5491133334444,,", "5491133335555,Roberto,"].join("\n");
    const res = await as(t.app, w.as.agent, { method: "POST", url: "/api/v1/contacts/import", ...upload("numeros.csv", csv) });
    expect(res.json()).toMatchObject({ imported: 0, updated: 2, rejectedCount: 0 });
    const mine = await contactsOf(w.as.agent);
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Ana Real", number: "5491133334444", email: "ana@x.com" }),
        // a name the row has replaces the stored one; its empty email cell does not wipe the stored one
        expect.objectContaining({ name: "Roberto", number: "5491133335555", email: "beto@x.com" }),
      ]),
    );
  });

  it("an import too large to tell contact by contact tells the open pages to read their lists again", async () => {
    const w = await world();
    const events: unknown[] = [];
    const original = t.app.charla.realtime.toCompany;
    t.app.charla.realtime.toCompany = (companyId) => ({
      emit: (event: string, payload: unknown) => {
        if (event === Events.contact(companyId)) events.push(payload);
      },
    });
    try {
      const rows = Array.from({ length: 250 }, (_, i) => `Cliente ${i},54911400${String(i).padStart(5, "0")},`);
      const res = await as(t.app, w.as.agent, {
        method: "POST",
        url: "/api/v1/contacts/import",
        ...upload("muchos.csv", ["name,number,email", ...rows].join("\n")),
      });
      expect(res.json()).toMatchObject({ imported: 250, rejectedCount: 0 });
    } finally {
      t.app.charla.realtime.toCompany = original;
    }
    expect(events).toEqual([{ action: "reload" }]);
  });

  it("refuses a file that is no sheet and an upload under another field name", async () => {
    const w = await world();
    const binary = "\u0000\u0001\u0002 not a sheet";
    expectError(
      await as(t.app, w.as.agent, { method: "POST", url: "/api/v1/contacts/import", ...upload("x.csv", binary) }),
      400,
      "ERR_IMPORT_FORMAT",
    );
    expectError(
      await as(t.app, w.as.agent, { method: "POST", url: "/api/v1/contacts/import", ...upload("x.csv", "a,b", "other") }),
      400,
      "ERR_VALIDATION",
    );
  });
});
