import { SimulatorInboundForm, type SimulatorOutboundItem, normalizeNumber } from "@charla/contracts";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { SimulatorDriver } from "../../channels/simulator/driver.js";
import { scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { driverError } from "../messages/send.js";
import { toInbound } from "./inbound-message.js";

const Params = z.object({ whatsappId: z.coerce.number().int().positive().max(2_147_483_647) });
const OutboundQuery = z.object({ number: z.string().trim().min(1).max(40) });

/** The owning company's simulator connection, else 404 (foreign or missing) or 400 (another provider). */
async function simulatorOf(req: FastifyRequest, whatsappId: number) {
  const q = scoped(req.ctx.db, req.ctx.companyId);
  const wa = found(await q.whatsapps.findById(whatsappId), "ERR_NO_WAPP_FOUND");
  if (wa.provider !== "simulator") throw new AppError("ERR_WAPP_NOT_SIMULATOR");
  return { q, wa };
}

export async function simulatorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** A customer's message entering through the same path a real phone's does (issue #3). */
  r.post(
    "/simulator/:whatsappId/inbound",
    {
      schema: { params: Params, body: SimulatorInboundForm },
      config: { permission: "simulator.use" },
      bodyLimit: 16 * 1024 * 1024,
    },
    async (req, reply) => {
      const { q, wa } = await simulatorOf(req, req.params.whatsappId);
      const stored = (channelId: string) =>
        q.db
          .select({ id: messages.id, ticketId: messages.ticketId })
          .from(messages)
          .where(q.messages.where(eq(messages.whatsappId, wa.id), eq(messages.channelId, channelId)))
          .then((rows) => rows[0] ?? null);
      // a replayed id still goes through the pipeline (which ignores it); the answer says so
      const before = req.body.id ? await stored(req.body.id) : null;
      const driver = (await app.charla.sessions.driverFor(req.ctx.companyId, wa.id)) as SimulatorDriver | null;
      if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      const channelId = await driver.receive(toInbound(req.body)).catch((err: unknown) => {
        throw driverError(err, "ERR_WAPP_NOT_INITIALIZED");
      });
      const row = before ? null : await stored(channelId);
      return reply
        .status(row ? 201 : 200)
        .send({ channelId, stored: !!row, messageId: row?.id ?? null, ticketId: row?.ticketId ?? before?.ticketId ?? null });
    },
  );

  /** What agents sent to a number through this simulator, oldest first, with their acks. */
  r.get(
    "/simulator/:whatsappId/outbound",
    { schema: { params: Params, querystring: OutboundQuery }, config: { permission: "simulator.use" } },
    async (req): Promise<SimulatorOutboundItem[]> => {
      const { q, wa } = await simulatorOf(req, req.params.whatsappId);
      const [contact] = await q.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(q.contacts.where(eq(contacts.number, normalizeNumber(req.query.number))));
      if (!contact) return [];
      const ticketIds = q.db
        .select({ id: tickets.id })
        .from(tickets)
        .where(q.tickets.where(and(eq(tickets.contactId, contact.id), eq(tickets.whatsappId, wa.id))));
      const rows = await q.db
        .select()
        .from(messages)
        .where(q.messages.where(eq(messages.fromMe, true), inArray(messages.ticketId, ticketIds)))
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(500);
      return rows.map((m) => ({
        id: m.id,
        body: m.body,
        mediaType: m.mediaType,
        mediaUrl: m.mediaPath ? `/api/v1/messages/${m.id}/media` : null,
        mediaName: m.mediaName,
        ack: m.ack,
        createdAt: m.createdAt.toISOString(),
      }));
    },
  );
}
