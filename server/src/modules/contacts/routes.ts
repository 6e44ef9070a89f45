import { Readable } from "node:stream";
import { ContactForm, IdParams, PageQuery, SearchParam, looseId } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { contactsCsv } from "./csv.js";
import { exportContacts, findContactView, listContacts, pageContacts } from "./queries.js";
import { createContact, deleteContact, importContacts, updateContact } from "./service.js";
import { importContactsUpload } from "./import-sheet.js";

/** core §7 calls it with no body: an empty JSON, form or text body is that same call. */
const ImportBody = z.union([z.object({ whatsappId: looseId() }), z.null(), z.literal("")]).optional();

const ListQuery = z.object({ searchParam: SearchParam });

export async function contactsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const q = scopedFor;

  r.get("/contacts", { schema: { querystring: PageQuery }, config: { permission: "contacts.use" } }, (req) =>
    pageContacts(q(req), req.query.searchParam, req.query.pageNumber),
  );
  r.get("/contacts/list", { schema: { querystring: ListQuery }, config: { permission: "contacts.use" } }, (req) =>
    listContacts(q(req), req.query.searchParam),
  );
  /** CSV download (semicolon; name, number, email) with a header row, streamed batch by batch from the database. */
  r.get("/contacts/export", { config: { permission: "contacts.use" } }, async (req, reply) =>
    reply
      .header("content-disposition", 'attachment; filename="contacts.csv"')
      .type("text/csv; charset=utf-8")
      .send(Readable.from(contactsCsv(exportContacts(q(req))))),
  );
  await app.register(importRoute);
  r.get("/contacts/:id", { schema: { params: IdParams }, config: { permission: "contacts.use" } }, async (req) =>
    found(await findContactView(q(req), req.params.id), "ERR_NO_CONTACT_FOUND"),
  );
  r.post("/contacts", { schema: { body: ContactForm }, config: { permission: "contacts.use" } }, async (req, reply) =>
    reply.status(201).send(await createContact(req.ctx, req.body)),
  );
  r.put("/contacts/:id", { schema: { params: IdParams, body: ContactForm }, config: { permission: "contacts.use" } }, (req) =>
    updateContact(req.ctx, req.params.id, req.body),
  );
  r.delete(
    "/contacts/:id",
    { schema: { params: IdParams }, config: { permission: "contacts-page:deleteContact" } },
    async (req, reply) => {
      await deleteContact(req.ctx, req.params.id);
      return reply.status(204).send();
    },
  );
}

/**
 * POST /contacts/import: with a multipart `file`, that sheet (the page's CSV export among them); without,
 * the connection's address book (core §7, as the family's clients call it: no body, whatever content
 * type their library set). Its own scope, so only this route reads an empty body as none.
 */
async function importRoute(app: FastifyInstance) {
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) =>
    String(body).trim() === "" ? done(null, undefined) : json(req, String(body), done),
  );
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app
    .withTypeProvider<ZodTypeProvider>()
    .post("/contacts/import", { schema: { body: ImportBody }, config: { permission: "contacts.use" } }, (req) =>
      req.isMultipart()
        ? importContactsUpload(req)
        : importContacts(req.ctx, req.body && typeof req.body === "object" ? (req.body.whatsappId ?? undefined) : undefined),
    );
}
