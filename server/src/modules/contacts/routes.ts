import { Readable } from "node:stream";
import { ContactForm, IdParams, PageQuery, SearchParam } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { contactsCsv } from "./csv.js";
import { exportContacts, findContactView, listContacts, pageContacts } from "./queries.js";
import { createContact, deleteContact, importContacts, updateContact } from "./service.js";
import { IdSchema } from "@charla/contracts";

const ImportBody = z.object({ whatsappId: IdSchema.optional() }).optional();

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
  r.post("/contacts/import", { schema: { body: ImportBody }, config: { permission: "contacts.use" } }, (req) =>
    importContacts(req.ctx, req.body?.whatsappId),
  );
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
