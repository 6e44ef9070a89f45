import {
  ContactListForm,
  ContactListItemCreate,
  ContactListItemForm,
  ContactListItemsQuery,
  type ContactListItemsPage,
  type ContactListsPage,
  type ContactListView,
  IdParams,
  PageQuery,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { importSpreadsheet } from "./import.js";
import { sweepImportLeftovers } from "./leftovers.js";
import { allLists, findListView, itemView, pageItems, pageLists } from "./queries.js";
import { exampleSheet } from "./spreadsheet.js";
import { withUploadedSheet } from "./uploaded-sheet.js";
import { createItem, createList, deleteItem, deleteList, updateItem, updateList } from "./service.js";

/** Contact lists and their items (secondary §7), behind campaigns.use (staff, plan flag useCampaigns). */
export async function contactListsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "campaigns.use" } as const;
  // deleting a number of a list is the contacts page's rule (secondary §6)
  const remove = { permission: "contact-lists.delete-item" } as const;
  // the uploads of imports a crash cut short: their own removal (below) never ran
  app.addHook("onReady", async () => {
    const { config, storage, log } = app.charla;
    await sweepImportLeftovers(config.dataDir, storage).catch((err) => log.warn({ err }, "import leftovers not swept"));
  });

  r.get(
    "/contact-lists",
    { schema: { querystring: PageQuery }, config: use },
    (req): Promise<ContactListsPage> => pageLists(scopedFor(req), req.query.searchParam, req.query.pageNumber),
  );
  r.get(
    "/contact-lists/example",
    { schema: { querystring: z.object({ lang: z.enum(["es", "pt", "en"]).optional().default("es") }) }, config: use },
    async (req, reply) =>
      reply
        .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .header("content-disposition", 'attachment; filename="contactos.xlsx"')
        .send(await exampleSheet(req.query.lang)),
  );
  /**
   * Multipart `file`: an .xlsx, .xls or .csv sheet with the columns name, number and email, within
   * ContactListImportLimits; answers what the import did (ContactListImportResult).
   */
  r.post("/contact-lists/:id/upload", { schema: { params: IdParams }, config: use }, async (req) => {
    const q = scopedFor(req);
    found(await q.contactLists.findById(req.params.id), "ERR_NO_CONTACT_LIST_FOUND");
    return withUploadedSheet(req, (source, kind) => importSpreadsheet(req.ctx, req.params.id, source, kind));
  });
  r.get("/contact-lists/list", { config: use }, (req): Promise<ContactListView[]> => allLists(scopedFor(req)));
  r.get("/contact-lists/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    found(await findListView(scopedFor(req), req.params.id), "ERR_NO_CONTACT_LIST_FOUND"),
  );
  r.post("/contact-lists", { schema: { body: ContactListForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createList(req.ctx, req.body)),
  );
  r.put("/contact-lists/:id", { schema: { params: IdParams, body: ContactListForm }, config: use }, (req) =>
    updateList(req.ctx, req.params.id, req.body),
  );
  r.delete("/contact-lists/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteList(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  r.get(
    "/contact-list-items",
    { schema: { querystring: ContactListItemsQuery }, config: use },
    async (req): Promise<ContactListItemsPage> => {
      const q = scopedFor(req);
      found(await q.contactLists.findById(req.query.contactListId), "ERR_NO_CONTACT_LIST_FOUND");
      return pageItems(q, req.query.contactListId, req.query.searchParam, req.query.pageNumber);
    },
  );
  r.get("/contact-list-items/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    itemView(found(await scopedFor(req).contactListItems.findById(req.params.id), "ERR_NO_CONTACT_LIST_ITEM_FOUND")),
  );
  r.post("/contact-list-items", { schema: { body: ContactListItemCreate }, config: use }, async (req, reply) => {
    const { contactListId, ...item } = req.body;
    return reply.status(201).send(await createItem(req.ctx, contactListId, item));
  });
  r.put("/contact-list-items/:id", { schema: { params: IdParams, body: ContactListItemForm }, config: use }, (req) =>
    updateItem(req.ctx, req.params.id, req.body),
  );
  r.delete("/contact-list-items/:id", { schema: { params: IdParams }, config: remove }, async (req, reply) => {
    await deleteItem(req.ctx, req.params.id);
    return reply.status(204).send();
  });
}
