import fs, { existsSync, readdirSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, messages } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { as, buildCompany, buildContact, buildTicket, buildWhatsapp, login } from "../test/factories.js";
import { expectError } from "../test/http.js";

const MAX_UPLOAD = 4096;
const QUOTA = 10_000;

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({ maxUploadBytes: MAX_UPLOAD, companyStorageQuotaBytes: QUOTA });
});
afterAll(() => t.close());

/** Every file under the company's folder, partial ones included. */
function filesOf(companyId: number): string[] {
  const dir = join(t.config.dataDir, "files", `company${companyId}`);
  const walk = (d: string): string[] =>
    existsSync(d)
      ? readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [e.name]))
      : [];
  return walk(dir);
}

const usageOf = async (companyId: number) =>
  (await t.app.charla.db.select({ n: companies.storageBytes }).from(companies).where(eq(companies.id, companyId)))[0].n;

function form(files: { name: string; size: number }[], fields: Record<string, string> = {}) {
  const boundary = "----storage-test";
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${f.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.alloc(f.size, 0x41),
      Buffer.from("\r\n"),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

async function world() {
  const c = await buildCompany(t.app);
  const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED" });
  const ticket = await buildTicket(t.app, c.id, {
    contactId: (await buildContact(t.app, c.id)).id,
    whatsappId: wa.id,
    status: "open",
    userId: c.admin.id,
  });
  return { c, ticket, s: await login(t.app, c.admin) };
}

const post = (w: Awaited<ReturnType<typeof world>>, body: ReturnType<typeof form>, ticketId = w.ticket.id) =>
  as(t.app, w.s, { method: "POST", url: `/api/v1/messages/${ticketId}`, ...body });

describe("#storage uploads", () => {
  it("streams files to disk and counts them; a file over MAX_UPLOAD_BYTES is 413 and leaves nothing", async () => {
    const w = await world();
    const ok = await post(w, form([{ name: "a.pdf", size: 3000 }]));
    expect(ok.statusCode).toBe(201);
    expect(filesOf(w.c.id)).toHaveLength(1);
    expect(await usageOf(w.c.id)).toBe(3000);

    // the second file is too big: the first one of the same request goes too, and no partial stays
    expectError(
      await post(
        w,
        form([
          { name: "b.pdf", size: 100 },
          { name: "c.pdf", size: MAX_UPLOAD + 1 },
        ]),
      ),
      413,
      "ERR_FILE_TOO_LARGE",
    );
    expect(filesOf(w.c.id)).toHaveLength(1);
    expect(await usageOf(w.c.id)).toBe(3000);
    expect(await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id))).toHaveLength(1);
  });

  it("refuses an upload past the company's storage quota with ERR_STORAGE_QUOTA; other companies are not affected", async () => {
    const w = await world();
    for (let i = 0; i < 3; i++) expect((await post(w, form([{ name: `f${i}.pdf`, size: 3000 }]))).statusCode).toBe(201);
    expect(await usageOf(w.c.id)).toBe(9000);
    const over = await post(w, form([{ name: "over.pdf", size: 2000 }]));
    expectError(over, 413, "ERR_STORAGE_QUOTA");
    expect(over.json().message).toBe("La empresa alcanzó su límite de almacenamiento de archivos.");
    expect(filesOf(w.c.id)).toHaveLength(3);
    expect(await usageOf(w.c.id)).toBe(9000);
    // a text still goes out, and another company has its own quota
    expect(
      (await as(t.app, w.s, { method: "POST", url: `/api/v1/messages/${w.ticket.id}`, payload: { body: "sin archivo" } }))
        .statusCode,
    ).toBe(201);
    const other = await world();
    expect((await post(other, form([{ name: "x.pdf", size: 3000 }]))).statusCode).toBe(201);
  });

  it("removes the uploaded files of a refused request (ticket not open, blank, not found) and uncounts them", async () => {
    const w = await world();
    const pending = await buildTicket(t.app, w.c.id, { contactId: (await buildContact(t.app, w.c.id)).id, status: "pending" });
    expectError(await post(w, form([{ name: "a.pdf", size: 1000 }]), pending.id), 409, "ERR_TICKET_NOT_OPEN");
    expectError(await post(w, form([{ name: "a.pdf", size: 1000 }]), 987654), 404, "ERR_NO_TICKET_FOUND");
    expectError(await post(w, form([{ name: "a.pdf", size: 1000 }], { quotedMsg: "{bad" })), 400, "ERR_VALIDATION");
    expect(filesOf(w.c.id)).toEqual([]);
    expect(await usageOf(w.c.id)).toBe(0);
  });

  it("a body broken before its file was opened leaves no partial file once the upload has answered", async () => {
    // the broken body ends the pipeline while the partial's open is still under way: removed before
    // the file stream closed, the open created it afterwards (a stray .part the bad-input walk saw now
    // and then on a busy machine). A slow disk's open makes that happen every time.
    const c = await buildCompany(t.app);
    const createWriteStream = fs.createWriteStream;
    const slowOpen = (...args: unknown[]) => setTimeout(() => (fs.open as (...a: unknown[]) => void)(...args), 50);
    fs.createWriteStream = ((path, options) =>
      createWriteStream(path, {
        ...(typeof options === "object" ? options : {}),
        fs: { ...fs, open: slowOpen },
      })) as typeof createWriteStream;
    syncBuiltinESMExports();
    try {
      const body = new Readable({ read() {} });
      body.on("error", () => {});
      body.destroy(new Error("client went away"));
      await expect(t.app.charla.storage.writeUpload(c.id, "media/cut.bin", body, MAX_UPLOAD)).rejects.toMatchObject({
        code: "ERR_UPLOAD_INCOMPLETE",
      });
      // however long the disk took, the answer came after it: nothing left to appear
      await new Promise((r) => setTimeout(r, 100));
      expect(filesOf(c.id)).toEqual([]);
    } finally {
      fs.createWriteStream = createWriteStream;
      syncBuiltinESMExports();
    }
  });

  it("counts a customer's media without refusing it, and uncounts removed files", async () => {
    const c = await buildCompany(t.app);
    const path = await t.app.charla.storage.write(c.id, "media/in.bin", Buffer.alloc(QUOTA + 5));
    expect(await usageOf(c.id)).toBe(QUOTA + 5);
    await t.app.charla.storage.remove(c.id, path);
    expect(await usageOf(c.id)).toBe(0);
    // a client's stream that breaks midway (or broke before it was handed over) is the client's
    // 400, leaves no partial file and counts nothing
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(100));
        this.destroy(new Error("client went away"));
      },
    });
    await expect(t.app.charla.storage.writeUpload(c.id, "media/broken.bin", broken, MAX_UPLOAD)).rejects.toMatchObject({
      code: "ERR_UPLOAD_INCOMPLETE",
      status: 400,
    });
    const brokenBefore = new Readable({ read() {} });
    brokenBefore.on("error", () => undefined).destroy(new Error("cut"));
    await expect(t.app.charla.storage.writeUpload(c.id, "media/broken2.bin", brokenBefore, MAX_UPLOAD)).rejects.toMatchObject({
      code: "ERR_UPLOAD_INCOMPLETE",
    });
    expect(filesOf(c.id)).toEqual([]);
    expect(await usageOf(c.id)).toBe(0);
    // a failure on our side (the target is a folder) stays an error of ours, not the client's
    await t.app.charla.storage.write(c.id, "media/taken/x.bin", Buffer.from("x"));
    const whole = Readable.from([Buffer.from("abc")]);
    const ours = await t.app.charla.storage.writeUpload(c.id, "media/taken", whole, MAX_UPLOAD).catch((e: unknown) => e);
    expect(ours).toBeInstanceOf(Error);
    expect((ours as { code?: string }).code).not.toBe("ERR_UPLOAD_INCOMPLETE");
    expect(filesOf(c.id)).toEqual(["x.bin"]);
    expect(await usageOf(c.id)).toBe(1);
  });

  it("streams a logo or profile picture to disk within the limits; a refused one leaves the old one and no file", async () => {
    const w = await world();
    const one = (field: string, name: string, head: number[], size: number) => {
      const boundary = "----single-file";
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        Buffer.from(head),
        Buffer.alloc(size - head.length, 0x41),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
    };
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const jpeg = [0xff, 0xd8, 0xff, 0xe0];
    const logo = (body: ReturnType<typeof one>) =>
      as(t.app, w.s, { method: "POST", url: `/api/v1/companies/${w.c.id}/logo`, ...body });
    const picture = (body: ReturnType<typeof one>) =>
      as(t.app, w.s, { method: "POST", url: `/api/v1/users/${w.c.admin.id}/media-upload`, ...body });

    expect((await logo(one("logo", "a.png", png, 3000))).statusCode).toBe(200);
    expect(filesOf(w.c.id)).toHaveLength(1);
    expect(await usageOf(w.c.id)).toBe(3000);
    // too big, not a PNG, over the quota: refused, the logo in place, nothing left or counted
    expectError(await logo(one("logo", "big.png", png, MAX_UPLOAD + 1)), 413, "ERR_FILE_TOO_LARGE");
    expectError(await logo(one("logo", "fake.png", jpeg, 100)), 400, "ERR_INVALID_FILE_TYPE");
    expect((await picture(one("profileImage", "me.jpg", jpeg, 4000))).statusCode).toBe(200);
    expect(await usageOf(w.c.id)).toBe(7000);
    expectError(await picture(one("profileImage", "me2.jpg", jpeg, 4000)), 413, "ERR_STORAGE_QUOTA");
    expect(filesOf(w.c.id)).toHaveLength(2);
    expect(await usageOf(w.c.id)).toBe(7000);
    expect((await as(t.app, w.s, { method: "GET", url: `/api/v1/companies/${w.c.id}/logo` })).rawPayload.length).toBe(3000);
    // a new logo replaces the old file rather than adding to it
    expect((await logo(one("logo", "b.png", png, 2000))).statusCode).toBe(200);
    expect(filesOf(w.c.id)).toHaveLength(2);
    expect(await usageOf(w.c.id)).toBe(6000);
  });
});
