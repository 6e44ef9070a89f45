import { ConnectionForm, type ConnectionStatus, type ConnectionView, IdParams, PairingCodeForm, text } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { whatsapps } from "../../db/schema/index.js";
import { found } from "../../lib/app-error.js";
import { driverError } from "../messages/send.js";
import { apiTokenRoutes } from "./api-token.js";
import { absoluteUrl } from "../cloud/settings.js";
import { connectionFor, emitConnectionSession } from "./broadcast.js";
import { numberOfToken } from "./presenter.js";
import { connectionView, createConnection, deleteConnection, listConnections, updateConnection } from "./service.js";

// `session=0` is what the web sends (core §7); sessions are never part of the answer
const ListQuery = z.object({ session: text().max(5).optional(), companyId: text().max(12).optional() });

const tenant = scopedFor;

/** A session that could not be reached (another process gone, the channel down) is a catalogue error. */
const channelFailure = (err: unknown): never => {
  throw driverError(err, "ERR_WAPP_NOT_INITIALIZED");
};

/**
 * A Cloud API connection's webhook URL as the caller reached this server, when no PUBLIC_URL says
 * otherwise: the address to paste in Meta's app is absolute.
 */
function withOrigin<T extends Pick<ConnectionView, "cloud" | "webhookUrl">>(req: FastifyRequest, view: T): T {
  if (!view.cloud) return view;
  const webhookUrl = absoluteUrl(view.cloud.webhookUrl, originOf(req));
  return { ...view, webhookUrl, cloud: { ...view.cloud, webhookUrl } };
}

const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** The request's services with its own address as the public one when none is configured: the views a save announces are absolute too. */
function withOriginCtx(req: FastifyRequest) {
  const { ctx } = req;
  return ctx.config.publicUrl ? ctx : { ...ctx, config: { ...ctx.config, publicUrl: originOf(req) } };
}

/** Connections (core §7 Connections) and their sessions (retry, new QR, disconnect). */
export async function whatsappsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  await app.register(apiTokenRoutes);

  // every user lists the connections; their QR code and token only those who may manage them
  r.get("/whatsapp", { schema: { querystring: ListQuery }, config: { permission: "connections.list" } }, async (req) =>
    (await listConnections(tenant(req), req.ctx)).map((view) => connectionFor(req.ctx.user, withOrigin(req, view))),
  );
  r.get(
    "/whatsapp/:id",
    { schema: { params: IdParams, querystring: ListQuery }, config: { permission: "connections.list" } },
    async (req) => connectionFor(req.ctx.user, withOrigin(req, await connectionView(tenant(req), req.ctx, req.params.id))),
  );
  r.post(
    "/whatsapp",
    { schema: { body: ConnectionForm }, config: { permission: "connections-page:addConnection" } },
    async (req, reply) => reply.status(201).send(withOrigin(req, await createConnection(withOriginCtx(req), req.body))),
  );
  r.put(
    "/whatsapp/:id",
    { schema: { params: IdParams, body: ConnectionForm }, config: { permission: "connections-page:editOrDeleteConnection" } },
    async (req) => withOrigin(req, await updateConnection(withOriginCtx(req), req.params.id, req.body)),
  );
  r.delete(
    "/whatsapp/:id",
    { schema: { params: IdParams }, config: { permission: "connections-page:editOrDeleteConnection" } },
    async (req, reply) => {
      await deleteConnection(req.ctx, req.params.id);
      return reply.status(204).send();
    },
  );

  const session = { permission: "connections-page:actionButtons" } as const;
  const owned = async (req: FastifyRequest, id: number) => found(await tenant(req).whatsapps.findById(id), "ERR_NO_WAPP_FOUND");

  /** Retry: start the session again from its stored link. */
  r.post("/whatsappsession/:id", { schema: { params: IdParams }, config: session }, async (req) => {
    const wa = await owned(req, req.params.id);
    await req.ctx.sessions.restart(req.ctx.companyId, wa.id).catch(channelFailure);
    return withOrigin(req, await connectionView(tenant(req), req.ctx, wa.id));
  });
  /** Link with a phone number: the session shows PAIRING with a code to type on the phone, where the QR goes. */
  r.post(
    "/whatsappsession/:id/pairing-code",
    { schema: { params: IdParams, body: PairingCodeForm }, config: session },
    async (req) => {
      const wa = await owned(req, req.params.id);
      const number = req.body?.number || numberOfToken(wa.token);
      await req.ctx.sessions.pairWithCode(req.ctx.companyId, wa.id, number).catch(channelFailure);
      return withOrigin(req, await connectionView(tenant(req), req.ctx, wa.id));
    },
  );
  /** New QR: forget the link and pair again. */
  r.put("/whatsappsession/:id", { schema: { params: IdParams }, config: session }, async (req) => {
    const wa = await owned(req, req.params.id);
    await req.ctx.sessions.newQr(req.ctx.companyId, wa.id).catch(channelFailure);
    return withOrigin(req, await connectionView(tenant(req), req.ctx, wa.id));
  });
  /** Disconnect: unlink the phone and stop; the connection stays, DISCONNECTED. */
  r.delete("/whatsappsession/:id", { schema: { params: IdParams }, config: session }, async (req) => {
    const wa = await owned(req, req.params.id);
    await req.ctx.sessions.logout(req.ctx.companyId, wa.id).catch(channelFailure);
    const q = tenant(req);
    const [row] = await q.db
      .update(whatsapps)
      .set({ status: "DISCONNECTED", statusReason: "", qrcode: "", updatedAt: new Date() })
      .where(q.whatsapps.where(eq(whatsapps.id, wa.id)))
      .returning();
    await emitConnectionSession(req.ctx, req.ctx.companyId, {
      id: row.id,
      status: row.status as ConnectionStatus,
      statusReason: "",
      qrcode: "",
      retries: row.retries,
      updatedAt: row.updatedAt.toISOString(),
    });
    return withOrigin(req, await connectionView(q, req.ctx, wa.id));
  });
}
