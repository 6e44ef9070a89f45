import { IdParams, PageQuery, UserCompanyForm, UserCreateForm, UserUpdateForm, can } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scoped } from "../../db/scoped.js";
import { AppError, found } from "../../lib/app-error.js";
import { isJpeg } from "../../lib/storage.js";
import { storeSingleFile } from "../../plugins/upload.js";
import { findUserView, listAllUsers, pageUsers } from "./queries.js";
import { createUser, deleteUser, moveUserToCompany, setProfileImage, updateUser } from "./service.js";

export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get("/users", { schema: { querystring: PageQuery }, config: { permission: "users.manage" } }, (req) =>
    pageUsers(scoped(req.ctx.db, req.ctx.companyId), req.query.searchParam, req.query.pageNumber),
  );

  r.get("/users/list", { config: { permission: "users.list" } }, (req) => listAllUsers(scoped(req.ctx.db, req.ctx.companyId)));

  r.get("/users/:id", { schema: { params: IdParams }, config: { authenticated: true } }, async (req) => {
    const view = found(await findUserView(scoped(req.ctx.db, req.ctx.companyId), req.params.id), "ERR_NO_USER_FOUND");
    if (view.id !== req.ctx.user.id && !can(req.ctx.user, "users.manage")) throw new AppError("ERR_NO_PERMISSION");
    return view;
  });

  r.post("/users", { schema: { body: UserCreateForm }, config: { permission: "users.manage" } }, async (req, reply) =>
    reply.status(201).send(await createUser(req.ctx, req.body)),
  );

  r.put("/users/:id", { schema: { params: IdParams, body: UserUpdateForm }, config: { authenticated: true } }, (req) =>
    updateUser(req.ctx, req.params.id, req.body),
  );

  r.delete("/users/:id", { schema: { params: IdParams }, config: { permission: "users.manage" } }, async (req, reply) => {
    await deleteUser(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  r.post("/users/:id/media-upload", { schema: { params: IdParams }, config: { authenticated: true } }, (req) =>
    setProfileImage(req.ctx, req.params.id, async (path) => {
      await storeSingleFile(req, "profileImage", {
        storage: req.ctx.storage,
        companyId: req.ctx.companyId,
        path,
        maxBytes: req.ctx.config.maxUploadBytes,
        looksRight: isJpeg,
      });
    }),
  );

  r.get("/users/:id/profile-image", { schema: { params: IdParams }, config: { authenticated: true } }, async (req, reply) => {
    const user = found(await scoped(req.ctx.db, req.ctx.companyId).users.findById(req.params.id), "ERR_NO_USER_FOUND");
    if (!user.profileImage) throw new AppError("ERR_NOT_FOUND");
    const data = await req.ctx.storage.read(req.ctx.companyId, user.profileImage).catch(() => null);
    if (!data) throw new AppError("ERR_NOT_FOUND");
    return reply.header("cache-control", "private, max-age=86400").type("image/jpeg").send(data);
  });

  r.put(
    "/users-company/:id",
    { schema: { params: IdParams, body: UserCompanyForm }, config: { permission: "companies.manage" } },
    (req) => moveUserToCompany(req.ctx, req.params.id, req.body.companyId, req.body.profile),
  );
}
