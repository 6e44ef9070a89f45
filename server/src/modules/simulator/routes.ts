import {
  Ack,
  isErrorCode,
  normalizeNumber,
  SimulatorInboundForm,
  type SimulatorOutboundItem,
  SimulatorReadForm,
  type SimulatorReadResult,
  type SimulatorThreadItem,
} from "@charla/contracts";
import { and, between, desc, eq, inArray, isNotNull, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { SimulatorDriver } from "../../channels/simulator/driver.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { driverError } from "../messages/send.js";
import { chatbotDone } from "../../chatbot/index.js";
import { campaignSends } from "./campaign-sends.js";
import { toInbound } from "./inbound-message.js";

const Params = z.object({ whatsappId: z.coerce.number().int().positive().max(2_147_483_647) });
const OutboundQuery = z.object({ number: z.string().trim().min(1).max(40) });
const THREAD_MAX = 500;

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
      // the simulator shows the bot's answer with the message, as a phone would a moment later
      if (row) await chatbotDone(app.charla, req.ctx.companyId, row.ticketId);
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
      const rows = await conversation(q, wa.id, req.query.number, eq(messages.fromMe, true));
      return rows.map(({ side: _side, isDeleted: _deleted, ...item }) => item);
    },
  );

  /**
   * The phone's own history with this connection (issue #8): what the customer sent and what agents
   * answered, oldest first, so the simulator page shows the whole conversation in any tab.
   */
  r.get(
    "/simulator/:whatsappId/messages",
    { schema: { params: Params, querystring: OutboundQuery }, config: { permission: "simulator.use" } },
    async (req): Promise<SimulatorThreadItem[]> => {
      const { q, wa } = await simulatorOf(req, req.params.whatsappId);
      const [thread, campaign] = await Promise.all([
        conversation(q, wa.id, req.query.number),
        campaignSends(q, wa, req.query.number),
      ]);
      if (campaign.length === 0) return thread;
      // the phone shows what campaigns sent to it among the conversation, by time (issue 26)
      const all = [...thread, ...campaign].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
      return all.slice(-THREAD_MAX);
    },
  );

  /**
   * The customer reads the conversation: a read receipt for everything agents sent that reached the
   * phone and is not read yet, through the driver like a real phone's (blue ticks for the agents).
   */
  r.post(
    "/simulator/:whatsappId/read",
    { schema: { params: Params, body: SimulatorReadForm }, config: { permission: "simulator.use" } },
    async (req): Promise<SimulatorReadResult> => {
      const { q, wa } = await simulatorOf(req, req.params.whatsappId);
      const thread = await ticketsOf(q, wa.id, req.body.number);
      if (!thread) return { read: 0 };
      const unread = await q.db
        .select({ channelId: messages.channelId })
        .from(messages)
        .where(
          q.messages.where(
            eq(messages.fromMe, true),
            eq(messages.whatsappId, wa.id),
            inArray(messages.ticketId, thread.ids),
            isNotNull(messages.channelId),
            between(messages.ack, Ack.pending, Ack.delivered),
          ),
        );
      const channelIds = unread.map((m) => m.channelId).filter((id): id is string => id !== null);
      if (channelIds.length === 0) return { read: 0 };
      const driver = (await app.charla.sessions.driverFor(req.ctx.companyId, wa.id)) as SimulatorDriver | null;
      if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      await driver.readReceipt(channelIds).catch((err: unknown) => {
        throw driverError(err, "ERR_WAPP_NOT_INITIALIZED");
      });
      return { read: channelIds.length };
    },
  );
}

/**
 * The ids of the number's tickets on this connection, as a subquery (wrapped: a query builder
 * returned from an async function would be run), or null when the number is no contact.
 */
async function ticketsOf(q: Scoped, whatsappId: number, number: string) {
  const [contact] = await q.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(q.contacts.where(eq(contacts.number, normalizeNumber(number))));
  if (!contact) return null;
  const ids = q.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(q.tickets.where(and(eq(tickets.contactId, contact.id), eq(tickets.whatsappId, whatsappId))));
  return { ids };
}

/** The newest messages between the number and this connection (at most 500), oldest first. */
async function conversation(q: Scoped, whatsappId: number, number: string, extra?: SQL): Promise<SimulatorThreadItem[]> {
  const ticketIds = await ticketsOf(q, whatsappId, number);
  if (!ticketIds) return [];
  const rows = await q.db
    .select()
    .from(messages)
    .where(q.messages.where(inArray(messages.ticketId, ticketIds.ids), extra))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(THREAD_MAX);
  return rows.reverse().map((m) => ({
    id: m.id,
    side: m.fromMe ? "agent" : "customer",
    // a deleted message is gone from the phone too; only the fact remains
    body: m.isDeleted ? "" : m.body,
    mediaType: m.mediaType,
    mediaUrl: m.mediaPath && !m.isDeleted ? `/api/v1/messages/${m.id}/media` : null,
    mediaName: m.isDeleted ? null : m.mediaName,
    ack: m.ack,
    ackError: isErrorCode(m.ackError) ? m.ackError : null,
    isDeleted: m.isDeleted,
    createdAt: m.createdAt.toISOString(),
  }));
}
